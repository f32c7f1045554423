"""Ingest sources: what a ``source`` argument is (text, snapshot, URL, file, directory) and how each is parsed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from os import PathLike, fspath
from pathlib import Path
from typing import Any, Literal, cast
from urllib.parse import quote, unquote, urlsplit

from graphbrain.errors import GraphbrainError, InputError
from graphbrain.ids import stable_id
from graphbrain.resources.fetch import fetch_url
from graphbrain.resources.model import ParsedDocument
from graphbrain.resources.options import IngestOptions
from graphbrain.resources.parsers import parse_bytes, parse_file, parse_text
from graphbrain.resources.refs import normalise_url
from graphbrain.resources.snapshot import MemorySnapshot, parse_snapshot
from graphbrain.store import Store

__all__ = [
    "MAX_SOURCE_URI_CHARS",
    "MAX_TITLE_CHARS",
    "ManualText",
    "Resolved",
    "SourceKind",
    "document_id_for",
    "file_uri",
    "is_url",
    "parse_path",
    "parse_manual",
    "parse_url",
    "path_of",
    "resolve_source",
]

SourceKind = Literal["file", "directory", "url", "manual", "memory_snapshot"]

# A title (like a ref's) and a source URI are bounded: the URI is a RANGE-indexed key (about 8 kB at most).
MAX_TITLE_CHARS = 1024
MAX_SOURCE_URI_CHARS = 4096


@dataclass(frozen=True, slots=True)
class ManualText:
    """Raw text to ingest as a ``manual`` document (the explicit alternative to ``source_type="manual"``)."""

    text: str
    title: str | None = None
    format: str = "markdown"  # "markdown", "text", "html" or a code language
    source_uri: str | None = None


def file_uri(path: str | PathLike[str]) -> str:
    """The ``source_uri`` of a file: ``file://`` plus the resolved absolute path, not percent-encoded.

    Readable and prefix-filterable (``source_uri_prefix: ["file:///srv/docs/"]`` works for any script),
    and for absolute paths the same form ``resources.refs.normalise_ref_uri`` gives a file ref.
    """
    return "file://" + Path(path).resolve().as_posix()


def document_id_for(namespace: str, source_uri: str) -> str:
    return stable_id("doc", namespace, source_uri)


def _quoted_title(title: str) -> str:
    """The title as a URI segment; a very long one (CJK quotes to 9 bytes a character) as its start and
    a hash of all of it, so the URI stays under the index's key size."""
    quoted = quote(title, safe="")
    if len(quoted) <= MAX_SOURCE_URI_CHARS - 64:
        return quoted
    return quote(title[:100], safe="") + "~" + hashlib.sha256(title.encode("utf-8")).hexdigest()[:24]


def is_url(s: str) -> bool:
    return s.lower().startswith(("http://", "https://"))


def path_of(s: str) -> Path:
    if s.startswith("file://"):
        return Path(unquote(urlsplit(s).path))
    return Path(s).expanduser()


def manual_from_mapping(data: Mapping[str, Any]) -> ManualText:
    unknown = set(data) - {"text", "title", "format", "source_uri"}
    if unknown:
        raise InputError(f"source: unknown keys {sorted(unknown)} for raw text (text, title, format, source_uri)")
    text = data.get("text")
    if not isinstance(text, str):
        raise InputError("source.text: must be a string")
    return ManualText(
        text=text,
        title=cast(str | None, data.get("title")),
        format=str(data.get("format") or "markdown"),
        source_uri=cast(str | None, data.get("source_uri")),
    )


@dataclass(frozen=True, slots=True)
class Resolved:
    """A source, recognised: one document to parse, or a directory whose files to parse one by one."""

    kind: SourceKind
    label: str
    parse: Callable[[], ParsedDocument] | None = None
    directory: Path | None = None


def resolve_source(source: Any, opts: IngestOptions, source_uri: str | None, store: Store) -> Resolved:
    """Recognise ``source`` (the order is the ingest module docstring's); raises InputError for none."""
    st = opts.source_type
    if isinstance(source, ManualText) or (isinstance(source, Mapping) and "text" in source):
        text = source if isinstance(source, ManualText) else manual_from_mapping(source)
        if source_uri and not text.source_uri:
            text = ManualText(text.text, title=text.title, format=text.format, source_uri=source_uri)
        return Resolved("manual", _manual_label(text), parse=lambda: parse_manual(text, opts))
    if st == "manual":
        if not isinstance(source, str):
            raise InputError(f"source: source_type 'manual' takes the text as a str, not {type(source).__name__}")
        manual = ManualText(source, title=opts.title, source_uri=source_uri)
        return Resolved("manual", _manual_label(manual), parse=lambda: parse_manual(manual, opts))
    if st == "memory_snapshot" or isinstance(source, MemorySnapshot):
        sel = source if isinstance(source, MemorySnapshot) else None
        if sel is None:
            if source is not None and not isinstance(source, Mapping):
                raise InputError(
                    "source: a memory_snapshot takes a selection mapping such as "
                    "{'types': ['decisions'], 'key_prefix': 'decision:proj:'}"
                )
            sel = MemorySnapshot.from_mapping(source or {})
        chosen = sel
        return Resolved(
            "memory_snapshot",
            f"memory_snapshot:{sel.describe()}",
            parse=lambda: parse_snapshot(store, chosen, opts),
        )
    if isinstance(source, Mapping):
        raise InputError(
            "source: a mapping is raw text ({'text': ...}) or, with source_type='memory_snapshot', a memory selection"
        )
    if not isinstance(source, (str, PathLike)):
        raise InputError(f"source: expected a path, a URL or text, not {type(source).__name__}")
    s = fspath(source)
    if isinstance(s, bytes):
        s = s.decode()
    if isinstance(source, str) and is_url(s):
        if st not in (None, "url", "other"):
            raise InputError(f"source: {s} is a URL but source_type is {st!r}")
        return Resolved("url", s, parse=lambda: parse_url(s, opts))
    if st == "url":
        raise InputError(f"source: source_type 'url' needs an http(s) URL, not {s!r}")
    if st not in (None, "file", "other"):
        raise InputError(f"source: source_type {st!r} does not apply to a file or directory")
    try:
        path = path_of(s)
        is_dir, is_file = path.is_dir(), path.is_file()
    except (OSError, ValueError, RuntimeError):  # too long, a NUL, "~nobody/": text, surely
        is_dir = is_file = False
    if is_dir:
        return Resolved("directory", s, directory=path)
    if is_file:
        return Resolved("file", s, parse=lambda: parse_path(path, opts, title=opts.title))
    shown = s if len(s) <= 120 else s[:117] + "..."
    raise InputError(
        f"{shown!r}: no such file or directory (to ingest a string as text, pass source_type='manual')",
        [{"field": "source", "reason": "not found"}],
    )


def _manual_label(text: ManualText) -> str:
    return f"manual:{text.title or text.source_uri or 'untitled'}"


def parse_path(path: Path, opts: IngestOptions, *, title: str | None = None) -> ParsedDocument:
    try:
        return parse_file(
            path,
            title=title,
            source_uri=file_uri(path),
            source_type=opts.source_type or "file",
            language=opts.language,
            metadata=opts.metadata,
        )
    except GraphbrainError:
        raise
    except Exception as e:  # a parsing library's own failure on a strange file: name the file
        raise InputError(f"{path}: cannot be parsed ({type(e).__name__}: {e})") from e


def parse_url(url: str, opts: IngestOptions) -> ParsedDocument:
    fetched = fetch_url(url)
    uri = normalise_url(url)
    meta = dict(opts.metadata)
    if fetched.final_url != url:
        meta.setdefault("final_url", fetched.final_url)
    try:
        return parse_bytes(
            fetched.data,
            fetched.content_type,
            uri,
            title=opts.title,
            source_type=opts.source_type or "url",
            language=opts.language,
            metadata=meta,
        )
    except GraphbrainError:
        raise
    except Exception as e:
        raise InputError(f"{url}: cannot be parsed ({type(e).__name__}: {e})") from e


def parse_manual(text: ManualText, opts: IngestOptions) -> ParsedDocument:
    if not text.text.strip():
        raise InputError("manual text: there is no text to index")
    title = text.title or opts.title
    uri = text.source_uri or (f"graphbrain://manual/{_quoted_title(title)}" if title else None)
    return parse_text(
        text.text,
        title=title,
        fmt=text.format,
        source_uri=uri,
        source_type="manual",
        language=opts.language,
        metadata=opts.metadata,
    )
