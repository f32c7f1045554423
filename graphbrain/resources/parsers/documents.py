"""The parsers' entry points: a file, raw text or a fetched body into a ``ParsedDocument``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from graphbrain.contracts import SourceType
from graphbrain.errors import InputError
from graphbrain.ids import content_hash
from graphbrain.resources.chunking import DEFAULT_MAX_CHARS, DEFAULT_OVERLAP
from graphbrain.resources.model import DocFormat, ParsedDocument, normalize_text
from graphbrain.resources.parsers.assemble import Choices, assemble, draft_for
from graphbrain.resources.parsers.formats import CODE_EXTENSIONS, CODE_MIME, FMT_ALIASES, detect_format

__all__ = ["MAX_FILE_BYTES", "parse_bytes", "parse_file", "parse_text"]

MAX_FILE_BYTES = 50 * 1024 * 1024


def parse_file(
    path: str | Path,
    *,
    title: str | None = None,
    source_uri: str | None = None,
    source_type: SourceType = "file",
    language: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    overlap: int = DEFAULT_OVERLAP,
    max_bytes: int = MAX_FILE_BYTES,
) -> ParsedDocument:
    """Parse a file on disk; its format comes from the extension and the content (``detect_format``).

    ``source_uri`` defaults to the file's absolute ``file://`` URI. Raises InputError, naming the file,
    when it is missing, too large, or in a format that cannot be read.
    """
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if p.is_dir():
        raise InputError(f"{p}: is a directory (iterate it with resources.iter_files)")
    size = p.stat().st_size
    if size > max_bytes:
        raise InputError(f"{p}: {size} bytes is over the {max_bytes}-byte limit for one file")
    try:
        data = p.read_bytes()
    except OSError as e:
        raise InputError(f"{p}: cannot be read ({e.strerror or e})") from e
    fmt, code_language = detect_format(str(p), data[:8192])
    try:
        draft = draft_for(fmt, code_language, data, name=p.name, base_name=p.name, url=None, charset=None)
    except InputError as e:
        msg = str(e)
        raise InputError(msg if msg.startswith(p.name) else f"{p}: {msg}", e.errors) from e
    stat = p.stat()
    file_meta: dict[str, Any] = {
        "path": str(p),
        "file_name": p.name,
        "size_bytes": size,
        "modified_at": datetime.fromtimestamp(stat.st_mtime, tz=UTC).isoformat(),
    }
    choices = Choices(title, source_type, language, max_chars, overlap)
    return assemble(
        draft,
        choices,
        name=p.name,
        source_uri=source_uri or p.resolve().as_uri(),
        metadata={**file_meta, **(metadata or {})},
    )


def parse_text(
    text: str,
    *,
    title: str | None = None,
    fmt: str = "markdown",
    source_uri: str | None = None,
    source_type: SourceType = "manual",
    language: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    overlap: int = DEFAULT_OVERLAP,
) -> ParsedDocument:
    """Parse text given directly: a manual note, a memory snapshot, a pasted page.

    ``fmt`` is "markdown" (default), "text", "html", or a code language ("python", "go", ...).
    ``source_uri`` defaults to ``graphbrain://manual/<first 16 hex of the content hash>``.
    """
    key = fmt.lower()
    doc_fmt: DocFormat
    code_language: str | None = None
    if key in FMT_ALIASES:
        doc_fmt = FMT_ALIASES[key]
    elif key in CODE_MIME or f".{key}" in CODE_EXTENSIONS:
        doc_fmt, code_language = "code", CODE_EXTENSIONS.get(f".{key}", key)
    else:
        known = sorted({*FMT_ALIASES, *CODE_MIME})
        raise InputError(f"unknown text format {fmt!r} (one of: {', '.join(known)})")
    name = title or "note"
    draft = draft_for(doc_fmt, code_language, text, name=name, base_name=name, url=None, charset=None)
    uri = source_uri or f"graphbrain://manual/{content_hash(normalize_text(text))[:16]}"
    choices = Choices(title, source_type, language, max_chars, overlap)
    return assemble(draft, choices, name=name, source_uri=uri, metadata=metadata)


def parse_bytes(
    data: bytes,
    content_type: str,
    source_uri: str,
    *,
    title: str | None = None,
    source_type: SourceType = "url",
    language: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    overlap: int = DEFAULT_OVERLAP,
) -> ParsedDocument:
    """Parse a fetched body (see ``fetch.fetch_url``) by its Content-Type, then by the URL's extension.

    ``text/plain`` served for a ``.md`` or ``.py`` URL is parsed as Markdown or code.
    """
    mime, _, params = content_type.partition(";")
    mime = mime.strip().lower()
    cs = re.search(r"charset\s*=\s*\"?([\w-]+)", params, re.IGNORECASE)
    charset = cs.group(1) if cs else None
    url_path = unquote(urlsplit(source_uri).path)
    fmt: DocFormat
    code_language: str | None = None
    if mime == "application/pdf" or data.startswith(b"%PDF-"):
        fmt = "pdf"
    elif mime in ("text/html", "application/xhtml+xml"):
        fmt = "html"
    elif mime in ("text/markdown", "text/x-markdown"):
        fmt = "markdown"
    elif mime in ("text/plain", "application/json", "") or mime.startswith("text/"):
        try:
            fmt, code_language = detect_format(url_path or "body", data[:8192])
        except InputError as e:
            raise InputError(f"{source_uri}: {e}") from e
    else:
        raise InputError(f"{source_uri}: unsupported content type {mime!r}")
    name = Path(url_path).name or urlsplit(source_uri).hostname or source_uri
    try:
        draft = draft_for(fmt, code_language, data, name=source_uri, base_name=name, url=source_uri, charset=charset)
    except InputError as e:
        msg = str(e)
        raise InputError(msg if msg.startswith(source_uri) else f"{source_uri}: {msg}", e.errors) from e
    choices = Choices(title, source_type, language, max_chars, overlap)
    return assemble(
        draft, choices, name=name, source_uri=source_uri, metadata={"content_type": content_type, **(metadata or {})}
    )
