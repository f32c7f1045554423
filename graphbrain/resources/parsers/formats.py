"""Which formats the parsers read: file extensions, MIME types, and ``detect_format`` from a name and bytes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from graphbrain.errors import InputError
from graphbrain.resources.model import DocFormat

__all__ = ["CODE_EXTENSIONS", "CODE_MIME", "FMT_ALIASES", "KNOWN_EXTENSIONS", "MIME", "decode", "detect_format"]

MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mdx"})
HTML_EXTENSIONS = frozenset({".html", ".htm", ".xhtml"})
TEXT_EXTENSIONS = frozenset(
    {".txt", ".text", ".log", ".rst", ".csv", ".tsv", ".json", ".jsonl", ".yaml", ".yml", ".toml"}
    | {".ini", ".cfg", ".conf", ".cypher", ".sql", ".sh"}
)
CODE_EXTENSIONS: Mapping[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".mts": "typescript",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "c",
    ".cpp": "cpp",
    ".cc": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".rb": "ruby",
}
KNOWN_EXTENSIONS = MARKDOWN_EXTENSIONS | HTML_EXTENSIONS | TEXT_EXTENSIONS | {".pdf"} | set(CODE_EXTENSIONS)
# Formats we know and cannot read: say so by name rather than "binary content".
_UNSUPPORTED = frozenset(
    {".doc", ".docx", ".odt", ".rtf", ".xls", ".xlsx", ".ods", ".ppt", ".pptx", ".odp", ".epub"}
    | {".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".tar", ".rar", ".jar", ".whl"}
    | {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".ico", ".svg"}
    | {".mp3", ".wav", ".flac", ".ogg", ".mp4", ".mov", ".avi", ".mkv", ".webm"}
    | {".exe", ".dll", ".so", ".dylib", ".bin", ".o", ".a", ".pyc", ".class", ".wasm", ".db", ".sqlite"}
)
MIME = {
    "markdown": "text/markdown",
    "text": "text/plain",
    "html": "text/html",
    "pdf": "application/pdf",
}
CODE_MIME = {
    "python": "text/x-python",
    "javascript": "text/javascript",
    "typescript": "text/x-typescript",
    "go": "text/x-go",
    "rust": "text/x-rust",
    "java": "text/x-java",
    "c": "text/x-c",
    "cpp": "text/x-c++",
    "ruby": "text/x-ruby",
}
FMT_ALIASES: Mapping[str, DocFormat] = {
    "markdown": "markdown",
    "md": "markdown",
    "text": "text",
    "txt": "text",
    "plain": "text",
    "html": "html",
    "htm": "html",
}


def detect_format(name: str, head: bytes = b"") -> tuple[DocFormat, str | None]:
    """``(format, code_language)`` from a file name (or URL path) and the first bytes of the content.

    The extension decides for known formats (a ``.pdf`` must also start like one); content sniffing
    decides otherwise (a PDF or HTML signature, else text unless the bytes are binary). Raises
    InputError for a format that cannot be read.
    """
    lower = name.lower()
    ext = Path(lower).suffix
    if head.startswith(b"%PDF-"):
        return "pdf", None
    if ext == ".pdf":
        raise InputError(f"{name}: has a .pdf extension but is not a PDF (no %PDF- header)")
    if ext in _UNSUPPORTED:
        raise InputError(f"{name}: unsupported format '{ext}' (supported: {_supported_list()})")
    if ext in MARKDOWN_EXTENSIONS:
        return "markdown", None
    if ext in HTML_EXTENSIONS:
        return "html", None
    if ext in CODE_EXTENSIONS:
        return "code", CODE_EXTENSIONS[ext]
    if ext in TEXT_EXTENSIONS:
        return "text", None
    if _looks_binary(head):
        what = f"format '{ext}'" if ext else "file without an extension"
        raise InputError(f"{name}: unsupported {what}: binary content (supported: {_supported_list()})")
    sniff = head[:1024].lstrip().lower()
    if sniff.startswith((b"<!doctype html", b"<html")):
        return "html", None
    return "text", None


def _supported_list() -> str:
    return "Markdown, plain text, HTML, PDF, source code (" + " ".join(sorted(CODE_EXTENSIONS)) + ")"


def _looks_binary(head: bytes) -> bool:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False  # UTF-16 text has NULs in it
    return b"\x00" in head[:8192]


def decode(data: bytes, charset: str | None, name: str, *, html: bool = False) -> str:
    """Bytes to text: BOM, then the declared charset, then a <meta charset>, then UTF-8, then GB18030."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    candidates: list[str] = []
    if charset:
        candidates.append(charset)
    if html:
        m = re.search(rb"<meta[^>]+charset\s*=\s*[\"']?([\w-]+)", data[:4096], re.IGNORECASE)
        if m:
            candidates.append(m.group(1).decode("ascii"))
    candidates += ["utf-8", "gb18030"]  # GB18030 because Chinese documents are a first-class case
    for enc in candidates:
        try:
            return data.decode(enc)
        except (UnicodeDecodeError, LookupError):
            continue
    raise InputError(f"{name}: cannot decode the text (tried {', '.join(candidates)})")
