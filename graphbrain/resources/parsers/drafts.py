"""Drafts: a document's normalised text and its section spans, before layering and chunking."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from graphbrain.nlp import detect_language
from graphbrain.resources.model import DocFormat

__all__ = ["Draft", "Span", "language_of", "line_offset", "line_starts", "path_stack"]


@dataclass(slots=True)
class Span:
    """A section before trimming, layering and chunking: offsets into the normalised text."""

    start: int
    end: int
    title: str
    heading_path: list[str]
    level: int
    page: int | None = None


@dataclass(slots=True)
class Draft:
    fmt: DocFormat
    mime: str
    text: str
    spans: list[Span]
    title: str | None = None
    language: str | None = None  # a declared language (HTML lang=...), used when detection cannot tell
    metadata: dict[str, Any] = field(default_factory=dict)


def language_of(text: str) -> str | None:
    """``nlp.detect_language``'s label; None when it cannot tell (code, symbols), so a caller's or the
    document's own label takes over."""
    lang = detect_language(text)
    return None if lang == "other" else lang


def line_starts(text: str) -> list[int]:
    """Offset of the start of each line, plus a sentinel one past the end (so starts[n_lines] exists)."""
    return [0, *(m.end() for m in re.finditer("\n", text)), len(text) + 1]


def line_offset(starts: list[int], line: int, text_len: int) -> int:
    return min(starts[min(line, len(starts) - 1)], text_len)


def path_stack(stack: list[tuple[int, str]], level: int, title: str) -> list[str]:
    while stack and stack[-1][0] >= level:
        stack.pop()
    stack.append((level, title))
    return [t for _, t in stack]
