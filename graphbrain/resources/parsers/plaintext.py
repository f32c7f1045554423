"""Plain text into a draft: sections by heading-like lines, else one section or paragraph groups."""

from __future__ import annotations

import re

from graphbrain.resources.model import normalize_text
from graphbrain.resources.parsers.drafts import Draft, Span, line_starts, path_stack
from graphbrain.resources.parsers.formats import MIME

__all__ = ["TEXT_SECTION_CHARS", "TEXT_SINGLE_SECTION_CHARS", "text_draft"]

TEXT_SECTION_CHARS = 2000  # target size of an untitled plain-text section
TEXT_SINGLE_SECTION_CHARS = 3000  # a headingless text up to this size stays one section

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


def text_draft(text: str, *, fallback_title: str) -> Draft:
    text = normalize_text(text)
    lines = text.split("\n")
    starts = line_starts(text)
    heads: list[tuple[int, int, str]] = []
    i = 0
    while i < len(lines):
        h = _text_heading(lines, i)
        if h:
            heads.append((starts[i], h[0], h[1]))
            i += h[2]
        else:
            i += 1
    spans: list[Span] = []
    if heads:
        if text[: heads[0][0]].strip():
            spans.append(Span(0, heads[0][0], fallback_title, [], 0))
        stack: list[tuple[int, str]] = []
        for j, (start, level, title) in enumerate(heads):
            end = heads[j + 1][0] if j + 1 < len(heads) else len(text)
            spans.append(Span(start, end, title, path_stack(stack, level, title), level))
    elif len(text) <= TEXT_SINGLE_SECTION_CHARS:
        spans.append(Span(0, len(text), fallback_title, [], 0))
    else:
        spans = _paragraph_groups(text, fallback_title)
    title = heads[0][2] if heads and heads[0][0] == 0 and heads[0][1] == 1 else fallback_title
    return Draft("text", MIME["text"], text, spans, title)


def _paragraph_groups(text: str, title: str) -> list[Span]:
    """Consecutive paragraphs grouped into untitled parts of about TEXT_SECTION_CHARS characters."""
    breaks = [m.end() for m in re.finditer(r"\n\n", text)]
    bounds = [0, *breaks, len(text)]
    spans: list[Span] = []
    start = 0
    for b in bounds[1:]:
        if b - start >= TEXT_SECTION_CHARS or b == len(text):
            n = len(spans) + 1
            spans.append(Span(start, b, f"{title} (part {n})", [], 0))
            start = b
    return spans
