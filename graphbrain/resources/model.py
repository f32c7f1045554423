"""The parsed shape of a resource: a document split into sections, each split into chunks.

Pure data, no database. Offsets are character offsets (Python ``str`` indices, i.e. code points) into
``ParsedDocument.text``, which is the *normalised* text of the source (see ``normalize_text``), so for
every section and chunk ``doc.text[x.offset_start:x.offset_end] == x.text`` holds. The store keeps
these numbers verbatim as EvidencePack ``metadata`` (chunk_index, offset_start, offset_end, page,
section_title).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from graphbrain.contracts import SourceType

# What a parser recognised the source as; "code" files also carry metadata["code_language"].
DocFormat = Literal["markdown", "text", "html", "pdf", "code"]

__all__ = ["Chunk", "DocFormat", "ParsedDocument", "ParsedSection", "SourceType", "normalize_text"]


@dataclass(slots=True)
class Chunk:
    """A retrievable slice of one section; the unit that gets an embedding and a full-text entry."""

    chunk_index: int  # position within the document (global order across sections), from 0
    section_index: int
    text: str
    offset_start: int
    offset_end: int
    page: int | None
    section_title: str
    content_hash: str  # sha256 of ``text``: lets a re-ingest skip unchanged chunks


@dataclass(slots=True)
class ParsedSection:
    """A structural unit: a heading's span in Markdown/HTML, a page in a PDF, a definition in code."""

    index: int  # position within the document, from 0
    section_id: str  # stable within the document: "s03-installation" (index + slug of the heading path)
    title: str
    heading_path: list[str]  # headings from the outermost to this one, e.g. ["Design", "Installation"]
    level: int  # heading level (1..6); 0 for a preamble or an untitled part
    text: str
    page: int | None
    offset_start: int
    offset_end: int
    language: str | None = None
    l0: str = ""  # one-line abstract (<= 160 chars)
    l1: str = ""  # short overview (~300 chars): lead sentences plus key terms
    l2: str = ""  # the full text (same as ``text``)
    keywords: list[str] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)


@dataclass(slots=True)
class ParsedDocument:
    """One source (file, URL, manual note, memory snapshot) after parsing, layering and chunking."""

    title: str
    source_uri: str
    source_type: SourceType
    format: DocFormat
    mime: str
    language: str | None
    text: str
    sections: list[ParsedSection]
    content_hash: str  # sha256 of the normalised ``text``: an unchanged source re-ingests as a no-op
    keywords: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def chunks(self) -> list[Chunk]:
        """Every chunk of the document in ``chunk_index`` order."""
        return [c for s in self.sections for c in s.chunks]

    def iter_chunks(self) -> Iterator[tuple[ParsedSection, Chunk]]:
        for s in self.sections:
            for c in s.chunks:
                yield s, c


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_TRAILING_WS = re.compile(r"[ \t\u3000]+$", re.MULTILINE)
_BLANK_RUN = re.compile(r"\n{3,}")


def normalize_text(text: str) -> str:
    """The canonical form that offsets and the content hash refer to.

    NFC (so the same visible text hashes the same whatever the editor produced), LF newlines,
    no BOM or stray control characters, no trailing blanks on a line, at most one blank line in a row,
    and no leading blank lines or trailing whitespace. Indentation is kept (code and Markdown need it).
    """
    text = text.lstrip("\ufeff")
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n")
    text = unicodedata.normalize("NFC", text)
    text = _CONTROL.sub("", text)
    text = _TRAILING_WS.sub("", text)
    text = _BLANK_RUN.sub("\n\n", text)
    return text.lstrip("\n").rstrip()
