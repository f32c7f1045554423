"""Diversity caps, quotas and the memory/resource ratio."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from graphbrain.contracts import Mode
from graphbrain.retrieve.candidate import Candidate
from graphbrain.retrieve.diversity import apply_diversity, effective_memory_share, ratio_select

MakeCandidate = Callable[..., Candidate]


def _ranked(cands: list[Candidate]) -> list[Candidate]:
    """Give scores that fall with position (the order the executor hands in)."""
    for i, c in enumerate(cands):
        c.score = 1.0 - i / 100
    return cands


def test_by_document_cap_holds(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    cands = _ranked(
        [mk(f"d1-{i}", document_id="d1", section_id=f"s{i}", source_uri=f"file:///d1#{i}") for i in range(5)]
        + [mk("d2-0", document_id="d2")]
    )
    kept, dropped = apply_diversity(cands, by_document=3)
    assert [c.id for c in kept] == ["d1-0", "d1-1", "d1-2", "d2-0"]
    assert [(d["id"], d["reason"], d["rule"]) for d in dropped] == [
        ("d1-3", "diversity:by_document", "by_document=3"),
        ("d1-4", "diversity:by_document", "by_document=3"),
    ]


def test_by_source_and_by_section(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    uri = "https://example.org/a"
    cands = _ranked(
        [
            mk("a", document_id="d1", section_id="s1", chunk_index=0, source_uri=uri),
            mk("b", document_id="d1", section_id="s1", chunk_index=1, source_uri=uri),
            mk("c", document_id="d1", section_id="s2", chunk_index=0, source_uri=uri),
            mk("d", document_id="d9", section_id="s1", source_uri=uri),
            mk("e", document_id="d8", source_uri="https://example.org/b"),
        ]
    )
    kept, dropped = apply_diversity(cands, by_document=3, by_source=2, by_section=1)
    assert [c.id for c in kept] == ["a", "c", "e"]
    assert {d["id"]: d["reason"] for d in dropped} == {
        "b": "diversity:by_section",
        "d": "diversity:by_source",
    }
    per_source = Counter(c.source_uri for c in kept)
    assert max(per_source.values()) <= 2


def test_memory_without_document_is_not_limited_by_document(make_candidate: MakeCandidate) -> None:
    mems = _ranked([make_candidate(f"m{i}", side="memory") for i in range(6)])
    kept, dropped = apply_diversity(mems, by_document=1, by_source=1, by_section=1)
    assert len(kept) == 6 and dropped == []  # each has its own graphbrain://memory/<id>


def test_per_mode_k(make_candidate: MakeCandidate) -> None:
    mk = make_candidate
    cands = _ranked(
        [mk(f"e{i}", mode=Mode.exact) for i in range(4)]
        + [mk(f"s{i}", mode=Mode.semantic) for i in range(4)]
        + [mk("r0", mode=Mode.relational)]
    )
    kept, dropped = apply_diversity(cands, per_mode_k={Mode.exact: 2, "semantic": 3})
    assert Counter(c.mode for c in kept) == {Mode.exact: 2, Mode.semantic: 3, Mode.relational: 1}
    assert {d["id"] for d in dropped} == {"e2", "e3", "s3"}
    assert {d["reason"] for d in dropped} == {"budget:per_mode_k"}
    assert next(d for d in dropped if d["id"] == "s3")["rule"] == "per_mode_k.semantic=3"


def test_top_k_stops_and_reports(make_candidate: MakeCandidate) -> None:
    cands = _ranked([make_candidate(f"c{i}") for i in range(10)])
    kept, dropped = apply_diversity(cands, top_k=4, by_document=3)
    assert [c.id for c in kept] == ["c0", "c1", "c2", "c3"]
    assert [d["id"] for d in dropped] == [f"c{i}" for i in range(4, 10)]
    assert all(d["reason"] == "budget:top_k" and d["rule"] == "top_k=4" for d in dropped)


def test_order_is_kept(make_candidate: MakeCandidate) -> None:
    # a tie-break put b (equal score) before a: diversity must not undo it
    a = make_candidate("a", score=0.5)
    b = make_candidate("b", score=0.5)
    kept, _ = apply_diversity([b, a], top_k=2)
    assert [c.id for c in kept] == ["b", "a"]


def test_ratio_select_40_60_exact_counts(make_candidate: MakeCandidate) -> None:
    mem = _ranked([make_candidate(f"m{i}", side="memory") for i in range(10)])
    res = _ranked([make_candidate(f"r{i}") for i in range(10)])
    for n, (want_mem, want_res) in {10: (4, 6), 12: (5, 7), 5: (2, 3), 1: (0, 1), 0: (0, 0)}.items():
        selected, dropped = ratio_select(mem, res, n, 0.4)
        sides = Counter(c.side for c in selected)
        assert (sides["memory"], sides["resource"]) == (want_mem, want_res), n
        assert len(dropped) == 20 - n
    selected, dropped = ratio_select(mem, res, 10, 0.4)
    assert {c.id for c in selected} == {"m0", "m1", "m2", "m3", "r0", "r1", "r2", "r3", "r4", "r5"}
    reasons = {d["id"]: d["reason"] for d in dropped}
    # without the ratio the top 10 (ties: memory first) would be m0..m4 + r0..r4 -> m4 lost to the ratio
    assert reasons["m4"] == "diversity:ratio"
    assert reasons["m9"] == "budget:max_items"
    assert [c.score for c in selected] == sorted((c.score for c in selected), reverse=True)


def test_ratio_select_fills_from_the_other_side(make_candidate: MakeCandidate) -> None:
    mem = _ranked([make_candidate(f"m{i}", side="memory") for i in range(2)])
    res = _ranked([make_candidate(f"r{i}") for i in range(20)])
    selected, dropped = ratio_select(mem, res, 10, 0.4)
    assert Counter(c.side for c in selected) == {"memory": 2, "resource": 8}
    assert all(d["reason"] == "budget:max_items" for d in dropped)
    selected, _ = ratio_select(res[:3], [], 10, 0.4)  # nothing on one side at all
    assert len(selected) == 3


def test_ratio_select_adaptive(make_candidate: MakeCandidate) -> None:
    mem = [make_candidate(f"m{i}", side="memory", score=0.9 - i / 100) for i in range(10)]
    res = [make_candidate(f"r{i}", score=0.6 - i / 100) for i in range(10)]
    # memory's best (0.90) beats resource's best (0.60) by 0.30 > margin 0.1: share 0.4 -> 0.6
    assert effective_memory_share(mem, res, 0.4, True) == pytest.approx(0.6)
    selected, dropped = ratio_select(mem, res, 10, 0.4, adaptive=True)
    assert Counter(c.side for c in selected) == {"memory": 6, "resource": 4}
    assert dropped[0]["rule"].startswith("memory_share=0.60")
    # not adaptive: the configured 40/60 holds
    selected, _ = ratio_select(mem, res, 10, 0.4, adaptive=False)
    assert Counter(c.side for c in selected) == {"memory": 4, "resource": 6}
    # close scores: no shift
    close = [make_candidate(f"c{i}", score=0.85 - i / 100) for i in range(10)]
    assert effective_memory_share(mem, close, 0.4, True) == 0.4
    # the cap: 0.7 + 0.2 stops at 0.8
    assert effective_memory_share(mem, res, 0.7, True) == pytest.approx(0.8)
    with pytest.raises(ValueError):
        effective_memory_share(mem, res, 1.5, False)
