"""The embedder interface and the batching/normalising base every provider shares.

An embedder turns texts into dense, L2-normalised float vectors of a fixed dimension, so a cosine
similarity is a plain dot product. ``embed`` batches internally (``batch_size`` texts per model call)
and keeps the input order; an empty list in gives an empty list out.
"""

from __future__ import annotations

import copy
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from graphbrain.errors import EmbeddingError


@runtime_checkable
class Embedder(Protocol):
    """What the rest of graphbrain relies on (any object with these members will do, e.g. a fake)."""

    #: Identifies the model that made the vectors ("fastembed:local:all-minilm-l6-v2-int8"...).
    name: str
    #: Length of every vector.
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-norm vector of ``dim`` floats per text, in input order; ``[]`` for ``[]``."""
        ...

    def embed_one(self, text: str) -> list[float]:
        """The vector of one text."""
        ...


class BaseEmbedder(ABC):
    """Batching, validation, normalisation and error wrapping; providers implement ``_embed_batch``.

    Copies made by :meth:`with_batch_size` share the loaded model (and its lock) and differ only in
    ``batch_size``, so one loaded model serves every config that names it.
    """

    name: str
    dim: int
    batch_size: int
    #: Sort each call's texts by length before batching (less padding for token models); the output
    #: order is the input order all the same.
    sort_by_length: bool = False

    def __init__(self, *, name: str, dim: int, batch_size: int = 64) -> None:
        if dim <= 0:
            raise ValueError("dim must be positive")
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.name = name
        self.dim = dim
        self.batch_size = batch_size
        # Model calls are serialised: onnxruntime already spreads one call over the cores it was given,
        # and concurrent calls would only oversubscribe them.
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ public API
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of strings; use embed_one() for a single text")
        items = list(texts)
        if not items:
            return []
        for i, t in enumerate(items):
            if not isinstance(t, str):
                raise TypeError(f"texts[{i}] is {type(t).__name__}, not str")
        # Each distinct text goes to the model once (a document's repeated boilerplate, a run of
        # hard-cut chunks of one giant token); the others get a copy of its vector.
        first: dict[str, int] = {}
        for i, t in enumerate(items):
            first.setdefault(t, i)
        order = list(first.values())
        if self.sort_by_length:
            order.sort(key=lambda i: len(items[i]))
        out: list[list[float]] = [[] for _ in items]
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            batch = [items[i] for i in idx]
            vectors = self._run_batch(batch)
            for i, vec in zip(idx, vectors.tolist(), strict=True):
                out[i] = vec
        for i, t in enumerate(items):
            if not out[i]:
                out[i] = list(out[first[t]])
        return out

    def embed_one(self, text: str) -> list[float]:
        if not isinstance(text, str):
            raise TypeError(f"text is {type(text).__name__}, not str")
        return self.embed([text])[0]

    def with_batch_size(self, batch_size: int) -> BaseEmbedder:
        """This embedder (same loaded model) with another batch size."""
        if batch_size == self.batch_size:
            return self
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        clone = copy.copy(self)
        clone.batch_size = batch_size
        return clone

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, dim={self.dim}, batch_size={self.batch_size})"

    # ------------------------------------------------------------------ provider hook
    @abstractmethod
    def _embed_batch(self, texts: list[str]) -> Any:
        """Vectors for one batch as an array-like of shape (len(texts), dim); need not be normalised."""

    # ------------------------------------------------------------------ internals
    def _run_batch(self, batch: list[str]) -> np.ndarray:
        try:
            with self._lock:
                raw = self._embed_batch(batch)
            arr = np.asarray(raw, dtype=np.float32)
        except EmbeddingError:
            raise
        except Exception as e:  # the runtime's own errors, wrapped once here
            raise EmbeddingError(f"embedding model {self.name} failed on a batch of {len(batch)}: {e}") from e
        if arr.ndim != 2 or arr.shape[0] != len(batch) or arr.shape[1] != self.dim:
            raise EmbeddingError(
                f"embedding model {self.name} returned shape {tuple(arr.shape)} for a batch of "
                f"{len(batch)}; expected ({len(batch)}, {self.dim})"
            )
        return l2_normalise(arr)


def l2_normalise(arr: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (an all-zero row stays zero); float32."""
    arr = np.asarray(arr, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return arr / norms
