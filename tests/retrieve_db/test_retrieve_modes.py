"""Each mode against the real Neo4j: what it finds, what it must not find, in English and Chinese."""

from __future__ import annotations

import pytest
from seed_graph import NO_CAPS, Run, SeededGraph, evidence_ids, plan, q, seed_graph, stray_edges

from graphbrain import Brain
from graphbrain.contracts import EvidencePack


def test_exact_finds_the_words_and_nothing_else(g: SeededGraph, run: Run) -> None:
    found = evidence_ids(run(plan(q("Project Falcon", "exact"))))
    assert g.message("t1.0") in found and g.message("t1.1") in found
    assert g.memory("falcon") in found
    assert g.memory("dec_storage") not in found  # related, but it never says "Falcon"
    assert all(ev.provenance.mode.value == "exact" for ev in run(plan(q("Project Falcon", "exact"))).evidences)

    zh = run(plan(q("余弦相似度", "exact")))
    zh_ids = evidence_ids(zh)
    assert g.message("t3.0") in zh_ids and g.message("t3.1") in zh_ids
    # The walk in the park follows the cosine talk: its search text holds the message before it, so it
    # may match through that context, but never above both messages that say the words themselves.
    if g.message("t4.0") in zh_ids:
        assert zh_ids.index(g.message("t4.0")) > min(zh_ids.index(g.message("t3.0")), zh_ids.index(g.message("t3.1")))
    assert all("fts_score" in ev.signals.model_dump(exclude_none=True) for ev in zh.evidences)


def test_exact_escapes_lucene_syntax(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q('Neo4j AND (title:"x" OR heap*)~ [a TO z] \\ / ! ^', "exact")))
    assert g.memory("dec_storage") in evidence_ids(pack)  # the words still match
    assert run(plan(q("??? *** ~~~", "exact"))).evidences == []  # nothing to search for, no error


def test_exact_leaves_out_the_stop_words_lucene_does(g: SeededGraph, run: Run) -> None:
    # Neo4j's cjk analyzer drops "the", "in", "is", …; embedded leaves the same words out of its query.
    memory = {"scope": ["memory"]}
    assert run(plan(q("the in is of it", "exact"), global_filters=memory)).evidences == []
    with_stop_words = evidence_ids(run(plan(q("the schema in the graph", "exact"), global_filters=memory)))
    assert g.memory("task_schema") in with_stop_words
    assert with_stop_words == evidence_ids(run(plan(q("schema graph", "exact"), global_filters=memory)))


@pytest.mark.parametrize(
    ("question", "expansion"),
    [("Project Falcon kickoff", "kickoff for project Falcon"), ("向量索引的余弦相似度", "余弦相似度 向量索引")],
)
def test_an_expansion_with_the_questions_words_is_answered_by_its_search(
    g: SeededGraph, run: Run, monkeypatch: pytest.MonkeyPatch, question: str, expansion: str
) -> None:
    # Messages are searched by their analyzed terms: the same terms in another order are the same search,
    # run once per plan, and the expansion still finds what it finds alone.
    from graphbrain.retrieve import base

    searched: list[str] = []
    real = base._widening_search
    monkeypatch.setattr(base, "_widening_search", lambda tx, name, *a: searched.append(name) or real(tx, name, *a))
    turns = {"scope": ["turns"]}
    both = run(plan(q(question, "exact"), q(expansion, "associative"), global_filters=turns, budget=NO_CAPS))
    assert searched.count("retrieve/exact_turns") == 1
    alone = run(plan(q(expansion, "associative"), global_filters=turns, budget=NO_CAPS))
    assert both.stats.by_mode["associative"].candidates == alone.stats.by_mode["associative"].candidates > 0
    assert set(evidence_ids(alone)) <= set(evidence_ids(both))


def test_semantic_finds_meaning_across_languages(g: SeededGraph, run: Run) -> None:
    similarity = f"{g.documents['neo']}:s01-similarity:"
    pack = run(plan(q("向量索引的余弦相似度", "semantic", filters={"scope": ["resources"]})))
    # a Chinese question, an English section (one chunk of it: by_section defaults to 1)
    assert [e for e in evidence_ids(pack) if e.startswith(similarity)]
    assert f"{g.documents['bread']}:s00-loaf:0" not in evidence_ids(pack)
    assert all(ev.signals.vector_score is not None for ev in pack.evidences)

    bread = evidence_ids(run(plan(q("how do I bake bread?", "semantic"))))
    assert f"{g.documents['bread']}:s00-loaf:0" in bread
    assert not any(e.startswith(g.documents["ops"]) for e in bread)  # the floor keeps neighbours out


def test_hybrid_fuses_exact_and_semantic(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("Neo4j graph store", "hybrid"), ranking={"fusion": {"method": "rrf"}}))
    by_id = {ev.id: ev for ev in pack.evidences}
    both = by_id[g.message("t2.1")]  # "Recorded: Neo4j 5.26 is the graph store."
    signals = both.signals.model_dump(exclude_none=True)
    assert {"fts_rank", "vector_rank", "rrf_score"} <= set(signals)
    assert both.provenance.mode.value == "hybrid"
    assert pack.explain.fusion["method"] == "rrf" and pack.explain.fusion["rrf_k"] == 60
    assert pack.stats.by_mode["hybrid"].candidates >= len(pack.evidences)


def test_relational_reaches_a_decision_two_hops_away(g: SeededGraph, run: Run) -> None:
    decision = g.memory("dec_storage")
    for mode in ("exact", "semantic"):
        assert decision not in evidence_ids(run(plan(q("Project Falcon", mode)))), mode

    pack = run(plan(q("Project Falcon", "relational")))
    by_id = {ev.id: ev for ev in pack.evidences}
    assert decision in by_id
    assert by_id[decision].provenance.path == [
        "entity:project falcon",
        "RELATED_TO",
        "entity:neo4j",
        "MENTIONS",
        "decision:graphbrain:storage",
    ]
    assert by_id[decision].provenance.mode.value == "relational"
    assert by_id[decision].signals.graph_score is not None
    # the turn that names Falcon, reached through its message or its turn node
    assert (by_id[g.message("t1.1")].provenance.path or [])[-2:] == ["HAS_MESSAGE", "message:t-001/t-001:1"]
    assert g.memory("dec_storage_old") not in by_id  # superseded: filtered by the default status
    assert g.memory("falcon") not in by_id  # entities are the way, not the evidence
    assert g.memory("dec_embed") not in by_id and g.message("t4.0") not in by_id

    # The Chinese alias reaches the same decision through the entity_names full-text index.
    zh = run(plan(q("猎鹰项目", "relational")))
    assert decision in evidence_ids(zh)


def test_relational_hops_and_status(g: SeededGraph, run: Run) -> None:
    one_hop = run(plan(q("Project Falcon", "relational", hints={"hops": 1})))
    assert g.memory("dec_storage") not in evidence_ids(one_hop)
    assert g.message("t1.0") in evidence_ids(one_hop)

    history = run(
        plan(
            q("Project Falcon", "relational", hints={"hops": 3}),
            global_filters={"status": ["active", "superseded"], "scope": ["memory"]},
        )
    )
    by_id = {ev.id: ev for ev in history.evidences}
    assert (by_id[g.memory("dec_storage_old")].provenance.path or [])[-2:] == [
        "SUPERSEDES",
        "decision:graphbrain:storage",
    ]


def test_relational_seeds_from_keys_refs_and_hints(g: SeededGraph, run: Run) -> None:
    by_key = {ev.id: ev for ev in run(plan(q("where is task:graphbrain:schema at?", "relational"))).evidences}
    assert by_key[g.memory("task_schema")].provenance.path == ["task:graphbrain:schema"]  # the seed itself
    assert g.memory("dec_storage") in by_key  # task -MENTIONS- neo4j -MENTIONS- decision

    url = "see https://neo4j.com/docs/cypher-manual/current/indexes/ again"
    by_ref = {ev.id: ev for ev in run(plan(q(url, "relational"))).evidences}
    assert by_ref[g.memory("dec_storage")].provenance.path == [
        "ref:https://neo4j.com/docs/cypher-manual/current/indexes",
        "REFERENCES",
        "turn:sess-1/t-002",
        "DERIVED_FROM",
        "decision:graphbrain:storage",
    ]

    hinted = run(plan(q("and what did it lead to?", "relational", hints={"entities": ["Project Falcon"]})))
    assert g.memory("dec_storage") in evidence_ids(hinted)
    assert "queries[0].hints.entities" not in hinted.explain.ignored_fields


def test_relational_without_a_named_thing_warns(g: SeededGraph, run: Run) -> None:
    pack = run(plan(q("今天的午饭吃什么", "relational")))
    assert pack.evidences == []
    assert any("relational" in w and "nothing to traverse" in w for w in pack.warnings)


def test_associative_expansions_weigh_less(g: SeededGraph, run: Run) -> None:
    pack = run(
        plan(
            q("page cache hit ratio", "exact", filters={"scope": ["resources"]}),
            q("garbage collection pauses", "associative", filters={"scope": ["resources"]}),
            ranking={"fusion": {"method": "rrf", "weights": {}}, "rerank": {"enabled": False}, "tie_breaker": "none"},
            debug={"trace": True},
        )
    )
    by_id = {ev.id: ev for ev in pack.evidences}
    ops = g.documents["ops"]
    cache, heap = by_id[f"{ops}:s01-cache:1"], by_id[f"{ops}:s02-heap:2"]
    assert cache.provenance.mode.value == "exact" and heap.provenance.mode.value == "associative"
    assert heap.provenance.query_index == 1 and heap.provenance.query_text == "garbage collection pauses"
    # the expansion ran as exact + semantic, each occurrence weighed 0.8 (max_weight: weight left out)
    hits = heap.metadata.model_dump()["hits"]
    assert {h["mode"] for h in hits} == {"associative"} and len(hits) == 2
    for h in hits:
        assert h["contribution"] == pytest.approx(0.8 / (60 + h["rank"]))
    assert heap.signals.rrf_score == pytest.approx(sum(h["contribution"] for h in hits))
    assert cache.signals.rrf_score == pytest.approx(1.0 / 61)  # the original query: weight 1.0


def test_another_namespace_is_never_returned_or_traversed(brain: Brain, g: SeededGraph, run: Run) -> None:
    other_ns = brain.namespace + "-other"
    other = seed_graph(brain, other_ns, variant="other")
    stray_edges(brain, g, other)  # other.decision -MENTIONS-> main.neo4j, main.falcon -RELATED_TO-> other.neo4j
    other_ids = set(other.ids.values()) | set(other.documents.values())

    def leaks(pack: EvidencePack) -> list[str]:
        return [ev.id for ev in pack.evidences if any(o in ev.id for o in other_ids)]

    for mode in ("exact", "semantic", "hybrid", "relational", "associative"):
        for text in ("Project Falcon", "MongoDB knowledge graph", "Neo4j vector indexes", "猎鹰项目"):
            pack = run(plan(q(text, mode, hints={"hops": 4} if mode == "relational" else {})))
            assert leaks(pack) == [], (mode, text)
            for ev in pack.evidences:
                assert "mongodb" not in ev.snippet.lower()

    # ... and the other tenant sees its own decision, not ours
    theirs = run(plan(q("Project Falcon", "relational")), namespace=other_ns)
    assert f"memory:{other.ids['dec_storage']}" in evidence_ids(theirs)
    assert g.memory("dec_storage") not in evidence_ids(theirs)
