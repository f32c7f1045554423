"""memory list / show / forget against the real Neo4j; forget must leave nothing behind."""

from __future__ import annotations

import uuid

import pytest
from admin_world import (
    S1_WORD,
    S2_WORD,
    SHARED_URL,
    build_world,
    fulltext_hits,
    one,
    q,
    snapshot,
    turn,
    vector_hits,
    write_context_trace,
)

from graphbrain import Brain
from graphbrain.admin import NotFoundError
from graphbrain.errors import InputError

TASK_PREFIX = "task:general:migrate"
PREF_KEY = "pref:coding:indentation"


def other_ns() -> str:
    return f"o{uuid.uuid4().hex[:10]}"


# ------------------------------------------------------------------------------------------------ list
def test_list_filters(brain: Brain) -> None:
    build_world(brain)
    active = brain.list_memory(limit=1000)
    assert active and all(i["status"] == "active" for i in active)
    assert all("value" in i and "value_json" not in i and "embedding" not in i for i in active)
    every = brain.list_memory(status="all", limit=1000)
    assert len(every) > len(active)
    assert {i["status"] for i in every} >= {"active", "superseded"}

    tasks = brain.list_memory(types=["tasks"], status="all")
    assert tasks and {i["type"] for i in tasks} == {"tasks"}
    assert brain.list_memory(types="task", status="all") == tasks  # the key prefix names the type too

    migrate = brain.list_memory(key_prefix=TASK_PREFIX, status="all")
    assert len(migrate) == 2 and {i["value"]["status"] for i in migrate} == {"todo", "done"}

    s2 = brain.list_memory(session_id="s2", status="all", types=["tasks", "preferences"])
    assert {i["key"].split(":")[0] for i in s2} == {"task", "pref"}
    assert all(i["session_id"] == "s2" for i in s2)
    assert any(S2_WORD in i["text"] for i in s2)

    page1 = brain.list_memory(status="all", limit=2)
    page2 = brain.list_memory(status="all", limit=2, offset=2)
    assert len(page1) == 2 and not {i["id"] for i in page1} & {i["id"] for i in page2}

    with pytest.raises(InputError, match="status"):
        brain.list_memory(status="gone")
    with pytest.raises(InputError, match="unknown memory type"):
        brain.list_memory(types=["secrets"])
    with pytest.raises(InputError, match="limit"):
        brain.list_memory(limit=0)


def test_list_is_namespace_sealed(brain: Brain) -> None:
    build_world(brain, other_ns())
    assert brain.list_memory(status="all") == []


# ------------------------------------------------------------------------------------------------ show
def test_show_history_and_provenance(brain: Brain) -> None:
    build_world(brain)
    view = brain.show_memory(PREF_KEY)
    item = view["item"]
    assert item["status"] == "active" and "spaces" in item["value"]["value"]
    hist = view["history"]
    assert [h["status"] for h in hist][-1] == "active" and len(hist) == 2
    old, new = hist
    assert "tabs" in old["value"]["value"] and old["session_id"] == "s2" and old["status"] != "active"
    assert new["replaces"] and new["replaces"][0]["id"] == old["id"]
    assert new["replaces"][0]["type"] in ("SUPERSEDES", "RETRACTS")
    assert old["replaced_by"][0]["id"] == new["id"] and old["created_at"] <= new["created_at"]
    assert view["provenance"]["turns"][0]["turn_id"] == "t3"
    msg = view["provenance"]["messages"][0]
    assert msg["message_id"] == "t3-u" and "spaces" in msg["content"]

    # the superseded version by id shows the same history
    by_id = brain.show_memory(old["id"])
    assert by_id["item"]["id"] == old["id"] and [h["id"] for h in by_id["history"]] == [old["id"], new["id"]]
    assert by_id["provenance"]["messages"][0]["content"] == "I prefer tabs for indentation."


def test_show_mentions_and_entity_provenance(brain: Brain) -> None:
    build_world(brain)
    task = next(i for i in brain.list_memory(types=["tasks"]) if S2_WORD in i["text"])
    view = brain.show_memory(task["key"])
    assert [m["name"] for m in view["mentions"]] == ["Neo4j"]
    ent = brain.show_memory("entity:repo:acme/graphbrain")
    assert ent["item"]["type"] == "entities" and ent["provenance"]["turns"][0]["turn_id"] == "t1"


def test_show_not_found_and_sealed(brain: Brain) -> None:
    build_world(brain, other_ns())
    with pytest.raises(NotFoundError):
        brain.show_memory(PREF_KEY)
    with pytest.raises(InputError):
        brain.show_memory("")


# ------------------------------------------------------------------------------------------------ forget a session
def test_forget_session_leaves_nothing(brain: Brain) -> None:
    ns, other = brain.namespace, other_ns()
    build_world(brain)
    build_world(brain, other)
    write_context_trace(brain, ns, "s1", "ctx-s1")
    write_context_trace(brain, ns, "s2", "ctx-s2")
    before_other = snapshot(brain, other)
    s1_vector = one(
        brain,
        "MATCH (m:Message {namespace: $ns, message_id: 't1-u'}) RETURN m.embedding",
        ns=ns,
    )
    assert s1_vector and fulltext_hits(brain, "message_search", S1_WORD, ns) > 0

    out = brain.forget(session_id="s1")
    assert out["found"] and out["target"] == {"session_id": "s1"}
    d = out["deleted"]
    assert d["turns"] == 4 and d["sessions"] == 1 and d["tool_calls"] == 1 and d["refs"] == 1
    assert d["context_traces"] == 1 and d["commit_traces"] == 4 and d["memory"] >= 3
    assert out["restored"] == 1  # s2's "tabs" is the preference again

    # nothing of s1 is left, by any label
    assert one(brain, "MATCH (n) WHERE n.namespace = $ns AND n.session_id = 's1' RETURN count(n)", ns=ns) == 0
    assert one(brain, "MATCH (n:ToolCall {namespace: $ns}) RETURN count(n)", ns=ns) == 0
    assert q(brain, "MATCH (r:Ref {namespace: $ns}) RETURN r.uri AS uri", ns=ns) == [{"uri": SHARED_URL}]
    assert (
        one(
            brain,
            "MATCH (m:Memory) WHERE m.namespace = $ns AND m.source_session_id = 's1' RETURN count(m)",
            ns=ns,
        )
        == 0
    )
    keys = {r["k"] for r in q(brain, "MATCH (l:MemoryKey {namespace: $ns}) RETURN l.key AS k", ns=ns)}
    assert not any(k.startswith(TASK_PREFIX) or k.startswith("decision:") for k in keys)
    entities = {r["n"] for r in q(brain, "MATCH (e:Entity {namespace: $ns}) RETURN e.canonical AS n", ns=ns)}
    assert "acme/graphbrain" not in entities and not any("only-s1" in e for e in entities)
    assert "neo4j" in entities and any("shared" in e for e in entities)
    # and none of its index entries
    assert fulltext_hits(brain, "message_search", S1_WORD, ns) == 0
    assert fulltext_hits(brain, "memory_text", "migrate", ns) == 0
    assert fulltext_hits(brain, "entity_names", "graphbrain", ns) == 0
    hits = vector_hits(brain, "message_embedding", s1_vector, ns)
    assert hits and all(h["session_id"] != "s1" for h in hits)
    twin = vector_hits(brain, "message_embedding", s1_vector, other, k=5)
    assert twin[0]["session_id"] == "s1" and twin[0]["score"] > 0.99  # the index still finds the twin

    # s2 is whole, and reads as if s1 had never happened
    assert one(brain, "MATCH (t:Turn {namespace: $ns, session_id: 's2'}) RETURN count(t)", ns=ns) == 2
    pref = brain.list_memory(key_prefix=PREF_KEY)
    assert len(pref) == 1 and "tabs" in pref[0]["value"]["value"]
    assert any(S2_WORD in i["text"] for i in brain.list_memory(types=["tasks"]))
    assert brain.get_context_trace("ctx-s2") is not None and brain.get_context_trace("ctx-s1") is None
    neo = q(
        brain,
        "MATCH (e:Entity {namespace: $ns, canonical: 'neo4j'}) RETURN e.source_session_id AS s, e.source_turn_id AS t",
        ns=ns,
    )
    assert neo == [{"s": "s2", "t": "u2"}]  # provenance re-pointed at what is left

    # the other namespace, holding the same sessions, is untouched
    assert snapshot(brain, other) == before_other
    # forgetting again finds nothing
    again = brain.forget(session_id="s1")
    assert not again["found"] and again["total"] == 0


# ------------------------------------------------------------------------------------------------ forget an item
def test_forget_item_takes_every_version(brain: Brain) -> None:
    ns, other = brain.namespace, other_ns()
    build_world(brain)
    build_world(brain, other)
    before_other = snapshot(brain, other)
    versions = brain.list_memory(key_prefix=TASK_PREFIX, status="all")
    key = versions[0]["key"]
    old = next(v for v in versions if v["status"] == "superseded")
    vec = one(brain, "MATCH (m:Memory {id: $id}) RETURN m.embedding", id=old["id"])
    assert one(brain, "MATCH (l:MemoryKey {id: $id}) RETURN count(l)", id=f"{ns}|{key}") == 1

    out = brain.forget(item_id=old["id"])  # an old version names the whole key
    assert out["found"] and out["deleted"]["memory"] == 2 and out["deleted"]["memory_keys"] == 1
    assert one(brain, "MATCH (m:Memory {namespace: $ns, key: $k}) RETURN count(m)", ns=ns, k=key) == 0
    assert one(brain, "MATCH (l:MemoryKey {id: $id}) RETURN count(l)", id=f"{ns}|{key}") == 0
    assert fulltext_hits(brain, "memory_text", "migrate", ns) == 0
    assert all(h["key"] != key for h in vector_hits(brain, "memory_embedding", vec, ns))
    # what the item did not own stays: its turns, the other items, the entities
    assert one(brain, "MATCH (t:Turn {namespace: $ns}) RETURN count(t)", ns=ns) == 6
    assert brain.list_memory(key_prefix=PREF_KEY)
    assert snapshot(brain, other) == before_other
    assert not brain.forget(item_id=old["id"])["found"]


def test_forget_entity_by_key(brain: Brain) -> None:
    ns = brain.namespace
    build_world(brain)
    key = "entity:repo:acme/graphbrain"
    assert one(brain, "MATCH (t:Turn {namespace: $ns}) WHERE 'acme/graphbrain' IN t.entity_keys RETURN count(t)", ns=ns)
    out = brain.forget(key=key)
    assert out["deleted"]["memory"] == 1
    assert one(brain, "MATCH (e:Entity {namespace: $ns, key: $k}) RETURN count(e)", ns=ns, k=key) == 0
    # The raw turns still name it; their nouns stay as candidates (graph only, never memory or an entity).
    assert fulltext_hits(brain, "entity_names", "graphbrain", ns, candidates=False) == 0
    # the entity-gate windows forget it too, so its next mention does not bring it straight back
    assert (
        one(brain, "MATCH (t:Turn {namespace: $ns}) WHERE 'acme/graphbrain' IN t.entity_keys RETURN count(t)", ns=ns)
        == 0
    )
    assert brain.list_memory(types=["entities"], key_prefix="entity:concept:neo4j")  # the neutral kind


def test_forget_item_drops_entities_it_alone_mentioned(brain: Brain) -> None:
    ns = brain.namespace
    brain.commit_turn("s1", turn("t1", "We decided to use Neo4j for the memory store."))
    decision = brain.list_memory(types=["decisions"])[0]
    # leave the item as Neo4j's only mention (turn and message mentions removed by hand)
    brain.store.cypher(
        "MATCH (x)-[r:MENTIONS]->(e:Entity {namespace: $ns, canonical: 'neo4j'}) WHERE NOT x:Memory DELETE r",
        {"ns": ns},
        write=True,
    )
    # The decision mentions Neo4j and the memory store (a component); only Neo4j hangs on it alone.
    mentioned = "MATCH (:Memory {id: $id})-[:MENTIONS]->(e:Entity) RETURN e.canonical AS c ORDER BY c"
    assert [r["c"] for r in brain.store.cypher(mentioned, {"id": decision["id"]}).rows] == ["memory store", "neo4j"]
    out = brain.forget(key=decision["key"])
    assert out["deleted"]["entities"] == 1
    # (the turn's nouns, "memory" and "store", stay as candidates with the turn that says them)
    left = "MATCH (e:Entity {namespace: $ns}) WHERE e.status <> 'candidate' RETURN e.canonical AS c"
    assert [r["c"] for r in brain.store.cypher(left, {"ns": ns}).rows] == ["memory store"]  # its turn still says it


# ------------------------------------------------------------------------------------------------ forget a namespace
def test_forget_namespace_leaves_nothing(brain: Brain) -> None:
    ns, other = brain.namespace, other_ns()
    for target in (ns, other):
        build_world(brain, target)
        brain.ingest(
            {"text": "# Runbook\n\nRestart Neo4j with `make neo4j-start`. The wombat procedure.", "title": "Runbook"},
            namespace=target,
            tags=["ops"],
            topics=["infra"],
        )
        write_context_trace(brain, target, "s1", f"ctx-{target}")
    before_other = snapshot(brain, other)
    assert fulltext_hits(brain, "chunk_text", "wombat", ns) == 1

    out = brain.forget(whole_namespace=True)
    assert out["found"] and out["target"] == {"namespace": ns}
    d = out["deleted"]
    assert d["documents"] == 1 and d["tags"] == 1 and d["topics"] == 1 and d["sessions"] == 2
    assert out["total"] == sum(before_other["nodes"].values())  # the twin namespace had the same nodes
    assert one(brain, "MATCH (n) WHERE n.namespace = $ns RETURN count(n)", ns=ns) == 0
    for index, word in (("chunk_text", "wombat"), ("message_search", S1_WORD), ("memory_text", "indentation")):
        assert fulltext_hits(brain, index, word, ns) == 0
    assert snapshot(brain, other) == before_other
    assert not brain.forget(whole_namespace=True)["found"]


def test_forget_needs_one_target(brain: Brain) -> None:
    with pytest.raises(InputError, match="exactly one"):
        brain.forget()
    with pytest.raises(InputError, match="exactly one"):
        brain.forget(key="pref:x:y", session_id="s1")
    assert brain.forget(key="pref:none:here") == {
        "namespace": brain.namespace,
        "target": {"key": "pref:none:here"},
        "found": False,
        "deleted": {},
        "total": 0,
    }


def test_remove_document(brain: Brain) -> None:
    res = brain.ingest({"text": "# Note\n\nThe platypus rule.", "title": "Note"})
    out = brain.remove_document(res.document_id)
    assert out["removed"] and out["chunks"] >= 1
    assert fulltext_hits(brain, "chunk_text", "platypus", brain.namespace) == 0
    assert not brain.remove_document(res.document_id)["removed"]
