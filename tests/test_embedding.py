"""graphbrain.embedding: real packaged models (offline), the hashing embedder, caching and errors.

No database. Each real model is loaded once (module-scoped fixtures), with the network blocked.
"""

from __future__ import annotations

import contextlib
import json
import math
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from graphbrain.config import EmbeddingConfig
from graphbrain.embedding import BaseEmbedder, Embedder, HashingEmbedder, get_embedder
from graphbrain.embedding.fastembed_provider import assemble_packaged_model
from graphbrain.embedding.hashing import features
from graphbrain.errors import EmbeddingError


@contextlib.contextmanager
def no_network() -> Iterator[None]:
    """Any attempt to open a network connection fails the test."""

    def refuse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("the embedding code tried to open a network connection")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket.socket, "connect_ex", refuse)
        mp.setattr(socket, "create_connection", refuse)
        mp.setattr(socket, "getaddrinfo", refuse)
        yield


def minilm_cfg(**fields: object) -> EmbeddingConfig:
    """The English MiniLM model through fastembed (the default provider is the multilingual USE)."""
    base: dict[str, object] = {
        "provider": "fastembed",
        "model": "local:all-minilm-l6-v2-int8",
        "dimension": 384,
    }
    base.update(fields)
    return EmbeddingConfig(**base)  # type: ignore[arg-type]


def use_cfg(**kw: Any) -> EmbeddingConfig:
    """An EmbeddingConfig for the use-multilingual provider (built unvalidated while the config's
    provider Literal does not list it yet)."""
    fields = {"provider": "use-multilingual", "model": "local:use-multilingual-int8", "dimension": 512, **kw}
    try:
        return EmbeddingConfig(**fields)
    except ValidationError:
        return EmbeddingConfig.model_construct(**{**EmbeddingConfig().model_dump(), **fields})


def cos(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b))


def norms(vectors: list[list[float]]) -> list[float]:
    return [float(np.linalg.norm(v)) for v in vectors]


@pytest.fixture(scope="module")
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def minilm(model_cache: Path) -> BaseEmbedder:
    with no_network():
        return get_embedder(minilm_cfg(), cache_dir=model_cache)


@pytest.fixture(scope="module")
def use() -> BaseEmbedder:
    # The default provider: a missing package is a failure here, never a skip.
    with no_network():
        return get_embedder(use_cfg())


# ---------------------------------------------------------------- MiniLM (default, English)
def test_minilm_english_and_chinese_have_dim_and_unit_norm(minilm: BaseEmbedder) -> None:
    assert isinstance(minilm, Embedder)
    assert minilm.dim == 384
    assert minilm.name == "fastembed:local:all-minilm-l6-v2-int8"
    vecs = minilm.embed(["The user prefers dark mode.", "用户喜欢深色模式。", ""])
    assert [len(v) for v in vecs] == [384, 384, 384]
    assert all(math.isclose(n, 1.0, abs_tol=1e-4) for n in norms(vecs))
    assert all(isinstance(x, float) for x in vecs[0])


def test_minilm_similar_english_scores_higher(minilm: BaseEmbedder) -> None:
    q = minilm.embed_one("How do I reset my password?")
    similar = minilm.embed_one("Steps to change a forgotten password")
    unrelated = minilm.embed_one("The weather in Paris is sunny today")
    assert cos(q, similar) > cos(q, unrelated) + 0.3


def test_empty_in_empty_out_and_str_rejected(minilm: BaseEmbedder) -> None:
    assert minilm.embed([]) == []
    with pytest.raises(TypeError):
        minilm.embed("not a list")
    with pytest.raises(TypeError):
        minilm.embed(["ok", 3])  # type: ignore[list-item]


def test_batching_keeps_order_and_values(minilm: BaseEmbedder) -> None:
    texts = [f"sentence number {i} " + "word " * (i % 7) for i in range(11)] + ["短句", "a much longer " * 20]
    whole = np.array(minilm.embed(texts))
    small = get_embedder(minilm_cfg(batch_size=3))
    assert small is not minilm and small.batch_size == 3
    assert small._model is minilm._model  # type: ignore[attr-defined]  # one load, two batch sizes
    batched = np.array(small.embed(texts))
    one_by_one = np.array([minilm.embed_one(t) for t in texts])
    assert np.allclose(whole, batched, atol=1e-4)
    assert np.allclose(whole, one_by_one, atol=1e-4)


def test_repeated_texts_go_to_the_model_once(minilm: BaseEmbedder, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real = minilm._run_batch

    def counting(batch: list[str]) -> Any:
        seen.extend(batch)
        return real(batch)

    monkeypatch.setattr(minilm, "_run_batch", counting)
    texts = ["MMMM" * 50] * 40 + ["the same", "other", "the same"]
    out = minilm.embed(texts)
    assert sorted(seen) == sorted({*texts})
    assert len(out) == len(texts) and out[0] == out[39] and out[40] == out[42] and out[0] is not out[1]
    assert np.allclose(out[41], minilm.embed_one("other"), atol=1e-4)


def test_same_embedder_object_is_returned(minilm: BaseEmbedder) -> None:
    assert get_embedder(minilm_cfg()) is minilm
    assert get_embedder(minilm_cfg(model="local:all-minilm-l6-v2-int8")) is minilm


def test_dimension_mismatch_names_the_key(minilm: BaseEmbedder) -> None:
    with pytest.raises(EmbeddingError) as exc:
        get_embedder(minilm_cfg(dimension=512))
    msg = str(exc.value)
    assert "embedding.dimension" in msg and "512" in msg and "384" in msg


def test_packaged_dir_is_assembled_offline(model_cache: Path, minilm: BaseEmbedder) -> None:
    d = assemble_packaged_model("all-minilm-l6-v2-int8", model_cache)
    for f in ("model.onnx", "tokenizer.json", "tokenizer_config.json", "vocab.txt", "config.json"):
        assert (d / f).is_file()
    # The model's real truncation length (sentence-transformers uses 256), not the 512 position table.
    assert json.loads((d / "tokenizer_config.json").read_text())["model_max_length"] == 256


def test_model_path_loads_a_local_onnx_dir(model_cache: Path, minilm: BaseEmbedder, tmp_path: Path) -> None:
    src = assemble_packaged_model("all-minilm-l6-v2-int8", model_cache)
    own = tmp_path / "my-model"
    shutil.copytree(src, own, symlinks=True)
    with no_network():
        emb = get_embedder(minilm_cfg(model_path=str(own)))
    assert emb is not minilm and emb.dim == 384 and emb.name == "fastembed:path:my-model"
    text = "graph memory for agents"
    assert cos(emb.embed_one(text), minilm.embed_one(text)) > 0.999


def test_model_path_without_tokenizer_is_explained(tmp_path: Path) -> None:
    (tmp_path / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(EmbeddingError, match="tokenizer"):
        get_embedder(minilm_cfg(model_path=str(tmp_path)))


def test_unknown_models_raise_embedding_error() -> None:
    with pytest.raises(EmbeddingError, match="local:all-minilm-l6-v2-int8"):
        get_embedder(minilm_cfg(model="local:no-such-model"))
    with no_network(), pytest.raises(EmbeddingError, match="model_path"):
        get_embedder(minilm_cfg(model="no-org/no-such-fastembed-model"))


# ---------------------------------------------------------------- multilingual USE
def test_use_chinese_and_english_dim_and_norm(use: BaseEmbedder) -> None:
    assert use.dim == 512
    vecs = use.embed(["The user prefers dark mode.", "用户喜欢深色模式。", ""])
    assert [len(v) for v in vecs] == [512, 512, 512]
    assert all(math.isclose(n, 1.0, abs_tol=1e-4) for n in norms(vecs))


def test_use_similar_chinese_scores_higher(use: BaseEmbedder) -> None:
    q = use.embed_one("我的密码忘了,怎么重置?")
    similar = use.embed_one("找回并修改登录密码的步骤")
    unrelated = use.embed_one("今天巴黎的天气很晴朗")
    assert cos(q, similar) > cos(q, unrelated) + 0.15


def test_use_cross_lingual_top1(use: BaseEmbedder) -> None:
    docs = [
        "The database server crashed because the disk was full.",
        "She practices the piano every evening.",
        "The flight to Shanghai was delayed by three hours.",
        "Eat more vegetables to stay healthy.",
    ]
    queries = ["数据库为什么宕机了?", "谁每天晚上练琴?", "去上海的飞机晚点了吗?", "怎样吃才健康?"]
    sims = np.array(use.embed(queries)) @ np.array(use.embed(docs)).T
    assert list(np.argmax(sims, axis=1)) == [0, 1, 2, 3]


def test_use_cached_and_dimension_checked(use: BaseEmbedder) -> None:
    assert get_embedder(use_cfg()) is use
    with pytest.raises(EmbeddingError, match="embedding.dimension"):
        get_embedder(use_cfg(dimension=384))
    with pytest.raises(EmbeddingError, match="embedding.model"):
        get_embedder(use_cfg(model="local:something-else"))


# ---------------------------------------------------------------- hashing
def test_hashing_is_deterministic_and_unit_norm() -> None:
    a, b = HashingEmbedder(256), HashingEmbedder(256)
    texts = ["Neo4j stores the graph", "图数据库存储记忆", "", "!!!"]
    va, vb = a.embed(texts), b.embed(texts)
    assert va == vb
    assert all(len(v) == 256 for v in va)
    assert all(math.isclose(n, 1.0, abs_tol=1e-5) for n in norms(va))


def test_hashing_is_lexical() -> None:
    h = HashingEmbedder(384)
    q = h.embed_one("graph database memory")
    assert cos(q, h.embed_one("a memory graph in a database")) > cos(q, h.embed_one("sunny weather in Paris"))
    zq = h.embed_one("图数据库")
    assert cos(zq, h.embed_one("我们用图数据库存记忆")) > cos(zq, h.embed_one("今天天气很好"))
    f = features("图数据 cats")
    assert "b:图数" in f and "b:数据" in f and "w:cats" in f and "g:<ca" in f


def test_get_embedder_hashing_is_cached_per_dim_and_thread_safe() -> None:
    cfg = EmbeddingConfig(provider="hashing", dimension=97)
    results: list[BaseEmbedder] = []

    def grab() -> None:
        results.append(get_embedder(cfg))

    threads = [threading.Thread(target=grab) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8 and all(r is results[0] for r in results)
    assert isinstance(results[0], HashingEmbedder) and results[0].dim == 97
    assert get_embedder(EmbeddingConfig(provider="hashing", dimension=98)) is not results[0]


def _spin_settings(session: Any) -> tuple[str, str]:
    options = session.get_session_options()
    return tuple(  # type: ignore[return-value]
        options.get_session_config_entry(k)
        for k in ("session.intra_op.allow_spinning", "session.inter_op.allow_spinning")
    )


def test_idle_model_threads_sleep_instead_of_spinning(minilm: BaseEmbedder, use: BaseEmbedder) -> None:
    # Spinning workers took ~40 % of a compose's CPU on 2 cores (graphbrain/embedding/onnx_threads.py).
    # Both providers' sessions: USE builds its own options, fastembed's are settled while it loads.
    assert _spin_settings(use._session) == ("0", "0")  # type: ignore[attr-defined]
    assert _spin_settings(minilm._model.model.model) == ("0", "0")  # type: ignore[attr-defined]
    import fastembed.common.onnx_model as onnx_model
    import onnxruntime

    assert onnx_model.ort is onnxruntime  # the load's view of onnxruntime is gone again


def test_spinning_can_be_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    import onnxruntime

    from graphbrain.embedding.onnx_threads import settle

    monkeypatch.setenv("GRAPHBRAIN_EMBEDDING_SPIN", "1")
    options = settle(onnxruntime.SessionOptions())
    with pytest.raises(RuntimeError):  # an entry never set is not there
        options.get_session_config_entry("session.intra_op.allow_spinning")
    monkeypatch.delenv("GRAPHBRAIN_EMBEDDING_SPIN")
    assert settle(onnxruntime.SessionOptions()).get_session_config_entry("session.intra_op.allow_spinning") == "0"
