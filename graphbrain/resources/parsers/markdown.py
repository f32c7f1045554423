"""Markdown into a draft: sections by ATX and Setext headings (CommonMark), YAML front matter to metadata."""

from __future__ import annotations

import re
from typing import Any

from graphbrain.resources.model import DocFormat, normalize_text
from graphbrain.resources.parsers.drafts import Draft, Span, line_offset, line_starts, path_stack
from graphbrain.resources.parsers.formats import MIME

__all__ = ["markdown_draft"]

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


def _markdown_spans(text: str, doc_title: str) -> tuple[list[Span], str | None]:
    """Sections of Markdown text, and the first H1 (a title candidate)."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    starts = line_starts(text)
    heads: list[tuple[int, int, str]] = []  # (start offset, level, title)
    for i, tok in enumerate(tokens):
        # level 0 only: a heading inside a block quote or a list item is content, not structure.
        if tok.type == "heading_open" and tok.level == 0 and tok.map:
            heads.append((line_offset(starts, tok.map[0], len(text)), int(tok.tag[1]), _inline_text(tokens[i + 1])))
    h1 = next((t for _, lvl, t in heads if lvl == 1 and t), None)
    spans: list[Span] = []
    first = heads[0][0] if heads else len(text)
    if text[:first].strip():
        spans.append(Span(0, first, doc_title, [], 0))
    stack: list[tuple[int, str]] = []
    for j, (start, level, title) in enumerate(heads):
        end = heads[j + 1][0] if j + 1 < len(heads) else len(text)
        spans.append(Span(start, end, title, path_stack(stack, level, title), level))
    return spans, h1


def markdown_draft(text: str, *, fmt: DocFormat = "markdown", fallback_title: str) -> Draft:
    front, body = _split_front_matter(normalize_text(text))
    title = str(front["title"]).strip() if front.get("title") else None
    spans, h1 = _markdown_spans(body, title or fallback_title)
    draft = Draft(fmt, MIME[fmt], body, spans, title or h1 or _first_heading(spans) or fallback_title)
    if front:
        draft.metadata["front_matter"] = front
        lang = front.get("lang") or front.get("language")
        if isinstance(lang, str):
            draft.language = lang
    return draft


def _first_heading(spans: list[Span]) -> str | None:
    return next((s.title for s in spans if s.level > 0 and s.title), None)
