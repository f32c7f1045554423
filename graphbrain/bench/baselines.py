"""Flat retrieval baselines over raw dialog turns: BM25, dense, and their RRF hybrid.

    docs = [("D1:1", "Hey Mel! ..."), ("D1:2", "...")]
    bm25 = BM25Baseline(docs)
    dense = DenseBaseline(docs, brain.embedder)      # the very embedder object graphbrain uses
    hybrid = rrf([bm25.rank(q), dense.rank(q)], k=60)

Each ``rank(question)`` returns dialog ids, best first. Ties are broken by the turn's position in the
conversation, so the same input always gives the same ranking.

- **BM25**: ``rank_bm25.BM25Okapi`` (k1 1.5, b 0.75, its defaults) over ``graphbrain.nlp.tokenize``
  tokens, which segment Chinese with jieba and drop English and Chinese stop words. Only turns that
  share at least one token with the question are returned (a full-text engine returns nothing for no
  match; listing zero-score turns in conversation order would hand early turns a free recall).
- **Dense**: every turn embedded once (one batched call), the question embedded per query, cosine
  similarity (the vectors are unit-norm, so a dot product); every turn is ranked.
- **Hybrid**: reciprocal rank fusion, ``score(d) = Σ 1 / (k + rank_i(d))`` with ranks from 1, k 60.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from rank_bm25 import BM25Okapi

from graphbrain.nlp import tokenize
from graphbrain.retrieve.fuse import DEFAULT_RRF_K, check_rrf_k, reciprocal_rank

if TYPE_CHECKING:
    from graphbrain.embedding import Embedder

__all__ = ["BM25Baseline", "DenseBaseline", "rrf"]

RRF_K = DEFAULT_RRF_K  # the same constant as graphbrain's own fusion


class BM25Baseline:
    name = "bm25"

    def __init__(self, docs: Sequence[tuple[str, str]]) -> None:
        t0 = time.perf_counter()
        self.ids = [d for d, _ in docs]
        self.tokens = [tokenize(text) for _, text in docs]
        # BM25Okapi divides by the corpus size and the mean length: an empty corpus has neither.
        self._bm25 = BM25Okapi([t or ["\x00"] for t in self.tokens]) if docs else None
        self.build_s = time.perf_counter() - t0

    def rank(self, question: str) -> list[str]:
        query = tokenize(question)
        if self._bm25 is None or not query:
            return []
        scores = self._bm25.get_scores(query)
        terms = set(query)
        matched = [i for i, toks in enumerate(self.tokens) if terms.intersection(toks)]
        matched.sort(key=lambda i: (-float(scores[i]), i))
        return [self.ids[i] for i in matched]


class DenseBaseline:
    name = "dense"

    def __init__(self, docs: Sequence[tuple[str, str]], embedder: Embedder) -> None:
        t0 = time.perf_counter()
        self.ids = [d for d, _ in docs]
        self.embedder = embedder
        vectors = embedder.embed([text or " " for _, text in docs]) if docs else []
        self.matrix = np.asarray(vectors, dtype=np.float32).reshape(len(docs), embedder.dim)
        self.build_s = time.perf_counter() - t0

    def rank(self, question: str) -> list[str]:
        if not self.ids:
            return []
        q = np.asarray(self.embedder.embed_one(question), dtype=np.float32)
        scores = self.matrix @ q
        order = sorted(range(len(self.ids)), key=lambda i: (-float(scores[i]), i))
        return [self.ids[i] for i in order]


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[str]:
    """Reciprocal rank fusion of several rankings (ids best first); ties go to the first id seen."""
    check_rrf_k(k)
    scores: dict[str, float] = {}
    first_seen: dict[str, int] = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + reciprocal_rank(rank, k)
            first_seen.setdefault(doc, len(first_seen))
    return sorted(scores, key=lambda d: (-scores[d], first_seen[d]))
