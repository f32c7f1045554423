"""Parse a file, a fetched URL body or raw text into a ``ParsedDocument`` (sections, layers, chunks).

Formats and how each is split into sections:

- Markdown: by ATX and Setext headings (CommonMark, via markdown-it-py, so a ``#`` line inside a code
  fence, an indented code block or a block quote is never a heading); YAML front matter goes to
  ``metadata`` and its ``title`` wins.
- Plain text: by heading-like lines (underlined, numbered "2.1 Title", ALL CAPS) when there are some,
  else one section, or paragraph groups of about 2,000 characters for a long text.
- HTML: trafilatura extracts the main content (dropping navigation, footers and other boilerplate) as
  Markdown with its headings, which then goes through the Markdown sectioner.
- PDF: pypdf, one section per page; page numbers (from 1) are kept on sections and chunks.
- Source code: ``.py`` by top-level ``def`` / ``class`` (``ast``); JavaScript, TypeScript, Go, Rust,
  Java, C, C++ and Ruby by top-level definition patterns; fixed windows of about 60 lines when none
  are found, or inside a definition longer than two windows.

Everything is pure: no database and no network (``fetch.fetch_url`` does the network part).
"""

from __future__ import annotations

import ast
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from graphbrain.contracts import SourceType
from graphbrain.errors import InputError
from graphbrain.ids import content_hash
from graphbrain.nlp import detect_language
from graphbrain.resources.chunking import DEFAULT_MAX_CHARS, DEFAULT_OVERLAP, chunk_sections
from graphbrain.resources.layers import compute_layers, extract_keywords
from graphbrain.resources.model import Chunk, DocFormat, ParsedDocument, ParsedSection, normalize_text

__all__ = [
    "CODE_EXTENSIONS",
    "MAX_FILE_BYTES",
    "detect_format",
    "parse_bytes",
    "parse_file",
    "parse_text",
    "section_slug",
]

MAX_FILE_BYTES = 50 * 1024 * 1024
CODE_WINDOW_LINES = 60
TEXT_SECTION_CHARS = 2000  # target size of an untitled plain-text section
TEXT_SINGLE_SECTION_CHARS = 3000  # a headingless text up to this size stays one section

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
_KNOWN_EXTENSIONS = MARKDOWN_EXTENSIONS | HTML_EXTENSIONS | TEXT_EXTENSIONS | {".pdf"} | set(CODE_EXTENSIONS)
# Formats we know and cannot read: say so by name rather than "binary content".
_UNSUPPORTED = frozenset(
    {".doc", ".docx", ".odt", ".rtf", ".xls", ".xlsx", ".ods", ".ppt", ".pptx", ".odp", ".epub"}
    | {".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".tar", ".rar", ".jar", ".whl"}
    | {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".ico", ".svg"}
    | {".mp3", ".wav", ".flac", ".ogg", ".mp4", ".mov", ".avi", ".mkv", ".webm"}
    | {".exe", ".dll", ".so", ".dylib", ".bin", ".o", ".a", ".pyc", ".class", ".wasm", ".db", ".sqlite"}
)
_MIME = {
    "markdown": "text/markdown",
    "text": "text/plain",
    "html": "text/html",
    "pdf": "application/pdf",
}
_CODE_MIME = {
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
_FMT_ALIASES: Mapping[str, DocFormat] = {
    "markdown": "markdown",
    "md": "markdown",
    "text": "text",
    "txt": "text",
    "plain": "text",
    "html": "html",
    "htm": "html",
}


# ------------------------------------------------------------------------------------- drafts


@dataclass(slots=True)
class _Span:
    """A section before trimming, layering and chunking: offsets into the normalised text."""

    start: int
    end: int
    title: str
    heading_path: list[str]
    level: int
    page: int | None = None


@dataclass(slots=True)
class _Draft:
    fmt: DocFormat
    mime: str
    text: str
    spans: list[_Span]
    title: str | None = None
    language: str | None = None  # a declared language (HTML lang=...), used when detection cannot tell
    metadata: dict[str, Any] = field(default_factory=dict)


def _language(text: str) -> str | None:
    """``nlp.detect_language``'s label; None when it cannot tell (code, symbols), so a caller's or the
    document's own label takes over."""
    lang = detect_language(text)
    return None if lang == "other" else lang


def _line_starts(text: str) -> list[int]:
    """Offset of the start of each line, plus a sentinel one past the end (so starts[n_lines] exists)."""
    return [0, *(m.end() for m in re.finditer("\n", text)), len(text) + 1]


def _offset(starts: list[int], line: int, text_len: int) -> int:
    return min(starts[min(line, len(starts) - 1)], text_len)


def _path_stack(stack: list[tuple[int, str]], level: int, title: str) -> list[str]:
    while stack and stack[-1][0] >= level:
        stack.pop()
    stack.append((level, title))
    return [t for _, t in stack]


# ------------------------------------------------------------------------------------- markdown

_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n(?:---|\.\.\.)(?:\n|\Z)", re.DOTALL)


def _split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    m = _FRONT_MATTER.match(text)
    if not m:
        return {}, text
    import yaml

    try:
        data = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        return {}, text  # not front matter after all: a thematic break and a Setext heading
    if not isinstance(data, dict):
        return {}, text
    return {str(k): v for k, v in data.items()}, text[m.end() :].lstrip("\n")


def _inline_text(token: Any) -> str:
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def _markdown_spans(text: str, doc_title: str) -> tuple[list[_Span], str | None]:
    """Sections of Markdown text, and the first H1 (a title candidate)."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    starts = _line_starts(text)
    heads: list[tuple[int, int, str]] = []  # (start offset, level, title)
    for i, tok in enumerate(tokens):
        # level 0 only: a heading inside a block quote or a list item is content, not structure.
        if tok.type == "heading_open" and tok.level == 0 and tok.map:
            heads.append((_offset(starts, tok.map[0], len(text)), int(tok.tag[1]), _inline_text(tokens[i + 1])))
    h1 = next((t for _, lvl, t in heads if lvl == 1 and t), None)
    spans: list[_Span] = []
    first = heads[0][0] if heads else len(text)
    if text[:first].strip():
        spans.append(_Span(0, first, doc_title, [], 0))
    stack: list[tuple[int, str]] = []
    for j, (start, level, title) in enumerate(heads):
        end = heads[j + 1][0] if j + 1 < len(heads) else len(text)
        spans.append(_Span(start, end, title, _path_stack(stack, level, title), level))
    return spans, h1


def _markdown_draft(text: str, *, fmt: DocFormat = "markdown", fallback_title: str) -> _Draft:
    front, body = _split_front_matter(normalize_text(text))
    title = str(front["title"]).strip() if front.get("title") else None
    spans, h1 = _markdown_spans(body, title or fallback_title)
    draft = _Draft(fmt, _MIME[fmt], body, spans, title or h1 or _first_heading(spans) or fallback_title)
    if front:
        draft.metadata["front_matter"] = front
        lang = front.get("lang") or front.get("language")
        if isinstance(lang, str):
            draft.language = lang
    return draft


def _first_heading(spans: list[_Span]) -> str | None:
    return next((s.title for s in spans if s.level > 0 and s.title), None)


# ------------------------------------------------------------------------------------- plain text

_UNDERLINE = re.compile(r"^\s*(={3,}|-{3,}|~{3,})\s*$")
_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})[.)]?\s+(\S.*)$")


def _text_heading(lines: list[str], i: int) -> tuple[int, str, int] | None:
    """(level, title, lines used) if line ``i`` looks like a heading of a plain-text document."""
    line = lines[i].strip()
    if not line or len(line) > 80:
        return None
    before_blank = i == 0 or not lines[i - 1].strip()
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    if before_blank and _UNDERLINE.match(nxt) and not _UNDERLINE.match(line):
        return (1 if nxt.strip()[0] == "=" else 2), line, 2
    after_blank = not nxt.strip()
    if not (before_blank and after_blank) or line.endswith((".", ",", ";", ":", "。", "，", "；", "：")):
        return None
    m = _NUMBERED.match(line)
    if m and any(ch.isalpha() for ch in m.group(2)):
        return m.group(1).count(".") + 1, line, 1
    letters = [ch for ch in line if ch.isalpha()]
    if len(letters) >= 3 and all(ch.isupper() for ch in letters):
        return 1, line, 1
    return None


def _text_draft(text: str, *, fallback_title: str) -> _Draft:
    text = normalize_text(text)
    lines = text.split("\n")
    starts = _line_starts(text)
    heads: list[tuple[int, int, str]] = []
    i = 0
    while i < len(lines):
        h = _text_heading(lines, i)
        if h:
            heads.append((starts[i], h[0], h[1]))
            i += h[2]
        else:
            i += 1
    spans: list[_Span] = []
    if heads:
        if text[: heads[0][0]].strip():
            spans.append(_Span(0, heads[0][0], fallback_title, [], 0))
        stack: list[tuple[int, str]] = []
        for j, (start, level, title) in enumerate(heads):
            end = heads[j + 1][0] if j + 1 < len(heads) else len(text)
            spans.append(_Span(start, end, title, _path_stack(stack, level, title), level))
    elif len(text) <= TEXT_SINGLE_SECTION_CHARS:
        spans.append(_Span(0, len(text), fallback_title, [], 0))
    else:
        spans = _paragraph_groups(text, fallback_title)
    title = heads[0][2] if heads and heads[0][0] == 0 and heads[0][1] == 1 else fallback_title
    return _Draft("text", _MIME["text"], text, spans, title)


def _paragraph_groups(text: str, title: str) -> list[_Span]:
    """Consecutive paragraphs grouped into untitled parts of about TEXT_SECTION_CHARS characters."""
    breaks = [m.end() for m in re.finditer(r"\n\n", text)]
    bounds = [0, *breaks, len(text)]
    spans: list[_Span] = []
    start = 0
    for b in bounds[1:]:
        if b - start >= TEXT_SECTION_CHARS or b == len(text):
            n = len(spans) + 1
            spans.append(_Span(start, b, f"{title} (part {n})", [], 0))
            start = b
    return spans


# ------------------------------------------------------------------------------------- HTML

_MD_ESCAPE = re.compile(r"\\([_*\[\]()!.+\-|>~`])")  # not '#': unescaping it could make a heading


def _html_draft(html: str, *, url: str | None, fallback_title: str) -> _Draft:
    import trafilatura

    extracted = trafilatura.extract(
        html,
        url=url,
        output_format="markdown",
        include_formatting=True,  # keeps headings, which become section boundaries
        include_tables=True,
        include_links=False,
        include_images=False,
        include_comments=False,
    )
    meta = trafilatura.extract_metadata(html, default_url=url)
    declared = _html_lang(html)
    if extracted and extracted.strip():
        draft = _markdown_draft(_MD_ESCAPE.sub(r"\1", extracted), fallback_title=fallback_title)
    else:
        # Too little text for the main-content heuristics (a stub page): take all visible text.
        plain = trafilatura.html2txt(html)
        if not plain or not plain.strip():
            raise InputError("no readable text in the HTML page")
        draft = _text_draft(plain, fallback_title=fallback_title)
    draft.fmt, draft.mime = "html", _MIME["html"]
    if meta is not None:
        if meta.title:
            draft.title = meta.title.strip()
        for key in ("author", "date", "sitename", "description", "hostname"):
            value = getattr(meta, key, None)
            if value:
                draft.metadata[key] = value
    draft.language = declared or draft.language
    return draft


def _html_lang(html: str) -> str | None:
    m = re.search(r"<html[^>]*\blang\s*=\s*[\"']?([A-Za-z]{2,3})", html[:4096], re.IGNORECASE)
    return m.group(1).lower() if m else None


# ------------------------------------------------------------------------------------- PDF


def _pdf_draft(data: bytes, *, fallback_title: str) -> _Draft:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise InputError("the PDF is encrypted with a password")
        pages = [normalize_text(page.extract_text() or "") for page in reader.pages]
        info = reader.metadata
    except InputError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as e:
        raise InputError(f"not a readable PDF ({e})") from e
    parts: list[str] = []
    spans: list[_Span] = []
    pos = 0
    for number, page_text in enumerate(pages, start=1):
        if not page_text:
            continue  # an image-only page: nothing to index
        if parts:
            pos += 2  # the "\n\n" between pages
        first = page_text.split("\n", 1)[0].strip()
        heading = 3 <= len(first) <= 80 and not first.endswith((".", ",", ";", ":"))
        title = first if heading else f"Page {number}"
        spans.append(_Span(pos, pos + len(page_text), title, [title], 1 if heading else 0, page=number))
        parts.append(page_text)
        pos += len(page_text)
    if not parts:
        raise InputError(f"the PDF has {len(pages)} page(s) and no extractable text (scanned images?)")
    metadata: dict[str, Any] = {"pages": len(pages)}
    doc_title: str | None = None
    if info is not None:
        doc_title = (info.title or "").strip() or None
        for key, value in (("author", info.author), ("subject", info.subject)):
            if value:
                metadata[key] = str(value)
    if doc_title is None and spans[0].level:
        doc_title = spans[0].title
    text = "\n\n".join(parts)
    return _Draft("pdf", _MIME["pdf"], text, spans, doc_title or fallback_title, metadata=metadata)


# ------------------------------------------------------------------------------------- code

# Top-level definitions, one list per language: each pattern has the groups "kind" and "name".
_DEFINITIONS: Mapping[str, tuple[re.Pattern[str], ...]] = {
    "python": (re.compile(r"^(?P<kind>(?:async\s+)?def|class)\s+(?P<name>\w+)"),),
    "javascript": (
        re.compile(r"^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?P<kind>function)\s*\*?\s*(?P<name>\w+)"),
        re.compile(r"^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?P<kind>class)\s+(?P<name>\w+)"),
        re.compile(
            r"^(?:export\s+)?(?P<kind>const|let|var)\s+(?P<name>\w+)\s*(?::[^=]+)?=\s*"
            r"(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|\w+\s*=>)"
        ),
        re.compile(r"^(?:export\s+)?(?:declare\s+)?(?P<kind>interface|type|enum|namespace)\s+(?P<name>\w+)"),
    ),
    "go": (
        re.compile(r"^(?P<kind>func)\s+(?:\([^)]*\)\s*)?(?P<name>\w+)"),
        re.compile(r"^(?P<kind>type)\s+(?P<name>\w+)"),
    ),
    "rust": (
        re.compile(
            r"^(?:pub(?:\([^)]*\))?\s+)?(?:(?:async|unsafe|const|extern(?:\s+\"[^\"]*\")?)\s+)*"
            r"(?P<kind>fn|struct|enum|trait|union|type|mod|static|const|macro_rules!)\s*(?P<name>\w+)"
        ),
        re.compile(r"^(?:unsafe\s+)?(?P<kind>impl)\b(?:<[^>]*>)?\s*(?P<name>[^{]+?)\s*(?:\{|where\b|$)"),
    ),
    "java": (
        re.compile(
            r"^(?:(?:public|protected|private|abstract|final|static|sealed|non-sealed|strictfp)\s+)*"
            r"(?P<kind>class|interface|enum|record|@interface)\s+(?P<name>\w+)"
        ),
    ),
    "c": (
        re.compile(r"^(?:typedef\s+)?(?P<kind>struct|union|enum|class|namespace)\s+(?P<name>\w+)[^;]*$"),
        re.compile(
            r"^(?!(?:if|for|while|switch|return|else|do|typedef|using|static_assert)\b)"
            r"(?P<kind>[A-Za-z_][\w\s\*&:<>,]*?)\s*\**\b(?P<name>[A-Za-z_~][\w:~]*)\s*\([^;]*$"
        ),
    ),
    "ruby": (re.compile(r"^(?P<kind>def|class|module)\s+(?P<name>[\w:.]+[?!=]?)"),),
}
_DEFINITIONS = {**_DEFINITIONS, "typescript": _DEFINITIONS["javascript"], "cpp": _DEFINITIONS["c"]}
_LEADING = re.compile(r"^\s*(?:#(?!include|define|if|endif|pragma)|//|/\*|\*|@|#\[|--)")


def _attach_leading(lines: list[str], i: int, floor: int) -> int:
    """Move a definition's first line up over the comments, decorators and attributes right above it."""
    while i - 1 >= floor and lines[i - 1].strip() and _LEADING.match(lines[i - 1]):
        i -= 1
    return i


def _python_defs(text: str) -> list[tuple[int, int, str]] | None:
    """(first line, last line, title) of each top-level def / class, 0-based; None if not Python."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    out: list[tuple[int, int, str]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            kind = {ast.ClassDef: "class", ast.AsyncFunctionDef: "async def"}.get(type(node), "def")
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
            out.append((first, (node.end_lineno or node.lineno) - 1, f"{kind} {node.name}"))
    return out


def _code_draft(text: str, language: str, *, fallback_title: str) -> _Draft:
    text = normalize_text(text)
    lines = text.split("\n")
    starts = _line_starts(text)
    n = len(text)
    # (first line, title) of each definition, its decorators and the comments right above it included.
    # A definition's section runs to the first line of the next one, so the statements between two
    # definitions stay with the one before; what follows the last Python definition is a footer.
    defs: list[tuple[int, str]] = []
    tail_from: int | None = None
    python = _python_defs(text) if language == "python" else None
    if python is not None:
        floor = 0
        for first, last, title in python:
            defs.append((_attach_leading(lines, first, floor), title))
            floor = last + 1
        if python and any(line.strip() for line in lines[python[-1][1] + 1 :]):
            tail_from = python[-1][1] + 1  # e.g. an `if __name__ == "__main__":` block
    else:
        patterns = _DEFINITIONS.get(language, ())
        floor = 0
        for i, line in enumerate(lines):
            for pattern in patterns:
                m = pattern.match(line)
                if m:
                    kind = " ".join(m.group("kind").split())
                    name = " ".join(m.group("name").split())
                    defs.append((_attach_leading(lines, i, floor), f"{kind} {name}"[:80]))
                    floor = i + 1
                    break
    module = Path(fallback_title).stem or fallback_title
    spans: list[_Span] = []
    if not defs:
        spans = _line_windows(text, lines, starts, 0, len(lines), module)
    else:
        if any(line.strip() for line in lines[: defs[0][0]]):
            spans.append(_Span(0, _offset(starts, defs[0][0], n), f"{module} (module header)", [], 0))
        bounds = [d[0] for d in defs[1:]] + [tail_from if tail_from is not None else len(lines)]
        for (first, title), last in zip(defs, bounds, strict=True):
            if last - first > 2 * CODE_WINDOW_LINES:
                spans.extend(_line_windows(text, lines, starts, first, last, title))
            else:
                spans.append(_Span(_offset(starts, first, n), _offset(starts, last, n), title, [title], 1))
        if tail_from is not None:
            spans.append(_Span(_offset(starts, tail_from, n), n, f"{module} (module footer)", [], 0))
    draft = _Draft("code", _CODE_MIME.get(language, "text/plain"), text, spans, fallback_title)
    draft.metadata["code_language"] = language
    draft.language = "en"  # identifiers and comments: a fair default that a detected language overrides
    return draft


def _line_windows(text: str, lines: list[str], starts: list[int], first: int, last: int, title: str) -> list[_Span]:
    """Windows of about CODE_WINDOW_LINES lines over lines [first, last), cut at a blank line if near."""
    spans: list[_Span] = []
    i = first
    n = len(text)
    while i < last:
        end = min(i + CODE_WINDOW_LINES, last)
        if end < last:
            for j in range(end, max(i + CODE_WINDOW_LINES * 3 // 4, i + 1), -1):
                if not lines[j - 1].strip():
                    end = j
                    break
        label = f"{title} (lines {i + 1}-{end})"
        spans.append(_Span(_offset(starts, i, n), _offset(starts, end, n), label, [title], 1))
        i = end
    return spans


# ------------------------------------------------------------------------------------- detection


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


def _decode(data: bytes, charset: str | None, name: str, *, html: bool = False) -> str:
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


# ------------------------------------------------------------------------------------- assembly

_SLUG_STRIP = re.compile(r"[\W_]+", re.UNICODE)


def section_slug(heading_path: list[str], title: str, *, root: str | None = None, max_len: int = 48) -> str:
    """A readable, stable slug: the last two headings of the path, lower-cased, non-word runs as "-".

    A top heading equal to ``root`` (the document title, usually its H1) is left out: it would start
    every slug of the document and say nothing.
    """
    path = heading_path[1:] if heading_path and root and heading_path[0] == root else heading_path
    basis = " ".join(path[-2:]) if path else title
    slug = _SLUG_STRIP.sub("-", basis.lower()).strip("-")
    if len(slug) > max_len:
        cut = slug.rfind("-", 0, max_len + 1)
        slug = slug[: cut if cut > max_len // 2 else max_len].strip("-")
    return slug or "part"


def _assemble(
    draft: _Draft,
    *,
    name: str,
    title: str | None,
    source_uri: str,
    source_type: SourceType,
    language: str | None,
    metadata: Mapping[str, Any] | None,
    max_chars: int,
    overlap: int,
) -> ParsedDocument:
    text = draft.text
    if not text.strip():
        raise InputError(f"{name}: there is no text to index")
    doc_title = (title or draft.title or name).strip()
    doc_language = language or _language(text) or draft.language
    sections: list[ParsedSection] = []
    for span in draft.spans:
        a, b = span.start, min(span.end, len(text))
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a >= b:
            continue
        index = len(sections)
        body = text[a:b]
        stitle = span.title or doc_title
        path = span.heading_path or []
        lang = language or _language(body) or doc_language
        layers = compute_layers(body, stitle, fmt=draft.fmt, language=lang, definition=span.level > 0)
        sections.append(
            ParsedSection(
                index=index,
                # The root is the title found in the content, not a caller's override: ids stay stable.
                section_id=f"s{index:02d}-{section_slug(path, stitle, root=draft.title)}",
                title=stitle,
                heading_path=list(path),
                level=span.level,
                text=body,
                page=span.page,
                offset_start=a,
                offset_end=b,
                language=lang,
                l0=layers.l0,
                l1=layers.l1,
                l2=layers.l2,
                keywords=layers.keywords,
            )
        )
    chunks = chunk_sections(sections, max_chars=max_chars, overlap=overlap)
    by_section: dict[int, list[Chunk]] = {}
    for c in chunks:
        by_section.setdefault(c.section_index, []).append(c)
    for s in sections:
        s.chunks = by_section.get(s.index, [])
    meta: dict[str, Any] = dict(draft.metadata)
    meta.update(metadata or {})
    return ParsedDocument(
        title=doc_title,
        source_uri=source_uri,
        source_type=source_type,
        format=draft.fmt,
        mime=draft.mime,
        language=doc_language,
        text=text,
        sections=sections,
        content_hash=content_hash(text),
        keywords=extract_keywords(text, k=10, title=doc_title, code=draft.fmt == "code"),
        metadata=meta,
    )


def _draft_for(
    fmt: DocFormat,
    code_language: str | None,
    data: bytes | str,
    *,
    name: str,
    base_name: str,
    url: str | None,
    charset: str | None,
) -> _Draft:
    """The format's draft; ``name`` is for messages, ``base_name`` (a file name) for a fallback title."""
    # "notes.md" falls back to the title "notes"; code keeps "retriever.py"; a host name stays whole.
    known = Path(base_name).suffix.lower() in _KNOWN_EXTENSIONS
    fallback = Path(base_name).stem if known and fmt != "code" else base_name
    if fmt == "pdf":
        if isinstance(data, str):
            raise InputError(f"{name}: a PDF must be given as bytes")
        return _pdf_draft(data, fallback_title=fallback)
    text = data if isinstance(data, str) else _decode(data, charset, name, html=fmt == "html")
    if fmt == "markdown":
        return _markdown_draft(text, fallback_title=fallback)
    if fmt == "html":
        return _html_draft(text, url=url, fallback_title=fallback)
    if fmt == "code":
        return _code_draft(text, code_language or "text", fallback_title=fallback)
    return _text_draft(text, fallback_title=fallback)


# ------------------------------------------------------------------------------------- public API


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
        draft = _draft_for(fmt, code_language, data, name=p.name, base_name=p.name, url=None, charset=None)
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
    return _assemble(
        draft,
        name=p.name,
        title=title,
        source_uri=source_uri or p.resolve().as_uri(),
        source_type=source_type,
        language=language,
        metadata={**file_meta, **(metadata or {})},
        max_chars=max_chars,
        overlap=overlap,
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
    if key in _FMT_ALIASES:
        doc_fmt = _FMT_ALIASES[key]
    elif key in _CODE_MIME or f".{key}" in CODE_EXTENSIONS:
        doc_fmt, code_language = "code", CODE_EXTENSIONS.get(f".{key}", key)
    else:
        known = sorted({*_FMT_ALIASES, *_CODE_MIME})
        raise InputError(f"unknown text format {fmt!r} (one of: {', '.join(known)})")
    name = title or "note"
    draft = _draft_for(doc_fmt, code_language, text, name=name, base_name=name, url=None, charset=None)
    uri = source_uri or f"graphbrain://manual/{content_hash(normalize_text(text))[:16]}"
    return _assemble(
        draft,
        name=name,
        title=title,
        source_uri=uri,
        source_type=source_type,
        language=language,
        metadata=metadata,
        max_chars=max_chars,
        overlap=overlap,
    )


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
        draft = _draft_for(fmt, code_language, data, name=source_uri, base_name=name, url=source_uri, charset=charset)
    except InputError as e:
        msg = str(e)
        raise InputError(msg if msg.startswith(source_uri) else f"{source_uri}: {msg}", e.errors) from e
    return _assemble(
        draft,
        name=name,
        title=title,
        source_uri=source_uri,
        source_type=source_type,
        language=language,
        metadata={"content_type": content_type, **(metadata or {})},
        max_chars=max_chars,
        overlap=overlap,
    )
