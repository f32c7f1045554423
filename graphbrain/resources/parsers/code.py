"""Source code into a draft: sections by top-level definitions, else windows of about 60 lines."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path

from graphbrain.resources.model import normalize_text
from graphbrain.resources.parsers.drafts import Draft, Span, line_offset, line_starts
from graphbrain.resources.parsers.formats import CODE_MIME

__all__ = ["CODE_WINDOW_LINES", "code_draft"]

CODE_WINDOW_LINES = 60

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


def code_draft(text: str, language: str, *, fallback_title: str) -> Draft:
    text = normalize_text(text)
    lines = text.split("\n")
    starts = line_starts(text)
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
    spans: list[Span] = []
    if not defs:
        spans = _line_windows(text, lines, starts, 0, len(lines), module)
    else:
        if any(line.strip() for line in lines[: defs[0][0]]):
            spans.append(Span(0, line_offset(starts, defs[0][0], n), f"{module} (module header)", [], 0))
        bounds = [d[0] for d in defs[1:]] + [tail_from if tail_from is not None else len(lines)]
        for (first, title), last in zip(defs, bounds, strict=True):
            if last - first > 2 * CODE_WINDOW_LINES:
                spans.extend(_line_windows(text, lines, starts, first, last, title))
            else:
                spans.append(Span(line_offset(starts, first, n), line_offset(starts, last, n), title, [title], 1))
        if tail_from is not None:
            spans.append(Span(line_offset(starts, tail_from, n), n, f"{module} (module footer)", [], 0))
    draft = Draft("code", CODE_MIME.get(language, "text/plain"), text, spans, fallback_title)
    draft.metadata["code_language"] = language
    draft.language = "en"  # identifiers and comments: a fair default that a detected language overrides
    return draft


def _line_windows(text: str, lines: list[str], starts: list[int], first: int, last: int, title: str) -> list[Span]:
    """Windows of about CODE_WINDOW_LINES lines over lines [first, last), cut at a blank line if near."""
    spans: list[Span] = []
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
        spans.append(Span(line_offset(starts, i, n), line_offset(starts, end, n), label, [title], 1))
        i = end
    return spans
