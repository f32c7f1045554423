"""The EvidencePack: ids and refs, budgets and diversity, snippets, RRF arithmetic, determinism, bad plans."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from seed_graph import NO_CAPS, PLAIN_RANKING, Run, SeededGraph, evidence_ids, plan, q

from graphbrain.contracts import EvidencePack
from graphbrain.errors import PlanError

NOW = datetime(2026, 2, 20, 12, 0, tzinfo=UTC)


# ---------------------------------------------------------------------------------------- evidence
def test_evidence_ids_uris_and_refs(g: SeededGraph, run: Run) -> None:
    # "dump" is in one ops section only, so that section leads its document's chunks on both backends
    # (FalkorDB's full-text scores tie where Lucene's do not, and the per-document cap keeps three).
    pack = run(plan(q("Neo4j 5.26 dump", "exact"), output={"include_raw": True}))
    by_id = {ev.id: ev for ev in pack.evidences}

    mem = by_id[g.memory("dec_storage")]
    assert mem.kind == "memory_chunk"
    assert mem.source_uri == f"graphbrain://memory/{g.ids['dec_storage']}"
    assert mem.title == "decision:graphbrain:storage"
    assert mem.ref == {"memory_item_id": g.ids["dec_storage"], "session_id": "sess-1", "turn_id": "t-002",
                       "message_id": "t-002:0"}  # fmt: skip

    # The decision and the message it was distilled from are one evidence: the item is cited, the
    # message's words beside it; with rerank off (the fused lists as they are) the message is its own.
    assert g.message("t2.0") not in by_id
    assert {"id": g.message("t2.0"), "reason": "merged"}.items() <= next(
        d for d in pack.explain.dropped if d["id"] == g.message("t2.0")
    ).items()
    assert "Neo4j 5.26" in mem.snippet.split("\n— ", 1)[1]
    plain = run(plan(q("Neo4j 5.26 dump", "exact"), ranking={"rerank": {"enabled": False}}))
    turn = {ev.id: ev for ev in plain.evidences}[g.message("t2.0")]
    assert turn.kind == "memory_chunk"
    assert turn.source_uri == f"graphbrain://turn/{g.turns['t2']}#t-002:0"
    assert turn.ref["turn_id"] == "t-002" and turn.ref["message_id"] == "t-002:0"
    assert turn.ref["session_id"] == "sess-1" and turn.ref["turn_node_id"] == g.turns["t2"]
    assert turn.language == "en"

    ops = g.documents["ops"]
    res = by_id[f"{ops}:s00-backup:0"]
    assert res.kind == "resource_section" and res.source_type == "file"
    assert res.source_uri == "file:///work/docs/ops.md" and res.title == "Neo4j Operations Handbook"
    assert res.ref["document_id"] == ops and res.ref["section_id"] == "s00-backup"
    meta = res.metadata.model_dump()
    assert meta["chunk_index"] == 0 and meta["section_title"] == "Backups"
    assert meta["offset_end"] > meta["offset_start"] == 0 and meta["tags"] == ["neo4j", "operations"]
    assert res.raw is not None and res.raw.content_hash and res.raw.content_ref
    for ev in pack.evidences:
        assert ev.provenance.query_text == "Neo4j 5.26 dump" and ev.provenance.query_index == 0
        assert ev.signals.rerank_score is not None and ev.score == ev.signals.rerank_score


def test_stats_and_explain_are_filled(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("Neo4j", "exact"), q("Project Falcon", "relational"), request_id="r-1"))
    assert pack.request_id == "r-1" and pack.plan["request_id"] == "r-1"
    assert pack.plan_id.startswith("plan_")
    assert pack.stats.returned == len(pack.evidences) and pack.stats.candidates >= pack.stats.returned
    assert set(pack.stats.by_mode) == {"exact", "relational"}
    modes = Counter(ev.provenance.mode.value for ev in pack.evidences)
    for mode, stats in pack.stats.by_mode.items():
        assert stats.returned == modes[mode] and stats.candidates >= stats.returned and stats.took_ms > 0
    assert pack.stats.took_ms >= max(s.took_ms for s in pack.stats.by_mode.values())
    assert pack.explain.rerank == {
        "enabled": True,
        "model": "builtin",
        "top_n": 50,
        "ran": "builtin",
        "reranked": pack.stats.candidates,
        "query": "Neo4j\nProject Falcon",
    }


def test_named_reranker_falls_back_and_says_so(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("Neo4j", "exact"), ranking={"rerank": {"enabled": True, "model": "qwen3-reranker"}}))
    assert pack.explain.rerank["model"] == "qwen3-reranker" and pack.explain.rerank["ran"] == "builtin"
    assert any("qwen3-reranker" in w and "builtin" in w for w in pack.warnings)

    off = run(plan(q("Neo4j", "exact"), ranking={"rerank": {"enabled": False}}))
    assert off.explain.rerank["enabled"] is False and off.explain.rerank["ran"] is None
    assert all(ev.signals.rerank_score is None for ev in off.evidences)


def test_output_switches(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("Neo4j", "exact"), output={"include_signals": False, "include_snippets": False}))
    assert pack.evidences
    for ev in pack.evidences:
        assert ev.snippet == "" and ev.signals.model_dump(exclude_none=True) == {} and ev.raw is None

    bare = run(plan(q("Project Falcon", "relational"), output={"include_provenance": False}))
    assert bare.evidences and all(ev.provenance.path is None for ev in bare.evidences)
    assert any(f.startswith("output.include_provenance") for f in bare.explain.ignored_fields)


# ---------------------------------------------------------------------------------------- budgets
def test_diversity_caps_hold(g: SeededGraph, run: Run) -> None:
    ops = g.documents["ops"]
    pack = run(plan(q("Neo4j", "exact"), budget={"diversity": {"by_document": 3}}))
    per_doc = Counter(ev.document_id for ev in pack.evidences if ev.document_id)
    assert per_doc[ops] == 3  # five sections mention Neo4j
    assert pack.explain.diversity["dropped"]["diversity:by_document"] == 2
    # ... and the messages that memory items were distilled from, merged into their items
    assert {d["reason"] for d in pack.explain.dropped} <= {"diversity:by_document", "merged"}

    one = run(plan(q("Neo4j", "exact"), budget={"diversity": {"by_document": 1}}))
    assert max(Counter(ev.document_id for ev in one.evidences if ev.document_id).values()) == 1
    assert one.explain.diversity["applied"]["by_document"] == 1

    source = run(plan(q("Neo4j", "exact"), budget={"diversity": {"by_document": None, "by_source": 2}}))
    assert max(Counter(ev.source_uri for ev in source.evidences).values()) == 2

    # two chunks of one section ("… two embedding vectors …"): by_section (config default 1) keeps one
    section = run(plan(q("two embedding vectors", "exact", filters={"scope": ["resources"]})))
    assert [e for e in evidence_ids(section) if ":s01-similarity:" in e] != []
    assert len([e for e in evidence_ids(section) if ":s01-similarity:" in e]) == 1
    assert section.explain.diversity["dropped"].get("diversity:by_section") == 1
    both = run(
        plan(
            q("two embedding vectors", "exact", filters={"scope": ["resources"]}),
            budget={"diversity": {"by_section": None}},
        )
    )
    assert len([e for e in evidence_ids(both) if ":s01-similarity:" in e]) == 2


def test_top_k_and_per_mode_k(g: SeededGraph, run: Run) -> None:
    top = run(plan(q("Neo4j", "exact"), budget={"top_k": 3}))
    assert len(top.evidences) == 3
    assert top.explain.diversity["dropped"]["budget:top_k"] == top.stats.candidates - 3 - sum(
        n for r, n in top.explain.diversity["dropped"].items() if r != "budget:top_k"
    )

    quota = run(
        plan(
            q("Neo4j", "exact"),
            q("Project Falcon", "relational"),
            budget={"per_mode_k": {"exact": 2, "relational": 1}},
        )
    )
    modes = Counter(ev.provenance.mode.value for ev in quota.evidences)
    assert modes["exact"] <= 2 and modes["relational"] <= 1
    assert quota.explain.diversity["dropped"]["budget:per_mode_k"] > 0


def test_snippets_never_exceed_the_cap(g: SeededGraph, run: Run) -> None:
    appendix = f"{g.documents['design']}:s02-appendix:2"
    for policy in ("l0", "l1", "l2", "auto"):
        pack = run(
            plan(
                q("倒数排名融合 重排", "exact"),
                output={"snippet_policy": policy, "max_snippet_chars": 120},
            )
        )
        by_id = {ev.id: ev for ev in pack.evidences}
        assert appendix in by_id, policy
        assert all(len(ev.snippet) <= 120 for ev in pack.evidences), policy
        assert by_id[appendix].snippet, policy
    l2 = run(plan(q("倒数排名融合 重排", "exact"), output={"snippet_policy": "l2", "max_snippet_chars": 120}))
    long = {ev.id: ev for ev in l2.evidences}[appendix]
    assert long.snippet.endswith("…") and long.snippet_policy == "l2"
    l0 = run(plan(q("倒数排名融合 重排", "exact"), output={"snippet_policy": "l0", "max_snippet_chars": 120}))
    assert {ev.id: ev for ev in l0.evidences}[appendix].snippet.startswith("附录")  # the section's L0


# ---------------------------------------------------------------------------------------- fusion
def test_rrf_order_matches_the_hand_computed_one(g: SeededGraph, run: Run) -> None:
    """Two real retrievals, fused by hand (Σ w / (60 + rank)), must give the executor's order and scores."""
    first = q("Neo4j graph store", "exact", filters={"scope": ["memory", "turns"]})
    second = q("the storage layer of the knowledge graph", "semantic", weight=0.5,
               filters={"scope": ["memory", "turns"]})  # fmt: skip
    alone = [run(plan(x, ranking=PLAIN_RANKING, budget=NO_CAPS)) for x in (first, second)]
    fts_rank = {ev.id: ev.signals.fts_rank for ev in alone[0].evidences}
    vec_rank = {ev.id: ev.signals.vector_rank for ev in alone[1].evidences}
    assert fts_rank and vec_rank and set(fts_rank) & set(vec_rank)  # some items are found by both

    expected: dict[str, float] = {}
    for ranks, weight in ((fts_rank, 1.0), (vec_rank, 0.5)):
        for eid, rank in ranks.items():
            assert rank is not None
            expected[eid] = expected.get(eid, 0.0) + weight / (60 + rank)
    hand = sorted(expected, key=lambda e: (-expected[e], e))

    fused = run(plan(first, second, ranking=PLAIN_RANKING, budget=NO_CAPS))
    assert evidence_ids(fused) == hand
    for ev in fused.evidences:
        assert ev.signals.rrf_score == pytest.approx(expected[ev.id]) and ev.score == pytest.approx(expected[ev.id])

    # one worked example, written out: rank 1 in the exact list of the storage decision's turn ...
    top = fused.evidences[0]
    r1, r2 = fts_rank.get(top.id), vec_rank.get(top.id)
    want = (1 / (60 + r1) if r1 else 0.0) + (0.5 / (60 + r2) if r2 else 0.0)
    assert top.score == pytest.approx(want)
    # ... and the strongest occurrence is its provenance
    assert top.provenance.mode.value == ("exact" if r1 and (not r2 or 1 / (60 + r1) >= 0.5 / (60 + r2)) else "semantic")


def test_weighted_sum_and_none_fusion(g: SeededGraph, run: Run) -> None:
    for method in ("weighted_sum", "none"):
        pack = run(
            plan(
                q("Neo4j", "exact"),
                ranking={**PLAIN_RANKING, "fusion": {"method": method}},
                budget=NO_CAPS,
            )
        )
        assert pack.explain.fusion["method"] == method and pack.evidences
        scores = [ev.score for ev in pack.evidences]
        assert scores == sorted(scores, reverse=True)


# ---------------------------------------------------------------------------------------- determinism
def _comparable(pack: EvidencePack) -> dict[str, Any]:
    data = pack.model_dump(mode="json")
    data.pop("generated_at")
    data["stats"]["took_ms"] = 0
    for stats in data["stats"]["by_mode"].values():
        stats["took_ms"] = 0
    for ev in data["evidences"]:
        ev["provenance"].pop("retrieved_at")
    return data


def test_the_same_plan_gives_the_same_pack(g: SeededGraph, run: Run) -> None:
    p = plan(
        q("Neo4j 存储", "hybrid"),
        q("Project Falcon", "relational"),
        q("向量索引", "associative", weight=0.6),
        q("knowledge graph", "exact", filters={"status": ["active", "superseded"]}),
        request_id="same",
    )
    a, b = run(p, now=NOW), run(p, now=NOW)
    assert a.evidences and _comparable(a) == _comparable(b)
    assert a.plan_id == b.plan_id
    # without an explicit clock the order is the same as well (recency runs on the current minute)
    assert evidence_ids(run(p)) == evidence_ids(run(p))
    assert run(plan(q("Neo4j 存储", "hybrid")), now=NOW).plan_id != a.plan_id


# ---------------------------------------------------------------------------------------- bad plans
@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"version": "0.1", "queries": []}, "plan.queries"),
        ({"version": "0.1"}, "plan.queries"),
        ({"version": "0.1", "queries": [{"text": "x", "mode": "telepathic"}]}, "plan.queries.0.mode"),
        ({"version": "0.1", "queries": [{"text": "   "}]}, "plan.queries.0.text"),
        (
            {"version": "0.1", "queries": [{"text": "x"}], "budget": {"per_mode_k": {"exact": -1}}},
            "plan.budget.per_mode_k",
        ),
        ({"version": "0.1", "queries": [{"text": "x"}], "budget": {"top_k": 0}}, "plan.budget.top_k"),
        (
            {
                "version": "0.1",
                "queries": [{"text": "x"}],
                "global_filters": {"time_range": {"from": "2026-02-01T00:00:00Z", "to": "2026-01-01T00:00:00Z"}},
            },
            "plan.global_filters.time_range",
        ),
        ({"queries": [{"text": "x"}]}, "plan.version"),
    ],
)
def test_bad_plans_are_rejected_with_the_field(run: Run, bad: dict[str, Any], field: str) -> None:
    with pytest.raises(PlanError) as err:
        run(bad)
    assert field in [e["field"] for e in err.value.errors], err.value.errors
