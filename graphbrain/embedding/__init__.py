"""Text embeddings: one loaded model per process, chosen by brain.yml's ``embedding`` section.

    from graphbrain.embedding import get_embedder
    emb = get_embedder(cfg.embedding)
    vectors = emb.embed(["a text", "另一段文字"])   # unit-norm lists of emb.dim floats

Providers (``embedding.provider``):

* ``fastembed``: fastembed/onnxruntime; ``model: local:all-minilm-l6-v2-int8`` (default, offline,
  English, 384-d), ``model_path: <dir>`` (your own ONNX model), or a fastembed model name (downloaded
  from the model hub on first use).
* ``use-multilingual``: the quantized multilingual Universal Sentence Encoder (offline, 16 languages
  incl. Chinese and English, cross-lingual, 512-d), see :mod:`graphbrain.embedding.use_provider`.
* ``hashing``: deterministic lexical hashing, not semantic (tests, or no model at all).

:func:`get_embedder` loads each distinct model once per process (thread-safe) and checks that its real
dimension equals ``embedding.dimension``.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from graphbrain.config import EmbeddingConfig
from graphbrain.embedding.base import BaseEmbedder, Embedder, l2_normalise
from graphbrain.embedding.hashing import HashingEmbedder
from graphbrain.errors import EmbeddingError

__all__ = [
    "BaseEmbedder",
    "Embedder",
    "HashingEmbedder",
    "PROVIDERS",
    "clear_embedder_cache",
    "get_embedder",
    "l2_normalise",
]

PROVIDERS = ("fastembed", "use-multilingual", "hashing")

_lock = threading.Lock()
# Loaded models, keyed without the batch size (one load per model) ...
_loaded: dict[tuple[str, str | None, str | None, int | None], BaseEmbedder] = {}
# ... and the embedder handed out per (model key, batch size): the same object for the same config.
_handed_out: dict[tuple[tuple[str, str | None, str | None, int | None], int], BaseEmbedder] = {}


def _model_key(cfg: EmbeddingConfig) -> tuple[str, str | None, str | None, int | None]:
    provider = str(cfg.provider)
    path = str(Path(cfg.model_path).expanduser().resolve()) if cfg.model_path else None
    if provider == "hashing":
        # The dimension is a parameter of the hashing embedder, so it is part of what is "loaded".
        return (provider, None, None, cfg.dimension)
    if provider == "use-multilingual":
        from graphbrain.embedding.use_provider import MODEL_NAME

        default_model = EmbeddingConfig.model_fields["model"].default
        if cfg.model not in (MODEL_NAME, default_model, ""):
            raise EmbeddingError(
                f"embedding.model {cfg.model!r}: the use-multilingual provider has one packaged model, "
                f"{MODEL_NAME!r}; set embedding.model_path for another file"
            )
        return (provider, MODEL_NAME if path is None else None, path, None)
    if provider == "fastembed":
        # model_path overrides the model name.
        return (provider, None if path else cfg.model, path, None)
    raise EmbeddingError(f"embedding.provider {provider!r}: unknown; use one of {', '.join(PROVIDERS)}")


def _load(
    cfg: EmbeddingConfig, key: tuple[str, str | None, str | None, int | None], cache_dir: str | None
) -> BaseEmbedder:
    provider, model, path, _ = key
    if provider == "hashing":
        return HashingEmbedder(cfg.dimension, batch_size=cfg.batch_size)
    if provider == "use-multilingual":
        from graphbrain.embedding.use_provider import load_use_multilingual

        return load_use_multilingual(model_path=path, batch_size=cfg.batch_size)
    from graphbrain.embedding.fastembed_provider import load_fastembed

    return load_fastembed(
        model or cfg.model,
        model_path=path,
        batch_size=cfg.batch_size,
        cache_dir=cache_dir,
        declared_dim=cfg.dimension,
    )


def get_embedder(cfg: EmbeddingConfig, *, cache_dir: str | os.PathLike[str] | None = None) -> BaseEmbedder:
    """The embedder for ``cfg``, loading its model on first use only.

    Raises EmbeddingError when the model cannot be loaded (the message says what to install or
    configure) or when its real dimension differs from ``embedding.dimension``. ``cache_dir`` is where
    packaged models are assembled (default $GRAPHBRAIN_MODEL_CACHE or ~/.cache/graphbrain/models).
    """
    key = _model_key(cfg)
    with _lock:
        handed = _handed_out.get((key, cfg.batch_size))
        if handed is None:
            base = _loaded.get(key)
            if base is None:
                base = _load(cfg, key, os.fspath(cache_dir) if cache_dir is not None else None)
                _loaded[key] = base
            handed = base.with_batch_size(cfg.batch_size)
            _handed_out[(key, cfg.batch_size)] = handed
    if handed.dim != cfg.dimension:
        raise EmbeddingError(
            f"embedding.dimension is {cfg.dimension} but the model {handed.name} makes vectors of "
            f"{handed.dim}; set embedding.dimension: {handed.dim} (or choose a model of dimension "
            f"{cfg.dimension})"
        )
    return handed


def clear_embedder_cache() -> None:
    """Forget every loaded model (tests; a running service never needs it)."""
    with _lock:
        _loaded.clear()
        _handed_out.clear()
