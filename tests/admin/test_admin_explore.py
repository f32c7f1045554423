"""Entity view, export, traces and the Cypher console against the real Neo4j."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import networkx as nx
import pytest
from admin_world import S2_WORD, build_world, one, turn, write_context_trace

from graphbrain import Brain
from graphbrain.admin import NotFoundError, build_graph
from graphbrain.admin.export import graphml_value
from graphbrain.errors import InputError, ReadOnlyViolation


def other_ns() -> str:
    return f"o{uuid.uuid4().hex[:10]}"


# ------------------------------------------------------------------------------------------------ entity
def test_entity_view_neighbourhood(brain: Brain) -> None:
    build_world(brain)
    brain.ingest({"text": "# Ops\n\nNeo4j backups run nightly.", "title": "Ops notes"})
    view = brain.entity("neo4j")  # case-folded canonical name
    e = view["entity"]
    assert e["name"] == "Neo4j" and e["kind"] and e["key"].startswith("entity:") and view["matched_by"] == "canonical"
    assert isinstance(e["aliases"], list)
    assert "acme/graphbrain" in {r["name"] for r in view["related"]}
    assert all(r["weight"] >= 1 for r in view["related"])
    assert [d["key"] for d in view["decisions"]] == ["decision:graphbrain:memory-store"]
    assert any(S2_WORD in t["text"] for t in view["tasks"])
    turns = {(t["session_id"], t["turn_id"]) for t in view["turns"]}
    assert {("s1", "t1"), ("s2", "u2")} <= turns
    assert all(t["at"] is not None for t in view["turns"])
    assert any("Neo4j" in (t["snippet"] or "") for t in view["turns"])
    assert [d["title"] for d in view["documents"]] == ["Ops notes"] and view["documents"][0]["chunks"] == 1
    times = [t["at"] for t in view["timeline"]]
    assert times == sorted(times) and {t["kind"] for t in view["timeline"]} == {"turn", "memory", "document"}


def test_entity_view_cuts_chinese_text_whole(brain: Brain) -> None:
    # FalkorDB's substring() walks characters past the end of a multi-byte string when asked for more than
    # is left: the view asks for exactly what is left, so the snippet is the whole message, every time.
    short = "我们决定用倒数排名融合来合并混合检索的结果，因为它完全不需要校准分数。 Neo4j 继续做存储。"
    long = "背景说明，" * 30 + "后来 Neo4j 成了我们的图数据库，" + "补充细节。" * 70
    brain.commit_turn("s1", turn("t1", short))
    brain.commit_turn("s1", turn("t2", long))
    for _ in range(20):
        by_turn = {t["turn_id"]: t for t in brain.entity("Neo4j")["turns"]}
        assert by_turn["t1"]["snippet"] == short and short in by_turn["t1"]["text"]
        snippet = by_turn["t2"]["snippet"]
        assert len(snippet) == 240 and snippet in long and "Neo4j" in snippet
        assert len(by_turn["t2"]["text"]) == 400


def test_entity_resolution_ways(brain: Brain) -> None:
    build_world(brain)
    assert brain.entity("https://github.com/acme/graphbrain.git")["entity"]["canonical"] == "acme/graphbrain"
    assert brain.entity("entity:repo:acme/graphbrain")["matched_by"] == "id"
    partial = brain.entity("graphbrain")  # no canonical form matches: the entity_names full-text index does
    assert partial["entity"]["canonical"] == "acme/graphbrain" and partial["matched_by"] == "fulltext"
    with pytest.raises(NotFoundError):
        brain.entity("nothing-like-this")


def test_entity_namespaces_sealed(brain: Brain) -> None:
    """Two tenants with the same entity names: each view shows its own tenant only."""
    other = other_ns()
    build_world(brain)
    brain.commit_turn("x1", {**turn("v1", "We decided to use Neo4j for billing."), "namespace": other})
    brain.commit_turn("x1", {**turn("v2", "The repo globex/quantum-plans holds it."), "namespace": other})
    mine = brain.entity("Neo4j")
    theirs = brain.entity("Neo4j", namespace=other)
    assert mine["entity"]["id"] != theirs["entity"]["id"]
    assert {t["session_id"] for t in mine["turns"]} == {"s1", "s2"}
    assert {t["session_id"] for t in theirs["turns"]} == {"x1"}
    assert all("billing" not in d["text"] for d in mine["decisions"])
    assert brain.entity("globex/quantum-plans", namespace=other)["matched_by"] == "canonical"
    with pytest.raises(NotFoundError):
        brain.entity("globex/quantum-plans")


# ------------------------------------------------------------------------------------------------ export
def test_export_graphml_parses_back(brain: Brain, tmp_path: Path) -> None:
    build_world(brain)
    build_world(brain, other_ns())
    path = tmp_path / "memory.graphml"
    assert brain.export("graphml", path) == str(path)
    g = nx.read_graphml(path, force_multigraph=True)
    memory = one(brain, "MATCH (m:Memory {namespace: $ns}) RETURN count(m)", ns=brain.namespace)
    assert g.number_of_nodes() == memory  # this namespace only
    types = {d["type"] for _, _, d in g.edges(data=True)}
    assert {"SUPERSEDES", "MENTIONS", "RELATED_TO"} <= types and "DERIVED_FROM" not in types
    assert all("embedding" not in d for _, d in g.nodes(data=True))
    neo = next(d for _, d in g.nodes(data=True) if d.get("canonical") == "neo4j")
    assert neo["labels"] == "Memory:Entity" and neo["label"] == "Neo4j" and isinstance(neo["aliases"], str)
    assert isinstance(neo["mention_count"], int) and isinstance(neo["confidence"], float)
    assert all(d["namespace"] == brain.namespace for _, d in g.nodes(data=True))
    # the string form is the same document
    text = brain.export("graphml")
    assert isinstance(text, str) and text.startswith("<?xml")


def test_export_json_and_sessions(brain: Brain, tmp_path: Path) -> None:
    build_world(brain)
    # characters XML 1.0 forbids must not break the GraphML of the turns that hold them
    brain.commit_turn("s3", turn("w1", "TODO: clean the \x0bvertical tab\x1f out of the \x07logs."))
    data = brain.export("json")
    assert isinstance(data, dict)
    g = nx.node_link_graph(data, edges="edges", multigraph=True, directed=True)
    assert g.number_of_nodes() == len(data["nodes"]) and g.number_of_edges() == len(data["edges"])
    json.dumps(data)  # JSON-safe throughout

    full = build_graph(brain.store, brain.namespace, include_sessions=True)
    labels = {d["labels"] for _, d in full.nodes(data=True)}
    assert "Session" in labels and "Turn" in labels
    assert {"DERIVED_FROM", "HAS_TURN", "NEXT"} <= {d["type"] for _, _, d in full.edges(data=True)}
    path = tmp_path / "full.graphml"
    nx.write_graphml(full, path)
    back = nx.read_graphml(path, force_multigraph=True)
    assert back.number_of_nodes() == full.number_of_nodes()
    assert back.number_of_edges() == full.number_of_edges()
    with pytest.raises(InputError, match="format"):
        brain.export("csv")


def test_graphml_value() -> None:
    from datetime import UTC, datetime

    assert graphml_value(None) is None and graphml_value(True) is True and graphml_value(3) == 3
    assert graphml_value("a\x00b\x0bc\td") == "abc\td"
    assert graphml_value(["x", 1]) == '["x", 1]' and graphml_value({"b": 1, "a": 2}) == '{"a": 2, "b": 1}'
    assert graphml_value(datetime(2026, 1, 2, tzinfo=UTC)) == "2026-01-02T00:00:00+00:00"


# ------------------------------------------------------------------------------------------------ traces
def test_traces_by_id_and_sealed(brain: Brain) -> None:
    w = build_world(brain)
    commit = w.commits["s1/t1"]
    trace = brain.get_commit_trace(commit.commit_id)
    assert trace is not None and trace["session_id"] == "s1" and trace["turn_id"] == "t1"
    assert trace["result"]["commit_id"] == commit.commit_id and trace["result"]["memory_written"]
    assert brain.get_commit_trace(commit.commit_id, namespace=other_ns()) is None
    assert brain.get_commit_trace("commit_nope") is None
    assert brain.get_context_trace("ctx-nope") is None
    write_context_trace(brain, brain.namespace, "s1", "ctx-1")
    ctx = brain.get_context_trace("ctx-1")
    assert ctx is not None and ctx["request"] == {"user_message": "what did we decide?"}
    assert ctx["plans"] == [{"version": "0.1"}] and ctx["trace"] == {"took_ms": 1}
    assert brain.get_context_trace("ctx-1", namespace=other_ns()) is None


def test_prune_traces(brain: Brain) -> None:
    other = other_ns()
    build_world(brain)
    build_world(brain, other)
    count = "MATCH (c:CommitTrace {namespace: $ns}) RETURN count(c)"
    assert one(brain, count, ns=brain.namespace) == 6
    assert brain.prune_traces(older_than_days=1)["commit_traces"] == 0  # all of them are new
    out = brain.prune_traces(keep_last=2)
    assert out["commit_traces"] == 4 and out["context_traces"] == 0
    kept = brain.store.cypher(
        "MATCH (c:CommitTrace {namespace: $ns}) RETURN c.turn_id AS t ORDER BY t", {"ns": brain.namespace}
    ).rows
    assert [r["t"] for r in kept] == ["t4", "u2"]  # the two newest
    assert brain.prune_traces(older_than_days=0, keep_last=1)["commit_traces"] == 1
    assert one(brain, count, ns=other) == 6  # the other namespace keeps all of its own

    now = datetime.now(UTC)
    for days in (40, 20, 1):
        write_context_trace(brain, brain.namespace, "s1", f"ctx-{days}", now - timedelta(days=days))
    out = brain.prune_traces(older_than_days=30)
    assert out["context_traces"] == 1 and brain.get_context_trace("ctx-40") is None
    out = brain.prune_traces(older_than_days=10, keep_last=2)  # ctx-20 is old but among the 2 newest
    assert out["context_traces"] == 0 and brain.get_context_trace("ctx-20") is not None
    assert brain.prune_traces(older_than_days=10, keep_last=1)["context_traces"] == 1
    with pytest.raises(InputError):
        brain.prune_traces()
    with pytest.raises(InputError):
        brain.prune_traces(keep_last=-1)


# ------------------------------------------------------------------------------------------------ cypher
def test_cypher_console(brain: Brain) -> None:
    build_world(brain)
    build_world(brain, other_ns())
    res = brain.cypher(
        "MATCH (m:Memory {namespace: $namespace}) WHERE m.type = $t RETURN m.key AS key ORDER BY key",
        {"t": "decisions"},
    )
    assert res.columns == ["key"] and [r["key"] for r in res.rows] == ["decision:graphbrain:memory-store"]
    capped = brain.cypher("UNWIND range(1, 50) AS i RETURN i", row_cap=10)
    assert len(capped.rows) == 10 and capped.truncated

    with pytest.raises(ReadOnlyViolation, match="read-only"):
        brain.cypher("CREATE (n:Scratch {namespace: $namespace}) RETURN n")
    with pytest.raises(ReadOnlyViolation):
        brain.cypher("MATCH (m:Memory {namespace: $namespace}) DETACH DELETE m")
    assert one(brain, "MATCH (n:Scratch) RETURN count(n)") == 0
    assert one(brain, "MATCH (m:Memory {namespace: $ns}) RETURN count(m)", ns=brain.namespace) > 0

    made = brain.cypher("CREATE (n:Scratch {namespace: $namespace, v: $v}) RETURN n.v AS v", {"v": 7}, write=True)
    assert made.rows == [{"v": 7}]
    with pytest.raises(InputError, match="namespace"):
        brain.cypher("RETURN $namespace", {"namespace": "someone-else"})
    with pytest.raises(InputError):
        brain.cypher("   ")
    hostile = "x'}) DETACH DELETE n //"
    assert brain.cypher("RETURN $s AS s", {"s": hostile}).rows == [{"s": hostile}]


def test_graphml_edge_ids_are_unique_and_internals_stay_out(brain: Brain, tmp_path: Path) -> None:
    """Edge ids repeat nowhere (a GraphML id names one edge) and no storage internal is exported."""
    import xml.etree.ElementTree as ET

    build_world(brain)
    brain.commit_turn("s3", turn("z1", "我们决定用 Neo4j 存储记忆，Neo4j 很稳定。TODO: 给 Neo4j 做备份。"))
    path = tmp_path / "m.graphml"
    brain.export("graphml", path)
    root = ET.parse(path).getroot()
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    edge_ids = [e.get("id") for e in root.iterfind(".//g:edge", ns)]
    assert len(edge_ids) > 3 and len(set(edge_ids)) == len(edge_ids), edge_ids
    names = {k.get("attr.name") for k in root.iterfind("g:key", ns)}
    assert not {n for n in names if n and (n.endswith("_fts") or n in ("embedding", "active_key", "aliases_text"))}
    assert {"text", "key", "type", "labels"} <= names
    labels = {d.text for d in root.iterfind(".//g:node/g:data", ns) if d.text and d.text.startswith("Memory")}
    assert not any("FtsPending" in lab for lab in labels)
