"""Snippets that never exceed ``max_chars``, the small text helpers they rest on, and evidence ids.

A snippet is what the model reads, so it is cut on a word boundary (never inside a Latin word; any
position between two CJK characters is a boundary) and ends with "…" when something was cut, the "…"
counted inside the limit. The policies follow OpenViking's layers (seed-retrieval_plan §7):

- ``l0``: the abstract: ``candidate.l0``, else the first sentence;
- ``l1``: the overview: ``candidate.l1``, else the lead sentences (up to three that fit);
- ``l2``: the full text, cut to fit;
- ``auto``: the full text when it fits; else ``l1`` when present and it fits; else a window of the
  text around the densest cluster of query-term matches (the lead when no term matches).

The term tokeniser (``terms``) and the boundary cut (``boundary_cut``) live here because the reranker
(query-term coverage) and the token counter (truncation) need exactly the same rules.
"""

from __future__ import annotations

import bisect
import re
from typing import Literal

from graphbrain.nlp.chars import CJK_CLASS, CJK_RUN_RE, is_cjk
from graphbrain.retrieve.candidate import Candidate

SnippetPolicy = Literal["l0", "l1", "l2", "auto"]

ELLIPSIS = "…"

# CJK runs and characters (Han, kana, Hangul; each a word of its own for cutting) are nlp.chars'.
# A Latin (or other non-CJK alphabet) word: letters and digits, not "_", not CJK.
_WORD = re.compile(rf"[^\W_{CJK_CLASS}]+")
# Sentence ends: CJK/!/? marks (no space needed after them), "." or ";" followed by space, a newline.
_SENTENCE_SPLIT = re.compile(r"(?<=[。！？!?；])\s*|(?<=[.;])\s+|\s*\n\s*")
_SENTENCE_END = re.compile(r"[。！？!?；]|[.;](?=\s)")
_TRAILING_JUNK = " \t\r\n,;:、，；：-–—"

# Words too common to say anything about relevance.
_STOPWORDS_TEXT = """
a an and are as at be been but by can could did do does for from had has have he her his how i if in
into is it its me my no not of on or our she so that the their them then there these they this to was
we were what when where which who why will with would you your
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())

MAX_QUERY_MATCHES = 400  # occurrences considered when centring a window (bounds the work)


# ---------------------------------------------------------------------------------------------- text
def _is_word_char(ch: str) -> bool:
    return ch.isalnum() and not is_cjk(ch)


def _splits_word(text: str, k: int) -> bool:
    """Would cutting ``text`` at ``k`` split a Latin word (or a number) in two?"""
    return 0 < k < len(text) and _is_word_char(text[k - 1]) and _is_word_char(text[k])


def terms(text: str) -> list[str]:
    """Distinct match terms of a text, in order: lowercase Latin words (stopwords and 1-letter words
    dropped, digits kept) and CJK bigrams (a lone CJK character stays a unigram).

    Bigrams are the usual dictionary-free way to match Chinese: "向量索引" gives 向量 量索 索引, so a
    document about 向量 matches a query about 向量索引 partially rather than not at all.
    """
    out: dict[str, None] = {}
    for m in _WORD.finditer(text):
        w = m.group().lower()
        if (len(w) > 1 or w.isdigit()) and w not in STOPWORDS:
            out.setdefault(w)
    for m in CJK_RUN_RE.finditer(text):
        run = m.group()
        if len(run) == 1:
            out.setdefault(run)
        for i in range(len(run) - 1):
            out.setdefault(run[i : i + 2])
    return list(out)


def boundary_cut(text: str, limit: int) -> str:
    """The longest prefix of at most ``limit`` characters that does not end inside a Latin word.

    Punctuation, spaces and CJK characters are all boundaries (so URLs and paths cut at their
    separators). Only when the prefix has no boundary at all (one huge run of letters and digits,
    e.g. a hash) is it cut hard at ``limit``: a partial token beats an empty snippet.
    """
    if len(text) <= limit:
        return text
    if limit <= 0:
        return ""
    k = limit
    while k > 0 and _splits_word(text, k):
        k -= 1
    return text[: (k or limit)]


def fit_chars(text: str, max_chars: int) -> str:
    """``text`` if it fits, else a boundary-safe prefix plus "…", the whole at most ``max_chars``."""
    text = text.strip()
    if len(text) <= max_chars:
        return text
    if max_chars <= len(ELLIPSIS):
        return ELLIPSIS[:max_chars]
    head = boundary_cut(text, max_chars - len(ELLIPSIS)).rstrip(_TRAILING_JUNK)
    return head + ELLIPSIS


def sentences(text: str) -> list[str]:
    """Split on sentence ends (。！？!?； always; "." and ";" when followed by space) and newlines."""
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if s and s.strip()]


def _join_sentences(parts: list[str]) -> str:
    out = ""
    for p in parts:
        if out and not (is_cjk(out[-1]) or out[-1] in "。！？；"):
            out += " "
        out += p
    return out


# ------------------------------------------------------------------------------------------ policies
def _lead(text: str, max_chars: int, max_sentences: int = 3) -> str:
    """The first sentences that fit together (up to ``max_sentences``); the first alone, cut, if too long."""
    parts = sentences(text)
    if not parts:
        return ""
    chosen: list[str] = []
    for p in parts[:max_sentences]:
        if len(_join_sentences([*chosen, p])) > max_chars:
            break
        chosen.append(p)
    return _join_sentences(chosen) if chosen else fit_chars(parts[0], max_chars)


def _term_pattern(term: str) -> re.Pattern[str]:
    if is_cjk(term[0]):
        return re.compile(re.escape(term))
    # a whole word, case-insensitive, on the original text (lower() may change lengths)
    return re.compile(rf"(?<![^\W_]){re.escape(term)}(?![^\W_])", re.IGNORECASE)


def query_window(text: str, query: str, max_chars: int) -> str:
    """A window of ``text`` around the densest cluster of query-term matches, "…" on cut sides.

    Every match is tried as an anchor (placed a quarter into the window); the window holding the most
    distinct terms wins, the earliest on a tie. The window then opens at the last sentence start before
    the anchor, if any is inside it. Without any match this is the lead of the text.
    """
    text = text.strip()
    if len(text) <= max_chars:
        return text
    qterms = terms(query)
    occ: list[tuple[int, int, str]] = []
    for t in qterms:
        for m in _term_pattern(t).finditer(text):
            if len(occ) >= MAX_QUERY_MATCHES:
                break
            occ.append((m.start(), m.end(), t))
    budget = max_chars - 2 * len(ELLIPSIS)
    if not occ or budget < 1:
        return fit_chars(text, max_chars)
    occ.sort()
    starts = [o[0] for o in occ]
    best_start, best_anchor, best_hits = 0, 0, -1
    for s, _, _ in occ:
        start = max(0, s - budget // 4)
        end = start + budget
        hi = bisect.bisect_left(starts, end)
        lo = bisect.bisect_left(starts, start)
        hits = len({t for (s2, e2, t) in occ[lo:hi] if e2 <= end})
        if hits > best_hits:
            best_start, best_anchor, best_hits = start, s, hits
    start = best_start
    # open at a sentence start when one lies between the window start and the anchor; else never
    # inside a word (the anchor match starts on a boundary, so neither move passes it)
    ends = list(_SENTENCE_END.finditer(text, start, best_anchor))
    if ends:
        start = ends[-1].end()
    while _splits_word(text, start):
        start += 1
    while start < len(text) and text[start].isspace():
        start += 1
    prefix = ELLIPSIS if start > 0 else ""
    room = max_chars - len(prefix)
    rest = text[start:]
    if len(rest) <= room:
        return prefix + rest
    return prefix + boundary_cut(rest, room - len(ELLIPSIS)).rstrip(_TRAILING_JUNK) + ELLIPSIS


def make_snippet(
    candidate: Candidate, policy: SnippetPolicy, max_chars: int, *, query: str | None = None
) -> tuple[str, SnippetPolicy]:
    """The snippet of ``candidate`` under ``policy`` and the policy that produced it.

    Never longer than ``max_chars``. ``query`` (default: the candidate's own query text) only matters
    for ``auto`` windows. ``auto`` reports ``l2`` when the full text fits, ``l1`` when the overview was
    used, ``auto`` for a query-centred window.
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    text = candidate.text.strip() or (candidate.l1 or candidate.l0 or candidate.title or "").strip()
    if policy == "l0":
        first = sentences(text)
        return fit_chars(candidate.l0 or (first[0] if first else ""), max_chars), "l0"
    if policy == "l1":
        if candidate.l1:
            return fit_chars(candidate.l1, max_chars), "l1"
        return _lead(text, max_chars), "l1"
    if policy == "l2":
        return fit_chars(text, max_chars), "l2"
    # auto
    if len(text) <= max_chars:
        return text, "l2"
    if candidate.l1 and len(candidate.l1.strip()) <= max_chars:
        return candidate.l1.strip(), "l1"
    q = candidate.query_text if query is None else query
    return query_window(text, q, max_chars), "auto"


# --------------------------------------------------------------------------------------- evidence ids
def resource_evidence_id(document_id: str, section_id: str | None, chunk_index: int | None) -> str:
    """``doc:section:chunk`` (seed §3.4's resource dedup key); shorter when section or chunk is absent."""
    parts = [document_id]
    if section_id is not None:
        parts.append(section_id)
        if chunk_index is not None:
            parts.append(str(chunk_index))
    return ":".join(parts)


def memory_evidence_id(memory_item_id: str) -> str:
    """``memory:<id>`` for a memory item."""
    return f"memory:{memory_item_id}"


def turn_evidence_id(turn_id: str) -> str:
    """``turn:<id>`` for a turn (or ``turn:<turn_id>:<message_id>`` when the caller passes that)."""
    return f"turn:{turn_id}"
