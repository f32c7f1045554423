"""A deterministic hashing embedder: lexical, NOT semantic.

Features (the "hashing trick"):

* word unigrams of non-CJK text (lower-cased, Unicode ``\\w`` runs), weight 1.0;
* character 3-grams of each such word with boundary marks (``<wo``, ``wor``, ``ord``, ``rd>``),
  weight 0.5, so inflections and typos still overlap;
* for CJK runs (Han, kana, Hangul), which have no spaces: character bigrams, weight 1.0, and single
  characters, weight 0.5.

Each feature is hashed (blake2b, so the same on every run and machine, unlike ``hash()``) into one of
``dim`` buckets with a hash-derived sign (signed hashing keeps collisions unbiased), and the vector is
L2-normalised. Two texts are similar only when they share words or character n-grams: "car" and
"automobile", or "猫" and "cat", score about zero. Use it for tests of ranking logic and where
a model cannot be had (``embedding.provider: hashing``); never as a stand-in for real semantic search.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

from graphbrain.embedding.base import BaseEmbedder
from graphbrain.nlp.chars import CJK_CLASS

# Han, kana, Hangul syllables (graphbrain.nlp.chars); CJK punctuation is excluded.
_CJK = CJK_CLASS
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(rf"[^\W{_CJK}]+", re.UNICODE)
_EMPTY_FEATURE = "\x00empty"

WORD_WEIGHT = 1.0
CHAR_NGRAM_WEIGHT = 0.5
CJK_BIGRAM_WEIGHT = 1.0
CJK_CHAR_WEIGHT = 0.5


def features(text: str) -> dict[str, float]:
    """The weighted features of ``text`` (exposed for tests and explanations)."""
    feats: dict[str, float] = {}

    def add(key: str, weight: float) -> None:
        feats[key] = feats.get(key, 0.0) + weight

    lowered = text.lower()
    for run in _CJK_RUN.findall(lowered):
        for ch in run:
            add("c:" + ch, CJK_CHAR_WEIGHT)
        for i in range(len(run) - 1):
            add("b:" + run[i : i + 2], CJK_BIGRAM_WEIGHT)
    for word in _WORD.findall(lowered):
        add("w:" + word, WORD_WEIGHT)
        marked = f"<{word}>"
        if len(marked) > 3:
            for i in range(len(marked) - 2):
                add("g:" + marked[i : i + 3], CHAR_NGRAM_WEIGHT)
    if not feats:
        # Empty or punctuation-only text still gets a unit vector (the same one for all such texts).
        add(_EMPTY_FEATURE, 1.0)
    return feats


def _bucket(feature: str, dim: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    h = int.from_bytes(digest, "little")
    return (h >> 1) % dim, (1.0 if h & 1 else -1.0)


class HashingEmbedder(BaseEmbedder):
    """Deterministic, dependency-free, lexical (not semantic) embeddings of any dimension."""

    def __init__(self, dim: int = 384, *, batch_size: int = 256) -> None:
        super().__init__(name=f"hashing:v1:{dim}", dim=dim, batch_size=batch_size)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat, weight in features(text).items():
                col, sign = _bucket(feat, self.dim)
                out[row, col] += sign * weight
        return out
