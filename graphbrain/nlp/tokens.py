"""Word tokens of mixed Chinese / English text, a tiny stemmer, and the one token estimate."""

from __future__ import annotations

import functools
import math
import re
import unicodedata

from graphbrain.nlp import pipelines
from graphbrain.nlp.chars import CJK_CLASS, HAN_CLASS, is_han
from graphbrain.nlp.stopwords import EN_STOP_WORDS, ZH_STOP_WORDS

__all__ = [
    "CJK_TOKEN",
    "LATIN_WORD_RE",
    "OTHER_CHARS_PER_TOKEN",
    "OTHER_TOKEN",
    "WORD_CHARS_PER_TOKEN",
    "WORD_TOKEN",
    "content_tokens",
    "en_word",
    "estimate_tokens",
    "is_en_stop_word",
    "light_stem",
    "token_cost",
    "tokenize",
]

# The character classes come from ``nlp.chars`` (the one CJK definition). Word tokens and the Chinese
# language share look at Han only: kana and Hangul are neither Chinese nor segmented by jieba.
# A Latin-script word or number, keeping internal . _ ' + # - so that "neo4j", "5.26", "v1.2", "c#",
# "snake_case" and "e-mail" stay one token.
LATIN_WORD_RE = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+(?:[._'+-][A-Za-z0-9\u00c0-\u024f]+)*")
_TOKEN_RUN_RE = re.compile(f"[{HAN_CLASS}]+|" + LATIN_WORD_RE.pattern)

# One source per language, built from spaCy's lists: ``nlp.stopwords``.
_CONTRACTION_RE = re.compile(r"(.+?)(n't|'s|'m|'re|'ve|'ll|'d)")


def is_en_stop_word(word: str) -> bool:
    """A lowercase English token that is a stop word, or a contraction of two ("isn't", "can't")."""
    if word in EN_STOP_WORDS:
        return True
    m = _CONTRACTION_RE.fullmatch(word)
    return m is not None and m.group(1) in EN_STOP_WORDS and m.group(2) in EN_STOP_WORDS


def en_word(word: str) -> str:
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    return w


def tokenize(text: str) -> list[str]:
    """Lowercase word tokens of mixed text, stop words removed, in order (repeats kept).

    Latin words and numbers come from a regex (internal . _ - kept: "neo4j", "5.26", "v1.2");
    Chinese runs are segmented with ``jieba.cut_for_search``, which also yields the shorter words
    inside a long one ("中华人民共和国" → 中华, 人民, 共和国, …) so that search recall does not depend
    on how a phrase was segmented.
    """
    text = unicodedata.normalize("NFKC", text)
    out: list[str] = []
    for m in _TOKEN_RUN_RE.finditer(text):
        run = m.group()
        if is_han(run[0]):
            out.extend(w for w in pipelines.cut_for_search(run) if w not in ZH_STOP_WORDS)
        else:
            w = en_word(run)
            if w and not is_en_stop_word(w):
                out.append(w)
    return out


def light_stem(word: str) -> str:
    """A deliberately tiny English stemmer: plural -s/-ies only ("tests" → "test", "libraries" →
    "library"), leaving "status", "class", "analysis" alone. Used for matching and keys, never shown."""
    if not word.isascii() or len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "os")):
        return word[:-1]
    return word


def content_tokens(text: str) -> set[str]:
    """Stemmed, stop-word-free token set: what two phrasings of the same thing have in common."""
    return {light_stem(t) for t in tokenize(text)}


# The one token estimate (commit's token counts, the context budget): one token per CJK character; a
# run of letters (a word) costs max(1.3, len/4), since long words split into pieces of about four
# letters; a run of digits, punctuation and symbols costs max(0.5, len/3). Whitespace is free.
CJK_TOKEN = 1.0
WORD_TOKEN = 1.3
WORD_CHARS_PER_TOKEN = 4.0
OTHER_TOKEN = 0.5
OTHER_CHARS_PER_TOKEN = 3.0
_PIECE_RE = re.compile(
    rf"(?P<cjk>[{CJK_CLASS}])"
    rf"|(?P<word>[^\W\d_{CJK_CLASS}]+)"
    rf"|(?P<other>[^\s{CJK_CLASS}](?:(?![^\W\d_])[^\s{CJK_CLASS}])*)"
)


# compose_context counts the same texts again and again: an item in several slots' budgets, the same
# memory in the next turn's context (bench scale's questions: 1,477 counts of 474 texts). The regex is
# the cost (~0.1 ms a 800-character text), so short texts' costs are remembered; long ones are not kept.
_COST_CACHE_CHARS = 4_000


def token_cost(text: str) -> float:
    """The uncapped estimate of ``text``'s LLM tokens (``estimate_tokens`` is its ceiling).

    Each piece cost is subadditive, and concatenation can only merge pieces at the seam, so
    ``cost(a + b) <= cost(a) + cost(b)``. It leans high for English (real BPE: ~1.3 tokens a word) and
    for Chinese (~0.6-1 a character), which is the safe side for a budget.
    """
    return _remembered_cost(text) if len(text) <= _COST_CACHE_CHARS else _cost(text)


@functools.lru_cache(maxsize=8192)
def _remembered_cost(text: str) -> float:
    return _cost(text)


def _cost(text: str) -> float:
    total = 0.0
    for m in _PIECE_RE.finditer(text):
        size = m.end() - m.start()
        if m.lastgroup == "cjk":
            total += CJK_TOKEN
        elif m.lastgroup == "word":
            total += max(WORD_TOKEN, size / WORD_CHARS_PER_TOKEN)
        else:
            total += max(OTHER_TOKEN, size / OTHER_CHARS_PER_TOKEN)
    return total


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate of how many LLM tokens ``text`` costs: ``ceil(token_cost(text))``."""
    return math.ceil(token_cost(text) - 1e-9) if text else 0
