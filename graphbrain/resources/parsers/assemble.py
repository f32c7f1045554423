"""A draft into a ``ParsedDocument``: trimmed sections, their layers and slugs, and the chunks."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphbrain.contracts import SourceType
from graphbrain.errors import InputError
from graphbrain.ids import content_hash
from graphbrain.resources.chunking import chunk_sections
from graphbrain.resources.layers import compute_layers, extract_keywords
from graphbrain.resources.model import Chunk, DocFormat, ParsedDocument, ParsedSection
from graphbrain.resources.parsers.code import code_draft
from graphbrain.resources.parsers.drafts import Draft, language_of
from graphbrain.resources.parsers.formats import KNOWN_EXTENSIONS, decode
from graphbrain.resources.parsers.html import html_draft
from graphbrain.resources.parsers.markdown import markdown_draft
from graphbrain.resources.parsers.pdf import pdf_draft
from graphbrain.resources.parsers.plaintext import text_draft

__all__ = ["Choices", "assemble", "draft_for", "section_slug"]

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


@dataclass(frozen=True, slots=True)
class Choices:
    """What the caller of ``parse_file`` / ``parse_text`` / ``parse_bytes`` chose, the same for every source."""

    title: str | None
    source_type: SourceType
    language: str | None
    max_chars: int
    overlap: int


def assemble(
    draft: Draft,
    choices: Choices,
    *,
    name: str,
    source_uri: str,
    metadata: Mapping[str, Any] | None,
) -> ParsedDocument:
    title, language = choices.title, choices.language
    text = draft.text
    if not text.strip():
        raise InputError(f"{name}: there is no text to index")
    doc_title = (title or draft.title or name).strip()
    doc_language = language or language_of(text) or draft.language
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
        lang = language or language_of(body) or doc_language
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
    chunks = chunk_sections(sections, max_chars=choices.max_chars, overlap=choices.overlap)
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
        source_type=choices.source_type,
        format=draft.fmt,
        mime=draft.mime,
        language=doc_language,
        text=text,
        sections=sections,
        content_hash=content_hash(text),
        keywords=extract_keywords(text, k=10, title=doc_title, code=draft.fmt == "code"),
        metadata=meta,
    )


def draft_for(
    fmt: DocFormat,
    code_language: str | None,
    data: bytes | str,
    *,
    name: str,
    base_name: str,
    url: str | None,
    charset: str | None,
) -> Draft:
    """The format's draft; ``name`` is for messages, ``base_name`` (a file name) for a fallback title."""
    # "notes.md" falls back to the title "notes"; code keeps "retriever.py"; a host name stays whole.
    known = Path(base_name).suffix.lower() in KNOWN_EXTENSIONS
    fallback = Path(base_name).stem if known and fmt != "code" else base_name
    if fmt == "pdf":
        if isinstance(data, str):
            raise InputError(f"{name}: a PDF must be given as bytes")
        return pdf_draft(data, fallback_title=fallback)
    text = data if isinstance(data, str) else decode(data, charset, name, html=fmt == "html")
    if fmt == "markdown":
        return markdown_draft(text, fallback_title=fallback)
    if fmt == "html":
        return html_draft(text, url=url, fallback_title=fallback)
    if fmt == "code":
        return code_draft(text, code_language or "text", fallback_title=fallback)
    return text_draft(text, fallback_title=fallback)
