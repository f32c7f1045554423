"""Fusion: RRF against hand arithmetic, weights, dedup provenance, weighted_sum, none."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphbrain.contracts import Fusion, Mode
from graphbrain.retrieve.candidate import Candidate
from graphbrain.retrieve.fuse import RankedList, concatenate, fuse, rrf, weighted_sum

MakeCandidate = Callable[..., Candidate]


def _lists(mk: MakeCandidate) -> list[RankedList]:
    """L1 exact q0 w1.0 [A B C]; L2 semantic q0 w1.0 [B C D]; L3 semantic q1 w0.5 [D A]."""
    exact = RankedList(
        Mode.exact,
        0,
        1.0,
        [mk("A", raw_score=9.0), mk("B", raw_score=7.0), mk("C", raw_score=3.0)],
        query_text="q0",
    )
    sem0 = RankedList(
        Mode.semantic,
        0,
        1.0,
        [mk("B", raw_score=0.91), mk("C", raw_score=0.85), mk("D", raw_score=0.80)],
        query_text="q0",
    )
    sem1 = RankedList(Mode.semantic, 1, 0.5, [mk("D", raw_score=0.88), mk("A", raw_score=0.70)], query_text="q1")
    return [exact, sem0, sem1]


def test_rrf_matches_hand_computed_example(make_candidate: MakeCandidate) -> None:
    # k = 60, score = Σ weight / (60 + rank):
    #   A = 1/61 (L1 #1) + 0.5/62 (L3 #2) = 0.0163934 + 0.0080645 = 0.0244580
    #   B = 1/62 (L1 #2) + 1/61   (L2 #1) = 0.0161290 + 0.0163934 = 0.0325225
    #   C = 1/63 (L1 #3) + 1/62   (L2 #2) = 0.0158730 + 0.0161290 = 0.0320020
    #   D = 1/63 (L2 #3) + 0.5/61 (L3 #1) = 0.0158730 + 0.0081967 = 0.0240697
    # order: B > C > A > D
    fused = rrf(_lists(make_candidate), k=60)
    assert [c.id for c in fused] == ["B", "C", "A", "D"]
    expected = {
        "A": 1 / 61 + 0.5 / 62,
        "B": 1 / 62 + 1 / 61,
        "C": 1 / 63 + 1 / 62,
        "D": 1 / 63 + 0.5 / 61,
    }
    for c in fused:
        assert c.score == pytest.approx(expected[c.id])
        assert c.signals["rrf_score"] == pytest.approx(expected[c.id])
    by_id = {c.id: c for c in fused}
    # strongest provenance: the single largest contribution
    assert (by_id["A"].mode, by_id["A"].query_index, by_id["A"].rank) == (Mode.exact, 0, 1)  # 1/61
    assert (by_id["B"].mode, by_id["B"].rank) == (Mode.semantic, 1)  # 1/61 beats 1/62
    assert (by_id["C"].mode, by_id["C"].rank) == (Mode.semantic, 2)  # 1/62 beats 1/63
    assert (by_id["D"].mode, by_id["D"].query_index) == (Mode.semantic, 0)  # 1/63 beats 0.5/61
    assert by_id["D"].query_text == "q0"
    # per-backend signals, best over occurrences
    a = by_id["A"].signals
    assert (a["fts_score"], a["fts_rank"]) == (9.0, 1)
    assert (a["vector_score"], a["vector_rank"]) == (0.70, 2)
    d = by_id["D"].signals
    assert (d["vector_score"], d["vector_rank"]) == (0.88, 1)  # best score and best rank
    assert "fts_score" not in d
    assert len(by_id["A"].hits) == 2


def test_mode_weights_change_the_order(make_candidate: MakeCandidate) -> None:
    # semantic weight 0 leaves only the exact list: A = 1/61 > B = 1/62 > C = 1/63, D = 0 (last)
    fused = rrf(_lists(make_candidate), mode_weights={"semantic": 0.0})
    assert [c.id for c in fused] == ["A", "B", "C", "D"]
    assert fused[-1].score == 0.0
    # exact ×3: A = 3/61 + 0.5/62 = 0.04918 + 0.00806 = 0.05724
    #           B = 3/62 + 1/61   = 0.04839 + 0.01639 = 0.06478
    #           C = 3/63 + 1/62   = 0.04762 + 0.01613 = 0.06375
    #           D = 1/63 + 0.5/61 = 0.01587 + 0.00820 = 0.02407
    fused = rrf(_lists(make_candidate), mode_weights={"exact": 3.0})
    assert [c.id for c in fused] == ["B", "C", "A", "D"]
    assert fused[2].score == pytest.approx(3 / 61 + 0.5 / 62)
    # and the strongest provenance of B moves to exact: 3/62 = 0.04839 > 1/61
    assert fused[0].mode == Mode.exact


def test_weights_and_query_weight(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    low = RankedList(Mode.exact, 0, 0.2, [mk("X")])
    high = RankedList(Mode.exact, 1, 1.0, [mk("Y")])
    fused = rrf([low, high])
    assert [c.id for c in fused] == ["Y", "X"]
    assert fused[1].score == pytest.approx(0.2 / 61)


def test_dedup_keeps_the_strongest_provenance(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    exact = RankedList(Mode.exact, 0, 1.0, [mk(f"e{i}") for i in range(4)] + [mk("S", raw_score=2.0)])
    sem = RankedList(Mode.semantic, 2, 0.9, [mk("S", raw_score=0.95, query_text="other")], query_text="qs")
    fused = rrf([exact, sem])
    s = next(c for c in fused if c.id == "S")
    # exact #5: 1/65 = 0.015385 beats semantic #1 at weight 0.9: 0.9/61 = 0.014754 -> exact wins
    assert (s.mode, s.rank, s.query_index) == (Mode.exact, 5, 0)
    strong = RankedList(Mode.semantic, 2, 1.0, [mk("S", raw_score=0.95)], query_text="qs")
    s2 = next(c for c in rrf([exact, strong]) if c.id == "S")
    # 1/61 > 1/65 -> semantic
    assert (s2.mode, s2.rank, s2.query_index, s2.query_text) == (Mode.semantic, 1, 2, "qs")
    assert s2.signals["fts_rank"] == 5 and s2.signals["vector_rank"] == 1
    assert len([c for c in rrf([exact, strong]) if c.id == "S"]) == 1


def test_dedup_uses_the_dedup_key_not_the_id(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    a = mk("m1", side="memory")
    b = mk("m1-again", side="memory", memory_item_id="m1")
    fused = rrf([RankedList(Mode.exact, 0, 1.0, [a]), RankedList(Mode.relational, 0, 1.0, [b])])
    assert len(fused) == 1
    assert "fts_rank" in fused[0].signals and "graph_rank" in fused[0].signals


def test_ties_break_by_id(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    lists = [RankedList(Mode.exact, 0, 1.0, [mk("b")]), RankedList(Mode.exact, 1, 1.0, [mk("a")])]
    assert [c.id for c in rrf(lists)] == ["a", "b"]
    assert [c.id for c in rrf(list(reversed(lists)))] == ["a", "b"]


def test_fusion_copies_candidates(make_candidate: MakeCandidate) -> None:
    original = make_candidate("A", raw_score=1.0)
    fused = rrf([RankedList(Mode.exact, 0, 1.0, [original])])
    fused[0].signals["x"] = 1
    fused[0].score = 99.0
    assert original.signals == {} and original.score == 0.0


def test_weighted_sum(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    # L1 raw 10, 5, 0 -> min-max 1.0, 0.5, 0.0 ; L2 raw 0.9, 0.8, 0.7 -> 1.0, 0.5, 0.0
    l1 = RankedList(Mode.exact, 0, 1.0, [mk("A", raw_score=10), mk("B", raw_score=5), mk("C", raw_score=0)])
    l2 = RankedList(Mode.semantic, 0, 1.0, [mk("C", raw_score=0.9), mk("B", raw_score=0.8), mk("D", raw_score=0.7)])
    # weights exact 2, semantic 1:  A = 2×1.0 = 2.0 ; B = 2×0.5 + 0.5 = 1.5 ; C = 0 + 1.0 = 1.0 ; D = 0
    fused = weighted_sum([l1, l2], {"exact": 2.0})
    assert [(c.id, round(c.score, 6)) for c in fused] == [("A", 2.0), ("B", 1.5), ("C", 1.0), ("D", 0.0)]
    c = next(x for x in fused if x.id == "C")
    assert c.mode == Mode.semantic  # its strongest contribution
    assert "rrf_score" not in c.signals


def test_weighted_sum_flat_list_counts_as_one(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    fused = weighted_sum([RankedList(Mode.exact, 0, 0.5, [mk("A", raw_score=3), mk("B", raw_score=3)])])
    assert [c.score for c in fused] == [0.5, 0.5]


def test_none_concatenates_and_keeps_first(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    l1 = RankedList(Mode.exact, 0, 1.0, [mk("C"), mk("A")])
    l2 = RankedList(Mode.semantic, 1, 1.0, [mk("A"), mk("B")])
    fused = concatenate([l1, l2])
    assert [c.id for c in fused] == ["C", "A", "B"]
    assert [round(c.score, 4) for c in fused] == [1.0, 0.6667, 0.3333]
    a = fused[1]
    assert (a.mode, a.query_index) == (Mode.exact, 0)
    assert a.signals["fts_rank"] == 2 and a.signals["vector_rank"] == 1


def test_fuse_dispatch_and_explain(make_candidate: MakeCandidate) -> None:
    lists = _lists(make_candidate)
    fused, explain = fuse(lists, Fusion.model_validate({"method": "rrf", "rrf_k": 10, "weights": {"exact": 1.5}}))
    assert explain["method"] == "rrf" and explain["rrf_k"] == 10
    assert explain["weights"] == {"exact": 1.5, "semantic": 1.0}
    assert explain["unique"] == 4 and explain["candidates_in"] == 8
    # k=10: A = 1.5/11 + 0.5/12 = 0.1780 ; B = 1.5/12 + 1/11 = 0.2159 ; C = 1.5/13 + 1/12 = 0.1987
    assert fused[0].score == pytest.approx(1.5 / 12 + 1 / 11)
    ws, explain_ws = fuse(lists, Fusion.model_validate({"method": "weighted_sum"}))
    assert explain_ws["rrf_k"] is None and len(ws) == 4
    none, explain_none = fuse(lists, Fusion.model_validate({"method": "none"}))
    assert [c.id for c in none] == ["A", "B", "C", "D"] and explain_none["method"] == "none"


def test_hybrid_list_names_its_backend(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    lst = RankedList(Mode.hybrid, 0, 1.0, [mk("A", raw_score=0.7)], backend="vector")
    fused = rrf([lst], mode_weights={"semantic": 2.0})
    assert fused[0].mode == Mode.hybrid
    assert fused[0].signals["vector_score"] == 0.7
    # mode weight falls back to the backend's mode name when the list's own mode has none
    assert fused[0].score == pytest.approx(2.0 / 61)


def test_empty_input() -> None:
    assert rrf([]) == []
    assert weighted_sum([]) == []
    assert concatenate([]) == []
    assert fuse([], Fusion.model_validate({}))[0] == []
