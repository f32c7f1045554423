"""Split sections into chunks by a size limit, with overlap, at the most natural cut point.

A chunk never crosses a section. Inside a section the cut point is chosen, in this order of
preference, among the positions in the second half of the size window: a paragraph break, a sentence
end (``. ! ?`` followed by a space, or ``。！？；``), a line break, a clause mark (``, ; :`` followed by
a space, or ``，、：``), a space, a boundary next to a CJK character. Only a run of text with none of
those (a long URL, a base64 blob) is cut at a punctuation mark inside it, or, failing that, hard at the
size limit. No cut ever separates a combining mark, a variation selector or a zero-width joiner from its
base character, or the halves of a surrogate pair, and a ``.``/``,`` between digits is never a cut.

Offsets are exact: ``section.text[start:end]`` is the chunk text, trimmed of surrounding whitespace.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from graphbrain.errors import InputError
from graphbrain.ids import content_hash
from graphbrain.nlp.chars import CJK_CLASS, CJK_SYMBOLS_CLASS
from graphbrain.resources.model import Chunk, ParsedSection

__all__ = ["DEFAULT_MAX_CHARS", "DEFAULT_OVERLAP", "chunk_sections", "is_cjk", "split_spans"]

DEFAULT_MAX_CHARS = 1200
DEFAULT_OVERLAP = 150

# CJK letters and symbols (graphbrain.nlp.chars: Han, kana, Hangul; radicals, CJK punctuation,
# bopomofo, full-width forms): scripts written without spaces, where a boundary between two characters
# is an acceptable (if last-resort) place to cut.
_CJK_CUTTABLE = CJK_CLASS + CJK_SYMBOLS_CLASS

_SENTENCE_END_CJK = frozenset("。！？；")
_SENTENCE_END_LATIN = frozenset(".!?")
_CLAUSE_CJK = frozenset("，、：")
_CLAUSE_LATIN = frozenset(",;:")
_CLOSERS = frozenset("\"'”’）)」』】]")
_FALLBACK_PUNCT = frozenset("-/_,;:)]}>|=&.")
# "e.g. this" is not the end of a sentence.
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "mr", "mrs", "ms", "dr", "fig", "no", "approx"})
_JOINERS = frozenset("\u200d\u2060")  # zero-width joiner, word joiner


def _char_class(chars: frozenset[str]) -> re.Pattern[str]:
    return re.compile("[" + "".join(re.escape(c) for c in sorted(chars)) + "]")


# The characters without which each cut rule of _find_cut cannot match (a quick test before its scan).
_NEWLINE = re.compile("\n")
_SPACE = re.compile(r"\s")  # \s is exactly str.isspace() for str patterns
_SENTENCE_MARK = _char_class(_SENTENCE_END_CJK | _SENTENCE_END_LATIN)
_CLAUSE_MARK = _char_class(_CLAUSE_CJK | _CLAUSE_LATIN)
_PUNCT_MARK = _char_class(_FALLBACK_PUNCT)
_CJK_CHAR = re.compile(f"[{_CJK_CUTTABLE}]")


def is_cjk(ch: str) -> bool:
    if ch < "\u2e80":  # the common case (ASCII, Latin, Cyrillic...) without a regex
        return False
    return _CJK_CHAR.match(ch) is not None


def _attaches_to_previous(ch: str) -> bool:
    """Characters that belong to the character before them and so must not start a chunk."""
    if ch in _JOINERS or "\ufe00" <= ch <= "\ufe0f" or "\U0001f3fb" <= ch <= "\U0001f3ff":
        return True  # joiners, variation selectors, emoji skin-tone modifiers
    if "\udc00" <= ch <= "\udfff":
        return True  # a low surrogate (only in text decoded with surrogateescape/surrogatepass)
    return unicodedata.category(ch) in ("Mn", "Me", "Mc")


def _safe(text: str, p: int) -> bool:
    """Whether ``p`` (0 < p < len) is a boundary between two whole characters."""
    prev, nxt = text[p - 1], text[p]
    if prev in _JOINERS or "\ud800" <= prev <= "\udbff":
        return False
    return not _attaches_to_previous(nxt)


def _digits_around(text: str, p: int) -> bool:
    """``text[p-1]`` is a mark between two digits, as in 5.26 or 1,000."""
    return 2 <= p < len(text) and text[p - 2].isdigit() and text[p].isdigit()


def sentence_end_cut(text: str, p: int) -> int | None:
    """If a sentence ends just before ``p`` return the cut after any closing quotes, else None."""
    ch = text[p - 1]
    if ch in _SENTENCE_END_CJK:
        pass
    elif ch in _SENTENCE_END_LATIN:
        if p < len(text) and not text[p].isspace() and text[p] not in _CLOSERS:
            return None
        if ch == "." and _is_abbreviation_or_ordinal(text, p - 1):
            return None
    else:
        return None
    while p < len(text) and text[p] in _CLOSERS:
        p += 1
    return p


def _is_abbreviation_or_ordinal(text: str, dot: int) -> bool:
    i = dot
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] == "."):
        i -= 1
    word = text[i:dot].lower()
    if word in _ABBREVIATIONS:
        return True
    # "1." at the start of a line is a list number, not a sentence.
    return word.isdigit() and (i == 0 or text[i - 1] == "\n")


def _rightmost(lo: int, hi: int, test: Callable[[int], int | None]) -> int | None:
    for p in range(hi, lo - 1, -1):
        cut = test(p)
        if cut is not None:
            return cut
    return None


def _find_cut(text: str, start: int, limit: int, max_chars: int) -> int:
    """The end (exclusive) of a chunk starting at ``start``; ``start < result <= limit``."""
    n = len(text)

    def paragraph(p: int) -> int | None:
        return p if text.startswith("\n\n", p) else None

    def sentence(p: int) -> int | None:
        cut = sentence_end_cut(text, p)
        return cut if cut is not None and cut <= limit and (cut == n or _safe(text, cut)) else None

    def line(p: int) -> int | None:
        return p if p < n and text[p] == "\n" else None

    def clause(p: int) -> int | None:
        ch = text[p - 1]
        if ch in _CLAUSE_CJK or (ch in _CLAUSE_LATIN and p < n and text[p].isspace()):
            return p if _safe(text, p) else None
        return None

    def space(p: int) -> int | None:
        return p if p < n and text[p].isspace() else None

    def cjk(p: int) -> int | None:
        a, b = text[p - 1], text[p]
        if (is_cjk(a) or is_cjk(b)) and not (a.isdigit() and b.isdigit()) and _safe(text, p):
            return p  # full-width digits are in the CJK ranges, hence the digit check
        return None

    def punct(p: int) -> int | None:
        if text[p - 1] in _FALLBACK_PUNCT and not _digits_around(text, p) and _safe(text, p):
            return p
        return None

    rules = (
        (paragraph, _NEWLINE),
        (sentence, _SENTENCE_MARK),
        (line, _NEWLINE),
        (clause, _CLAUSE_MARK),
        (space, _SPACE),
        (cjk, _CJK_CHAR),
        (punct, _PUNCT_MARK),
    )
    # First look only in the second half of the window so that chunks are not needlessly small; a cut
    # there of any kind beats a better kind of cut near the start of the chunk.
    for lo in (start + max(1, max_chars // 2), start + 1):
        for rule, trigger in rules:
            # A rule looks at text[p - 1] and text[p]: without its trigger character in that window it
            # cannot match, and the position-by-position scan is skipped (a giant token would pay it on
            # every rule of every chunk).
            if trigger.search(text, lo - 1, limit + 1) is None:
                continue
            cut = _rightmost(lo, limit, rule)
            if cut is not None and start < cut <= limit:
                return cut
    # One unbroken run (a giant token): a hard cut, but still between whole characters.
    p = limit
    while p > start + 1 and not _safe(text, p):
        p -= 1
    return p


def _overlap_start(text: str, start: int, cut: int, overlap: int) -> int:
    """Where the next chunk starts: ``overlap`` characters back, moved forward to a clean start."""
    if overlap <= 0:
        return cut
    lo = max(start + 1, cut - overlap)

    def after_sentence(q: int) -> bool:
        if text[q].isspace():
            return False
        i = q
        while i > start and text[i - 1].isspace():
            i -= 1
        if i == q:  # nothing but CJK punctuation may end a sentence with no space after it
            return text[q - 1] in _SENTENCE_END_CJK
        return sentence_end_cut(text, i) is not None

    def after_clause(q: int) -> bool:
        a = text[q - 1]
        if a in _CLAUSE_CJK:
            return not text[q].isspace()
        return a.isspace() and q >= 2 and text[q - 2] in _CLAUSE_LATIN and not text[q].isspace()

    def word_start(q: int) -> bool:
        return text[q - 1].isspace() and not text[q].isspace()

    def cjk_start(q: int) -> bool:
        a, b = text[q - 1], text[q]
        return (is_cjk(a) or is_cjk(b)) and not (a.isdigit() and b.isdigit()) and _safe(text, q)

    for test in (after_sentence, after_clause, word_start, cjk_start):
        for q in range(lo, cut):
            if test(q):
                return q
    return cut


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def split_spans(text: str, max_chars: int = DEFAULT_MAX_CHARS, overlap: int = DEFAULT_OVERLAP) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the chunks of ``text``; each span is trimmed of whitespace.

    Each span is at most ``max_chars`` long; consecutive spans share up to ``overlap`` characters.
    """
    if max_chars < 20:
        raise InputError(f"chunk max_chars must be at least 20, got {max_chars}")
    if not 0 <= overlap <= max_chars // 3:
        # A larger overlap would make consecutive chunks mostly the same text.
        raise InputError(f"chunk overlap must be between 0 and max_chars/3 ({max_chars // 3}), got {overlap}")
    spans: list[tuple[int, int]] = []
    n = len(text)
    start = _skip_space(text, 0)
    while start < n:
        if n - start <= max_chars:
            spans.append((start, _trim_end(text, start, n)))
            break
        cut = _find_cut(text, start, start + max_chars, max_chars)
        end = _trim_end(text, start, cut)
        if end > start:
            spans.append((start, end))
        nxt = _skip_space(text, _overlap_start(text, start, cut, overlap))
        # The next chunk must begin after this one began, and not inside the whitespace it skipped.
        start = max(nxt, start + 1)
    return spans


def chunk_sections(
    sections: Sequence[ParsedSection],
    max_chars: int = DEFAULT_MAX_CHARS,
    overlap: int = DEFAULT_OVERLAP,
) -> list[Chunk]:
    """The chunks of every section, in document order; ``chunk_index`` counts across sections.

    Offsets are document offsets (the section's ``offset_start`` plus the offset inside the section).
    The sections are not modified: the caller attaches ``chunks`` where it wants them.
    """
    chunks: list[Chunk] = []
    for section in sections:
        for a, b in split_spans(section.text, max_chars, overlap):
            piece = section.text[a:b]
            chunks.append(
                Chunk(
                    chunk_index=len(chunks),
                    section_index=section.index,
                    text=piece,
                    offset_start=section.offset_start + a,
                    offset_end=section.offset_start + b,
                    page=section.page,
                    section_title=section.title,
                    content_hash=content_hash(piece),
                )
            )
    return chunks
