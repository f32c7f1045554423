"""Filters narrow results on the sides that can honour them, and the pack says which took effect."""

from __future__ import annotations

from seed_graph import Run, SeededGraph, evidence_ids, plan, q

from graphbrain.contracts import EvidencePack


def docs_of(pack: EvidencePack) -> set[str | None]:
    return {ev.document_id for ev in pack.evidences}


def sides_of(pack: EvidencePack) -> set[str]:
    return {ev.id.split(":", 1)[0] if ev.id.startswith(("memory:", "turn:")) else "resource" for ev in pack.evidences}


def test_no_filter_baseline(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("Neo4j", "exact")))
    assert sides_of(pack) == {"memory", "turn", "resource"}
    assert {g.documents["ops"], g.documents["neo"]} <= docs_of(pack)
    assert pack.explain.filters_applied["status"] == {
        "sides": ["memory"],
        "queries": [0],
        "value": ["active"],
        "default": True,
    }
    assert pack.explain.filters_applied["namespace"] == {"value": g.namespace}


def test_tag_filter_restricts_to_tagged_documents(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("Neo4j", "exact"), global_filters={"tag_ids": ["operations"]}))
    assert docs_of(pack) == {g.documents["ops"]}
    assert sides_of(pack) == {"resource"}  # a resource-only filter skips memory and turns
    applied = pack.explain.filters_applied
    assert applied["tag_ids"]["sides"] == ["resources"] and applied["tag_ids"]["value"] == ["operations"]
    assert applied["scope"]["implied"]["implied_by"] == {"0": ["tag_ids"]}
    assert "status" not in applied  # the memory side never ran


def test_topic_document_and_uri_prefix_filters(g: SeededGraph, run: Run) -> None:
    topic = run(plan(q("Neo4j", "exact"), global_filters={"topic_ids": ["search"]}))
    assert docs_of(topic) == {g.documents["neo"]}

    unfiltered = run(plan(q("检索 PageRank", "hybrid")))
    assert len(docs_of(unfiltered) - {None}) > 1
    doc = run(plan(q("检索 PageRank", "hybrid"), global_filters={"document_ids": [g.documents["design"]]}))
    assert docs_of(doc) == {g.documents["design"]}

    prefix = run(plan(q("Neo4j", "exact"), global_filters={"source_uri_prefix": ["file:///work/"]}))
    assert docs_of(prefix) == {g.documents["ops"]}
    assert all(ev.source_uri.startswith("file:///work/") for ev in prefix.evidences)

    kind = run(plan(q("Neo4j", "exact"), global_filters={"source_type": ["url"]}))
    assert {ev.source_type for ev in kind.evidences} == {"url"}


def test_query_filters_override_global_ones(g: SeededGraph, run: Run) -> None:
    pack = run(
        plan(
            q("Neo4j", "exact", filters={"tag_ids": ["database"]}),
            global_filters={"tag_ids": ["operations"]},
        )
    )
    assert docs_of(pack) == {g.documents["neo"]}


def test_time_range_on_every_side(g: SeededGraph, run: Run) -> None:
    window = {"from": "2026-01-13T00:00:00Z", "to": "2026-01-31T00:00:00Z"}
    pack = run(plan(q("Neo4j", "exact"), global_filters={"time_range": window}))
    ids = evidence_ids(pack)
    assert g.memory("task_schema") in ids  # updated 2026-01-15
    assert g.memory("dec_storage") not in ids  # updated 2026-01-12
    assert g.message("t2.0") not in ids  # said 2026-01-12
    assert docs_of(pack) - {None} == {g.documents["ops"]}  # updated 2026-01-25; the guide 2026-01-05
    applied = pack.explain.filters_applied["time_range"]
    assert applied["sides"] == ["memory", "resources", "turns"]
    assert applied["value"] == {"from": "2026-01-13T00:00:00Z", "to": "2026-01-31T00:00:00Z"}


def test_memory_types_and_status(g: SeededGraph, run: Run) -> None:
    decisions = run(plan(q("Neo4j knowledge graph", "hybrid"), global_filters={"types": ["decisions"]}))
    assert evidence_ids(decisions) == [g.memory("dec_storage")]  # no task, no turns, no chunks

    old = run(plan(q("knowledge graph", "exact"), global_filters={"status": ["superseded"]}))
    assert evidence_ids(old) == [g.memory("dec_storage_old")]
    assert old.evidences[0].metadata.model_dump()["status"] == "superseded"

    both = run(plan(q("knowledge graph", "exact", filters={"status": ["active", "superseded"]})))
    assert {g.memory("dec_storage"), g.memory("dec_storage_old")} <= set(evidence_ids(both))
    assert both.explain.filters_applied["status"]["value"] == ["active", "superseded"]
    assert "default" not in both.explain.filters_applied["status"]


def test_session_filter(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("向量索引 余弦相似度", "hybrid"), global_filters={"session_ids": ["sess-2"]}))
    assert pack.evidences
    assert sides_of(pack) <= {"memory", "turn"}
    assert {ev.ref["session_id"] for ev in pack.evidences} == {"sess-2"}


def test_language_filter_and_the_side_that_cannot_honour_it(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("512", "exact"), global_filters={"language": ["zh"]}))
    ids = evidence_ids(pack)
    assert g.message("t3.1") in ids  # "…维度是 512。" (zh)
    assert {ev.language for ev in pack.evidences if not ev.id.startswith("memory:")} <= {"zh", "mixed"}
    # memory items carry no language: searched unfiltered, and said so
    assert g.memory("dec_embed") in ids
    assert "global_filters.language (memory: memory items carry no language)" in pack.explain.ignored_fields
    assert pack.explain.filters_applied["language"]["sides"] == ["resources", "turns"]

    en = run(plan(q("Neo4j", "exact"), global_filters={"language": ["en"], "scope": ["turns", "resources"]}))
    assert all(ev.language in ("en", "mixed") for ev in en.evidences)


def test_scope_and_filters_a_scoped_side_cannot_honour(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("Neo4j", "exact"), global_filters={"scope": ["memory"], "tag_ids": ["operations"]}))
    assert sides_of(pack) == {"memory"}
    assert "global_filters.tag_ids (memory: applies to resources only)" in pack.explain.ignored_fields
    assert "tag_ids" not in pack.explain.filters_applied  # it never took effect
    assert pack.explain.filters_applied["scope"]["value"] == ["memory"]

    turns = run(plan(q("Neo4j", "exact", filters={"scope": ["turns"]})))
    assert sides_of(turns) == {"turn"}


def test_filters_that_share_no_side_warn(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("Neo4j", "exact"), global_filters={"types": ["decisions"], "tag_ids": ["neo4j"]}))
    assert pack.evidences == []
    assert any("apply to no common side" in w for w in pack.warnings)


def test_unknown_fields_hints_and_namespace_are_named(g: SeededGraph, run: Run) -> None:
    pack = run(
        plan(
            q("Neo4j", "semantic", hints={"min_similarity": 0.1, "colour": "blue"}, boost=2),
            global_filters={"flavour": "mint", "time_range": {"from": "2020-01-01T00:00:00Z", "field": "x"}},
            budget={"spare": 1},
            purpose="qa",
            namespace="somebody-else",
            extra_top=True,
        )
    )
    ignored = pack.explain.ignored_fields
    for name in (
        "extra_top",
        "queries[0].boost",
        "queries[0].hints.colour",
        "global_filters.flavour",
        "global_filters.time_range.field",
        "budget.spare",
        "namespace",
    ):
        assert name in ignored, name
    assert "queries[0].hints.min_similarity" not in ignored  # honoured
    assert any(f.startswith("purpose") for f in ignored)
    assert any("somebody-else" in w for w in pack.warnings)
    assert pack.evidences
    assert pack.explain.filters_applied["namespace"]["value"] == g.namespace
