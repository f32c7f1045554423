"""The builtin feature reranker, the factory's offline fallback, and tie_break."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graphbrain.retrieve.candidate import Candidate
from graphbrain.retrieve.rerank import (
    CrossEncoderReranker,
    FeatureReranker,
    FeatureWeights,
    Reranker,
    entity_overlap,
    get_reranker,
    recency_score,
    source_priority_of,
    term_coverage,
    tie_break,
)
from graphbrain.retrieve.snippets import terms

MakeCandidate = Callable[..., Candidate]
NOW = datetime(2026, 2, 20, tzinfo=UTC)


def test_query_term_coverage_beats_none(make_candidate: MakeCandidate) -> None:
    # Coverage is always measured (explain shows it) but weighs nothing by default: BM25 counts the
    # query's terms already. Given a weight, it breaks a tie.
    hit = make_candidate("hit", text="Neo4j vector index configuration", score=0.5)
    miss = make_candidate("miss", text="A recipe for pancakes", score=0.5)
    FeatureReranker().rerank("neo4j vector index", [miss, hit], top_n=10, now=NOW)
    assert hit.features["coverage"] == 1.0 and miss.features["coverage"] == 0.0
    assert hit.score == miss.score
    out = FeatureReranker(FeatureWeights(coverage=0.25)).rerank("neo4j vector index", [miss, hit], 10, now=NOW)
    assert [c.id for c in out] == ["hit", "miss"]
    assert hit.signals["rerank_score"] == hit.score > miss.score


def test_coverage_of_chinese_uses_bigrams(make_candidate: MakeCandidate) -> None:
    assert terms("向量索引") == ["向量", "量索", "索引"]
    c = make_candidate("zh", text="Neo4j 的向量索引怎么建")
    assert term_coverage(terms("向量索引"), c) == 1.0
    assert term_coverage(terms("全文检索"), c) == 0.0
    assert term_coverage(terms("the of"), c) == 0.0  # stopwords only: no terms


def test_entity_overlap(make_candidate: MakeCandidate) -> None:
    assert entity_overlap(["entity:repo:graphbrain", "Neo4j"], ["graphbrain", "neo4j", "spacy"]) == 2 / 3
    assert entity_overlap(["x"], []) == 0.0
    a = make_candidate("a", text="same text", entities=["Neo4j"], score=1.0)
    b = make_candidate("b", text="same text", score=1.0)
    out = FeatureReranker().rerank("q", [b, a], 10, query_entities=["neo4j"], now=NOW)
    assert out[0].id == "a"


def test_recency_decays() -> None:
    assert recency_score(NOW, NOW) == 1.0
    assert recency_score(NOW - timedelta(days=30), NOW) == pytest.approx(0.5)
    assert recency_score(NOW - timedelta(days=60), NOW) == pytest.approx(0.25)
    assert recency_score(NOW - timedelta(days=10), NOW, half_life_days=10) == pytest.approx(0.5)
    assert recency_score(NOW + timedelta(days=3), NOW) == 1.0  # the future counts as now
    assert recency_score(None, NOW) == 0.5
    naive = datetime(2026, 2, 20)  # naive times are UTC
    assert recency_score(naive, NOW) == 1.0


def test_recency_orders_equal_candidates(make_candidate: MakeCandidate) -> None:
    old = make_candidate("old", at=NOW - timedelta(days=90), score=1.0)
    new = make_candidate("new", at=NOW - timedelta(days=1), score=1.0)
    out = FeatureReranker().rerank("q", [old, new], 10, now=NOW)
    assert [c.id for c in out] == ["new", "old"]
    assert new.signals["recency_score"] > old.signals["recency_score"]


def test_status_penalties(make_candidate: MakeCandidate) -> None:
    kw = {"side": "memory", "text": "pref dark mode", "score": 1.0, "at": NOW}
    active = make_candidate("m-active", status="active", **kw)
    superseded = make_candidate("m-superseded", status="superseded", **kw)
    retracted = make_candidate("m-retracted", status="retracted", **kw)
    out = FeatureReranker().rerank("dark mode", [retracted, superseded, active], 10, now=NOW)
    assert [c.id for c in out] == ["m-active", "m-superseded", "m-retracted"]
    assert superseded.score == pytest.approx(active.score * 0.5)
    assert retracted.score == pytest.approx(active.score * 0.2)


def test_fused_score_is_the_biggest_feature(make_candidate: MakeCandidate) -> None:
    w = FeatureWeights()
    assert w.fused > max(w.coverage, w.entities, w.recency, w.source)
    strong = make_candidate("strong", text="unrelated words", score=0.03)
    weak = make_candidate("weak", text="unrelated words", score=0.01)
    out = FeatureReranker().rerank("q", [weak, strong], 10, now=NOW)
    assert out[0].id == "strong"
    assert strong.features["fused"] == 1.0 and weak.features["fused"] == pytest.approx(1 / 3)


def test_the_formula(make_candidate: MakeCandidate) -> None:
    c = make_candidate("c", text="alpha beta", score=2.0, at=NOW - timedelta(days=30), source_type="url")
    FeatureReranker().rerank("alpha gamma", [c], 10, now=NOW)
    # fused 1.0, speaker 0, coverage 1/2 (weight 0), entities 0, recency 0.5, source url 0.9, in_time 0,
    # status active; divided by the sum of the weights (1 + 0.2 + 0 + 0.05 + 0.05 + 0.05 + 0.2)
    expected = (1.0 * 1.0 + 0.05 * 0.5 + 0.05 * 0.9) / 1.55
    assert c.score == pytest.approx(expected)


def test_source_priority(make_candidate: MakeCandidate) -> None:
    file_c = make_candidate("f", source_type="file")
    url_c = make_candidate("u", source_type="url")
    mem = make_candidate("m", side="memory")
    turn = make_candidate("t", side="turn")
    assert source_priority_of(file_c) == 1.0 and source_priority_of(url_c) == 0.9
    assert source_priority_of(url_c, {"url": 0.2}) == 0.2
    assert source_priority_of(mem) == 0.7 and source_priority_of(turn) == 0.7  # no prior lifts an item
    assert source_priority_of(mem, {"memory": 0.1}) == 0.1
    assert source_priority_of(make_candidate("o", source_type="other")) == 0.5


def test_deterministic(make_candidate: MakeCandidate) -> None:
    base = [
        make_candidate(f"c{i}", text=f"doc {i} about neo4j" if i % 2 else f"doc {i}", score=1 / (60 + i))
        for i in range(1, 20)
    ]
    runs = []
    for _ in range(3):
        cands = copy.deepcopy(base)
        out = FeatureReranker().rerank("neo4j", list(reversed(cands)), 50, now=NOW)
        runs.append([(c.id, c.score) for c in out])
    assert runs[0] == runs[1] == runs[2]


def test_top_n_reranks_the_head_and_keeps_the_tail(make_candidate: MakeCandidate) -> None:
    cands = [make_candidate(f"c{i}", score=1 / (60 + i)) for i in range(1, 6)]
    out = FeatureReranker().rerank("q", cands, top_n=2, now=NOW)
    assert len(out) == 5
    assert {c.id for c in out[:2]} == {"c1", "c2"}
    assert [c.id for c in out[2:]] == ["c3", "c4", "c5"]
    assert "rerank_score" not in out[2].signals
    scores = [c.score for c in out]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == 5


def test_builtin_and_none_give_the_feature_reranker() -> None:
    for name in (None, "builtin"):
        r, warnings = get_reranker(name, None)
        assert isinstance(r, FeatureReranker) and warnings == [] and r.name == "builtin"
        assert isinstance(r, Reranker)


def test_qwen3_reranker_falls_back_with_a_warning() -> None:
    r, warnings = get_reranker("qwen3-reranker", None)
    assert isinstance(r, FeatureReranker)
    assert warnings == [
        "rerank model 'qwen3-reranker' is not available offline; the builtin feature reranker ran instead"
    ]


def test_missing_model_path_falls_back(tmp_path: Path) -> None:
    r, warnings = get_reranker("some/cross-encoder", str(tmp_path / "nope"))
    assert isinstance(r, FeatureReranker)
    assert len(warnings) == 1 and warnings[0].startswith("rerank model 'some/cross-encoder' is not available")


def test_tie_break_recency_only_within_epsilon(make_candidate: MakeCandidate) -> None:
    a = make_candidate("a", score=0.5, at=NOW - timedelta(days=9))
    b = make_candidate("b", score=0.5 - 1e-7, at=NOW)  # a tie with a
    c = make_candidate("c", score=0.4, at=NOW + timedelta(days=1))  # clearly lower: stays last
    d = make_candidate("d", score=0.5, at=None)  # no time: last within its group
    out = tie_break([a, d, c, b], "recency")
    assert [x.id for x in out] == ["b", "a", "d", "c"]
    assert [x.id for x in tie_break([a, d, c, b], "none")] == ["a", "d", "b", "c"]


def test_tie_break_source_priority(make_candidate: MakeCandidate) -> None:
    url = make_candidate("url", score=0.7, source_type="url")
    file_ = make_candidate("file", score=0.7, source_type="file")
    mem = make_candidate("mem", side="memory", score=0.7)
    out = tie_break([url, mem, file_], "source_priority")
    assert [x.id for x in out] == ["file", "url", "mem"]
    out = tie_break([url, mem, file_], "source_priority", {"memory": 2.0})
    assert [x.id for x in out] == ["mem", "file", "url"]


def test_tie_break_groups_do_not_chain(make_candidate: MakeCandidate) -> None:
    # 0.5, 0.5-0.8e-6, 0.5-1.6e-6: the third is within epsilon of the second but not of the first
    xs = [
        make_candidate("x0", score=0.5, at=NOW - timedelta(days=3)),
        make_candidate("x1", score=0.5 - 0.8e-6, at=NOW - timedelta(days=2)),
        make_candidate("x2", score=0.5 - 1.6e-6, at=NOW),
    ]
    assert [x.id for x in tie_break(xs, "recency")] == ["x1", "x0", "x2"]


class _FakeCrossEncoder:
    """Stands in for fastembed's TextCrossEncoder: logit = number of 'neo4j' in the document."""

    def rerank(self, query: str, documents: list[str], batch_size: int = 64) -> list[float]:
        return [float(d.lower().count("neo4j")) - 1.0 for d in documents]


def test_cross_encoder_scores_through_a_sigmoid(make_candidate: MakeCandidate) -> None:
    r = CrossEncoderReranker("fake/model", "/nonexistent")
    r._model = _FakeCrossEncoder()  # a loaded model, without touching the disk
    a = make_candidate("a", text="neo4j neo4j neo4j", score=0.1)
    b = make_candidate("b", text="nothing", score=0.9)
    c = make_candidate("c", text="neo4j", score=0.05)
    out = r.rerank("neo4j", [b, a, c], top_n=2)
    assert [x.id for x in out] == ["a", "b", "c"]  # c is outside top_n: kept after the head
    assert a.signals["rerank_score"] == pytest.approx(1 / (1 + math.exp(-2.0)))
    assert b.score == pytest.approx(1 / (1 + math.exp(1.0)))
    assert 0 < c.score < b.score and "rerank_score" not in c.signals


def test_model_dir_without_onnx_falls_back(tmp_path: Path) -> None:
    r, warnings = get_reranker("acme/reranker-xs", str(tmp_path))
    assert isinstance(r, FeatureReranker)
    assert "not available offline" in warnings[0] and "FileNotFoundError" in warnings[0]
