"""commit_turn against the real Neo4j, in English and Chinese (issue 3's "done when" list)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from helpers import turn

from graphbrain import Brain
from graphbrain.errors import InputError


def count(brain: Brain, cypher: str, **params: Any) -> int:
    rows = brain.store.cypher(cypher, {"ns": brain.namespace, **params}).rows
    return int(next(iter(rows[0].values()))) if rows else 0


def active(brain: Brain, key: str) -> list[dict[str, Any]]:
    return brain.store.cypher(
        "MATCH (m:Memory {namespace: $ns, key: $key}) RETURN m.status AS status, m.value_json AS v, m.id AS id "
        "ORDER BY m.created_at",
        {"ns": brain.namespace, "key": key},
    ).rows


def test_eventstore_records_everything_verbatim(brain: Brain) -> None:
    ev = {
        "turn_id": "t-0042",
        "messages": [
            {"message_id": "m1", "role": "user", "content": "Let's go with Neo4j 5.26 for the memory store."},
            {
                "message_id": "m2",
                "role": "assistant",
                "content": "Noted. Checking the docs.",
                "tool_calls": [{"id": "c1", "name": "web_search", "args": {"q": "neo4j 5.26 vector index"}}],
            },
            {
                "message_id": "m3",
                "role": "tool",
                "tool_call_id": "c1",
                "status": "ok",
                "content": "Neo4j 5.26 supports vector indexes …",
                "result": {"hits": 3},
            },
        ],
        "refs": [
            {
                "type": "url",
                "uri": "https://neo4j.com/docs/cypher-manual/current/indexes/",
                "title": "Indexes",
            }
        ],
    }
    r = brain.commit_turn("s1", ev)
    assert r.ok and r.status == "committed" and r.seq == 1 and r.turn_id == "t-0042"
    rows = brain.store.cypher(
        "MATCH (:Session {session_id: 's1', namespace: $ns})-[:HAS_TURN]->(t:Turn)-[:HAS_MESSAGE]->(m:Message) "
        "RETURN m.message_id AS id, m.role AS role, m.content AS content ORDER BY m.position",
        {"ns": brain.namespace},
    ).rows
    assert [(x["id"], x["role"]) for x in rows] == [("m1", "user"), ("m2", "assistant"), ("m3", "tool")]
    assert rows[2]["content"] == "Neo4j 5.26 supports vector indexes …"
    call = brain.store.cypher(
        "MATCH (:Message {message_id: 'm2', namespace: $ns})-[:CALLED]->(c:ToolCall)-[:RETURNED]->(r:Message) "
        "RETURN c.name AS name, c.args_json AS args, c.status AS status, r.message_id AS result",
        {"ns": brain.namespace},
    ).rows
    assert call == [{"name": "web_search", "args": '{"q": "neo4j 5.26 vector index"}', "status": "ok", "result": "m3"}]
    assert count(brain, "MATCH (:Turn {namespace: $ns})-[:REFERENCES]->(r:Ref {type: 'url'}) RETURN count(r)") == 1


def test_chit_chat_writes_events_only(brain: Brain) -> None:
    for i, text in enumerate(["hi there, thanks!", "哈哈好的，谢谢", "ugh I'm so tired today lol"]):
        r = brain.commit_turn("chat", turn(f"c{i}", text, "You're welcome!"))
        assert r.memory_written == []
        assert any(not d.kept for d in r.explain.retention)
    assert count(brain, "MATCH (m:Memory {namespace: $ns}) RETURN count(m)") == 0
    assert count(brain, "MATCH (t:Turn {namespace: $ns}) RETURN count(t)") == 3


@pytest.mark.parametrize(
    "text",
    ["We decided to use Neo4j for the memory store.", "我们决定用 Neo4j 做记忆存储。"],
)
def test_decision_with_provenance(brain: Brain, text: str) -> None:
    r = brain.commit_turn("s1", turn("t1", text))
    decisions = [w for w in r.memory_written if w.type.value == "decisions"]
    assert len(decisions) == 1 and decisions[0].confidence >= 0.8
    prov = brain.store.cypher(
        "MATCH (m:Memory:Decision {namespace: $ns}) "
        "MATCH (m)-[:DERIVED_FROM]->(t:Turn) MATCH (m)-[:DERIVED_FROM]->(msg:Message) "
        "RETURN m.source_turn_id AS turn, m.source_message_id AS msg, t.turn_id AS t, msg.message_id AS mm, "
        "m.text AS text",
        {"ns": brain.namespace},
    ).rows
    assert prov and prov[0]["turn"] == prov[0]["t"] == "t1" and prov[0]["msg"] == prov[0]["mm"] == "t1-u"
    assert prov[0]["text"].startswith("[decisions:decision:")


def test_every_memory_item_has_provenance(brain: Brain) -> None:
    brain.commit_turn("s1", turn("t1", "TODO: write the schema. I prefer tabs over spaces. We decided to use RRF."))
    brain.commit_turn("s1", turn("t2", "待办：整理检索设计文档。我们决定用混合检索。"))
    missing = count(
        brain,
        "MATCH (m:Memory {namespace: $ns}) WHERE NOT m:Entity AND NOT (m)-[:DERIVED_FROM]->(:Turn) RETURN count(m)",
    )
    total = count(brain, "MATCH (m:Memory {namespace: $ns}) WHERE NOT m:Entity RETURN count(m)")
    assert total >= 4 and missing == 0
    assert count(brain, "MATCH (m:Memory {namespace: $ns}) WHERE m.source_turn_id IS NULL RETURN count(m)") == 0


def _task_states(brain: Brain) -> list[tuple[str, str]]:
    rows = brain.store.cypher(
        "MATCH (m:Memory:Task {namespace: $ns}) RETURN m.status AS status, m.value_json AS v ORDER BY m.created_at",
        {"ns": brain.namespace},
    ).rows
    import json

    return [(r["status"], json.loads(r["v"])["status"]) for r in rows]


def test_task_lifecycle_english(brain: Brain) -> None:
    brain.commit_turn("s1", turn("t1", "TODO: migrate the vector index to 512 dimensions."))
    brain.commit_turn("s1", turn("t2", "I'm working on migrating the vector index now."))
    brain.commit_turn("s1", turn("t3", "Blocked on the vector index migration: Neo4j needs a restart."))
    brain.commit_turn("s1", turn("t4", "Done with the vector index migration."))
    states = _task_states(brain)
    assert [s[1] for s in states] == ["todo", "doing", "blocked", "done"]
    assert [s[0] for s in states] == ["superseded", "superseded", "superseded", "active"]
    # one key, one active item, and the history is a SUPERSEDES chain
    keys = brain.store.cypher(
        "MATCH (m:Memory:Task {namespace: $ns}) RETURN DISTINCT m.key AS k", {"ns": brain.namespace}
    ).rows
    assert len(keys) == 1
    assert (
        count(
            brain,
            "MATCH p=(:Task {status: 'active', namespace: $ns})-[:SUPERSEDES*3]->(:Task) RETURN count(p)",
        )
        == 1
    )


def test_task_lifecycle_chinese(brain: Brain) -> None:
    brain.commit_turn("s1", turn("t1", "待办：整理检索设计文档"))
    brain.commit_turn("s1", turn("t2", "开始做整理检索设计文档"))
    brain.commit_turn("s1", turn("t3", "整理检索设计文档已完成"))
    assert [s[1] for s in _task_states(brain)] == ["todo", "doing", "done"]
    assert _task_states(brain)[-1][0] == "active"


def test_preference_overwritten_history_queryable(brain: Brain) -> None:
    r1 = brain.commit_turn("s1", turn("t1", "I prefer tabs for indentation."))
    key = next(w.key for w in r1.memory_written if w.type.value == "preferences")
    r2 = brain.commit_turn("s1", turn("t2", "From now on I prefer spaces for indentation."))
    assert any(c.key == key and c.action in ("superseded", "retracted") for c in r2.explain.conflicts)
    hist = active(brain, key)
    assert [h["status"] for h in hist][-1] == "active"
    assert [h["status"] for h in hist].count("active") == 1
    assert "spaces" in hist[-1]["v"] and "tabs" in hist[0]["v"]


def test_preference_chinese(brain: Brain) -> None:
    r = brain.commit_turn("s1", turn("t1", "以后都按中文回复我"))
    assert [w.type.value for w in r.memory_written if w.type.value == "preferences"]


@pytest.mark.parametrize(
    ("first", "correction"),
    [
        (
            "We decided to use Postgres for the memory store.",
            "No, that's wrong — we use Neo4j for the memory store.",
        ),
        ("我们决定用 Postgres 做记忆存储。", "不对，其实是用 Neo4j 做记忆存储。"),
    ],
)
def test_retraction(brain: Brain, first: str, correction: str) -> None:
    brain.commit_turn("s1", turn("t1", first))
    r = brain.commit_turn("s1", turn("t2", correction))
    assert any(c.action == "retracted" for c in r.explain.conflicts)
    statuses = brain.store.cypher(
        "MATCH (m:Memory:Decision {namespace: $ns}) RETURN m.status AS s, m.value_json AS v ORDER BY m.created_at",
        {"ns": brain.namespace},
    ).rows
    assert statuses[0]["s"] == "retracted" and "Postgres" in statuses[0]["v"]
    assert statuses[-1]["s"] == "active" and "Neo4j" in statuses[-1]["v"]
    assert count(brain, "MATCH (:Memory {namespace: $ns})-[r:RETRACTS]->(:Memory) RETURN count(r)") == 1


def test_entity_passes_gate_on_second_mention(brain: Brain) -> None:
    r1 = brain.commit_turn("s1", turn("t1", "Have you heard of Kubernetes operators?"))
    ents = {e["name"]: e for e in r1.explain.entities}
    assert "Kubernetes" in ents and not ents["Kubernetes"]["passed"]
    # Held back by the gate: in the graph as a candidate (for the walk), never as an entity memory item.
    assert (
        count(
            brain, "MATCH (e:Entity {namespace: $ns, name: 'Kubernetes'}) WHERE e.status <> 'candidate' RETURN count(e)"
        )
        == 0
    )
    r2 = brain.commit_turn("s1", turn("t2", "I think Kubernetes is too heavy for our setup."))
    ents = {e["name"]: e for e in r2.explain.entities}
    assert ents["Kubernetes"]["passed"]
    assert (
        count(
            brain,
            "MATCH (:Turn {namespace: $ns})-[:MENTIONS]->(e:Entity {name: 'Kubernetes'}) RETURN count(e)",
        )
        == 2  # the first turn's mention was kept with the candidate, and the entity now has both
    )
    assert (
        count(brain, "MATCH (e:Entity {namespace: $ns, name: 'Kubernetes'}) WHERE e.status = 'active' RETURN count(e)")
        == 1
    )


def test_structural_entity_passes_first_time_and_url_ref_always_stored(brain: Brain) -> None:
    r = brain.commit_turn(
        "s1", turn("t1", "hi!", refs=[{"type": "url", "uri": "https://Example.com/Design/?utm_source=x#top"}])
    )
    assert r.memory_written == []
    refs = brain.store.cypher("MATCH (r:Ref {namespace: $ns}) RETURN r.uri AS uri", {"ns": brain.namespace}).rows
    assert refs == [{"uri": "https://example.com/Design"}]
    r2 = brain.commit_turn("s2", turn("t1", "Let's look at the repo acme/graphbrain today."))
    assert any(e["passed"] and e["name"] == "acme/graphbrain" for e in r2.explain.entities)


def test_summary_triggered_at_configured_turn(brain_factory: Any) -> None:
    brain = brain_factory(**{"policies.retention.summarize_after_turns": 3})
    results = [
        brain.commit_turn("s1", turn(f"t{i}", f"just chatting about the weather, part {i}")) for i in range(1, 5)
    ]
    assert [r.summary.triggered for r in results] == [False, False, True, False]
    assert results[2].summary.source_turn_range == [1, 3] and results[2].summary.version == 1
    rows = brain.store.cypher(
        "MATCH (:Session {namespace: $ns})-[:HAS_SUMMARY]->(s:Summary) RETURN s.text AS text, "
        "s.summary_source_turn_range AS r, s.summary_generated_at AS at",
        {"ns": brain.namespace},
    ).rows
    assert len(rows) == 1 and rows[0]["r"] == [1, 3] and rows[0]["at"] is not None
    for section in ("Goals:", "Decisions:", "Tasks:", "Key References:", "Open Questions:"):
        assert section in rows[0]["text"]


def test_summary_triggered_by_stage_event(brain: Brain) -> None:
    r = brain.commit_turn("s1", turn("t1", "We decided to ship the Neo4j backend first."))
    assert r.summary.triggered and r.summary.reason and r.summary.reason.startswith("stage_event")
    text = brain.store.cypher("MATCH (s:Summary {namespace: $ns}) RETURN s.text AS t", {"ns": brain.namespace}).rows[0][
        "t"
    ]
    assert "Neo4j" in text.split("Tasks:")[0]


def test_replay_is_a_noop(brain: Brain) -> None:
    ev = turn("t1", "TODO: write the schema. We decided to use RRF.")
    first = brain.commit_turn("s1", ev)
    snapshot = count(brain, "MATCH (n {namespace: $ns}) RETURN count(n)")
    rels = count(brain, "MATCH ({namespace: $ns})-[r]->() RETURN count(r)")
    again = brain.commit_turn("s1", ev)
    assert again.status == "duplicate" and again.commit_id == first.commit_id and again.memory_written == []
    assert count(brain, "MATCH (n {namespace: $ns}) RETURN count(n)") == snapshot
    assert count(brain, "MATCH ({namespace: $ns})-[r]->() RETURN count(r)") == rels


def test_failure_mid_commit_leaves_nothing(brain: Brain, monkeypatch: pytest.MonkeyPatch) -> None:
    from graphbrain.commit import pipeline

    def boom(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("injected failure after the turn and memory writes")

    monkeypatch.setattr(pipeline.CommitPipeline, "_summary", boom)
    with pytest.raises(RuntimeError, match="injected"):
        brain.commit_turn("s1", turn("t1", "We decided to use Neo4j. TODO: write the schema."))
    assert count(brain, "MATCH (n {namespace: $ns}) RETURN count(n)") == 0
    monkeypatch.undo()
    r = brain.commit_turn("s1", turn("t1", "We decided to use Neo4j. TODO: write the schema."))
    assert r.status == "committed" and r.seq == 1


def test_bad_input_names_the_field(brain: Brain) -> None:
    with pytest.raises(InputError, match=r"turn_events\.messages\.0\.role"):
        brain.commit_turn("s1", {"messages": [{"role": "robot", "content": "x"}]})
    with pytest.raises(InputError, match="messages"):
        brain.commit_turn("s1", {"messages": []})
    with pytest.raises(InputError, match="session_id"):
        brain.commit_turn("", turn("t1", "x"))
    assert count(brain, "MATCH (n {namespace: $ns}) RETURN count(n)") == 0


def test_explicit_tool_item(brain: Brain) -> None:
    ev = turn(
        "t1",
        "ok",
        items=[
            {
                "type": "tasks",
                "key": "task:graphbrain:schema",
                "source": "tool",
                "value": {"title": "Create the schema", "status": "doing"},
            }
        ],
    )
    r = brain.commit_turn("s1", ev)
    w = [x for x in r.memory_written if x.key == "task:graphbrain:schema"]
    assert w and w[0].confidence >= 0.9


def test_concurrent_commits_same_session_and_key(brain: Brain) -> None:
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            brain.commit_turn(
                "s1", turn(f"t{i}", f"I prefer {'tabs' if i % 2 else 'spaces'} for indentation. note {i}")
            )
        except BaseException as e:  # collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    seqs = [
        r["seq"]
        for r in brain.store.cypher(
            "MATCH (t:Turn {namespace: $ns, session_id: 's1'}) RETURN t.seq AS seq ORDER BY seq",
            {"ns": brain.namespace},
        ).rows
    ]
    assert seqs == list(range(1, 7))
    assert count(brain, "MATCH (m:Memory:Preference {namespace: $ns, status: 'active'}) RETURN count(m)") == 1
    assert (
        count(brain, "MATCH (a:Turn {namespace: $ns})-[:NEXT]->(b:Turn) WHERE b.seq = a.seq + 1 RETURN count(*)") == 5
    )


def test_local_file_ref_becomes_a_resource(brain: Brain, tmp_path: Any) -> None:
    doc = tmp_path / "design.md"
    doc.write_text("# Storage\n\nWe store memory in Neo4j 5.26 with a cjk full-text index.\n", encoding="utf-8")
    r = brain.commit_turn(
        "s1",
        turn(
            "t1",
            "Here is the design doc.",
            refs=[
                {"type": "file", "uri": str(doc), "title": "design"},
                {"type": "url", "uri": "https://example.com/elsewhere"},
            ],
        ),
    )
    by_type = {o["type"]: o for o in r.explain.refs}
    assert by_type["file"]["ingested"] and by_type["file"]["document_id"]
    assert not by_type["url"]["ingested"] and by_type["url"]["reason"]
    linked = brain.store.cypher(
        "MATCH (:Turn {namespace: $ns})-[:REFERENCES]->(r:Ref)-[:INGESTED_AS]->(d:Document) RETURN d.title AS t",
        {"ns": brain.namespace},
    ).rows
    assert len(linked) == 1
