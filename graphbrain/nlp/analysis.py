"""The search analyzer: the one way text becomes full-text index terms, at write time and at query time.

    index_terms("Melanie: We went camping at the beach")   # ['melani', 'went', 'camp', 'beach']
    search_document("Melanie", "We went camping", "[8 May 2023]")   # 'melani went camp 8 2023'

Both backends index the *output* of this module (a space-separated term string, with a whitespace
analyzer on Neo4j and no stemming or stop words on FalkorDB), so Lucene and RediSearch see the same
terms and differ only in how they score them; a query is analyzed the same way (``query_terms``).

Terms are ``graphbrain.nlp.tokenize`` tokens (English words lower-cased, stop words dropped; Chinese
segmented by jieba's search mode, which also yields the shorter words inside a long one), English words
reduced to their Snowball stem so that "camped", "camping" and "camps" meet, and every character
outside ``\\w`` replaced by ``_`` so that no engine splits a term again ("5.26" → "5_26").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from py_rust_stemmers import SnowballStemmer

from graphbrain.nlp.tokens import tokenize

__all__ = ["MAX_QUERY_TERMS", "index_terms", "query_terms", "search_document", "stem"]

# A query longer than this many distinct terms says nothing more than its first ones (and Lucene's
# BooleanQuery takes at most 1024 clauses).
MAX_QUERY_TERMS = 128
_NON_WORD = re.compile(r"\W+")
_ENGLISH = SnowballStemmer("english")


@lru_cache(maxsize=65536)
def stem(token: str) -> str:
    """A token's index form: the Snowball stem of an English word, the token itself otherwise."""
    if token.isascii() and token.isalpha():
        token = _ENGLISH.stem_word(token)
    return _NON_WORD.sub("_", token).strip("_")


def index_terms(text: str | None) -> list[str]:
    """The terms of ``text``, in order, repeats kept (term frequency counts in BM25)."""
    if not text:
        return []
    return [t for t in (stem(tok) for tok in tokenize(text)) if t]


def search_document(*parts: str | None) -> str:
    """The indexed form of a node's searchable parts (its text, speaker, time, context), as one string."""
    return " ".join(t for part in parts for t in index_terms(part))


def query_terms(text: str, extra: Iterable[str] = ()) -> list[str]:
    """The distinct terms of a query (and of ``extra`` texts), first occurrence first, capped."""
    seen: dict[str, None] = {}
    for part in (text, *extra):
        for term in index_terms(part):
            seen.setdefault(term, None)
    return list(seen)[:MAX_QUERY_TERMS]
