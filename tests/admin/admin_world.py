"""A small two-session world, built through commit_turn, and the checks the admin tests share.

Session s2 states a preference ("tabs") that s1 later overwrites ("spaces"); s1 makes a decision, runs a
task through its lifecycle, calls a tool, names a repo and two URLs (one shared with s2); s2 later
mentions Neo4j again in a task of its own. Forgetting s1 must take everything only s1 owns and leave s2
whole, with "tabs" active again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from helpers import turn

from graphbrain import Brain

ONLY_S1_URL = "https://example.com/only-s1"
SHARED_URL = "https://example.com/shared"
S1_WORD = "zanzibarite"  # a word only s1's messages contain (full-text checks)
S2_WORD = "quokka"


def s1_tool_turn() -> dict[str, Any]:
    return {
        "turn_id": "t1",
        "messages": [
            {
                "message_id": "t1-u",
                "role": "user",
                "content": "We decided to use Neo4j for the memory store. The code lives in the repo acme/graphbrain.",
            },
            {
                "message_id": "t1-a",
                "role": "assistant",
                "content": f"Noted. Checking the {S1_WORD} docs.",
                "tool_calls": [{"id": "c-s1", "name": "web_search", "args": {"q": "neo4j vector index"}}],
            },
            {
                "message_id": "t1-t",
                "role": "tool",
                "tool_call_id": "c-s1",
                "status": "ok",
                "content": f"Neo4j supports vector indexes ({S1_WORD}).",
            },
        ],
        "refs": [{"type": "url", "uri": ONLY_S1_URL}, {"type": "url", "uri": SHARED_URL}],
    }


@dataclass
class World:
    brain: Brain
    namespace: str
    commits: dict[str, Any] = field(default_factory=dict)


def build_world(brain: Brain, namespace: str | None = None) -> World:
    """Commit the world into ``namespace`` (default: the brain's)."""
    ns = namespace or brain.namespace
    w = World(brain, ns)

    def commit(session: str, ev: dict[str, Any]) -> None:
        ev = {**ev, "namespace": ns} if namespace else ev
        w.commits[f"{session}/{ev['turn_id']}"] = brain.commit_turn(session, ev)

    commit("s2", turn("u1", "I prefer tabs for indentation.", refs=[{"type": "url", "uri": SHARED_URL}]))
    commit("s1", s1_tool_turn())
    commit("s1", turn("t2", "TODO: migrate the vector index to 512 dimensions."))
    commit("s1", turn("t3", "From now on I prefer spaces for indentation."))
    commit("s1", turn("t4", "Done with the vector index migration."))
    commit("s2", turn("u2", f"TODO: write the {S2_WORD} report about Neo4j."))
    return w


def write_context_trace(
    brain: Brain, namespace: str, session_id: str, context_id: str, created_at: datetime | None = None
) -> None:
    """A ContextTrace through the real named query (compose_context's own write)."""
    brain.store.run(
        "compose/write_context_trace",
        {
            "context_id": context_id,
            "namespace": namespace,
            "session_id": session_id,
            "created_at": created_at or datetime.now(UTC),
            "fingerprint": "test",
            "request": json.dumps({"user_message": "what did we decide?"}),
            "plans": json.dumps([{"version": "0.1"}]),
            "package": json.dumps({"evidence": []}),
            "trace": json.dumps({"took_ms": 1}),
        },
        write=True,
    )


# ------------------------------------------------------------------------------------------------ checks
def q(brain: Brain, cypher: str, **params: Any) -> list[dict[str, Any]]:
    return brain.store.cypher(cypher, params).rows


def one(brain: Brain, cypher: str, **params: Any) -> Any:
    rows = q(brain, cypher, **params)
    return next(iter(rows[0].values())) if rows else None


def snapshot(brain: Brain, namespace: str) -> dict[str, Any]:
    """Every node of the namespace by label set, and every edge touching it by type."""
    nodes = q(
        brain,
        "MATCH (n) WHERE n.namespace = $ns RETURN reduce(s = '', x IN labels(n) | s + ':' + x) AS l, count(*) AS c",
        ns=namespace,
    )
    edges = q(
        brain,
        "MATCH (a)-[r]->(b) WHERE a.namespace = $ns OR b.namespace = $ns RETURN type(r) AS t, count(*) AS c",
        ns=namespace,
    )
    return {
        "nodes": {r["l"]: r["c"] for r in nodes},
        "edges": {r["t"]: r["c"] for r in edges},
    }


# Neo4j index name -> the label FalkorDB indexes (its indexes are per label, with no names of their own).
INDEX_LABELS = {
    "memory_text": "Memory",
    "message_search": "Message",
    "chunk_text": "Chunk",
    "entity_names": "Entity",
    "memory_embedding": "Memory",
    "message_embedding": "Message",
    "chunk_embedding": "Chunk",
}


def fulltext_hits(brain: Brain, index: str, text: str, namespace: str, *, candidates: bool = True) -> int:
    """Nodes of ``namespace`` the full-text ``index`` finds for ``text`` (``candidates=False``: not counting
    candidate entities, the nouns of raw turns that forget of an item keeps with the turn)."""
    where = "node.namespace = $ns" + ("" if candidates else " AND coalesce(node.status, '') <> 'candidate'")
    if index == "message_search":
        # Messages are indexed as the analyzer's terms: ask for them the way retrieval does.
        from graphbrain.nlp.analysis import query_terms

        text = " ".join(query_terms(text))
        if brain.store.backend == "embedded":
            text = "@search_text:(" + " | ".join(text.split()) + ")"
    if brain.store.backend == "embedded":
        from graphbrain.store.falkordb_store import fts_query

        return int(
            one(
                brain,
                f"CALL db.idx.fulltext.queryNodes($label, $text) YIELD node WHERE {where} RETURN count(node)",
                label=INDEX_LABELS[index],
                text=text if index == "message_search" else fts_query(text),
                ns=namespace,
            )
        )
    return int(
        one(
            brain,
            f"CALL db.index.fulltext.queryNodes($index, $text, {{limit: 1000}}) YIELD node WHERE {where} "
            "RETURN count(node)",
            index=index,
            text=text,
            ns=namespace,
        )
    )


def vector_hits(brain: Brain, index: str, vector: list[float], namespace: str, k: int = 50) -> list[dict[str, Any]]:
    if brain.store.backend == "embedded":
        # FalkorDB's HNSW index counts a tombstone for every update or delete of a node in its top k:
        # ask for more, keep the k best live hits (scores as Neo4j's (1 + cos) / 2).
        return q(
            brain,
            "CALL db.idx.vector.queryNodes($label, 'embedding', $k * 10, vecf32($v)) YIELD node, score "
            "WITH node, 1.0 - score / 2.0 AS score ORDER BY score DESC LIMIT $k WITH node, score "
            "WHERE node.namespace = $ns "
            "RETURN node.id AS id, node.session_id AS session_id, node.key AS key, score",
            label=INDEX_LABELS[index],
            k=k,
            v=vector,
            ns=namespace,
        )
    return q(
        brain,
        "CALL db.index.vector.queryNodes($index, $k, $v) YIELD node, score "
        "WHERE node.namespace = $ns RETURN node.id AS id, node.session_id AS session_id, node.key AS key, score",
        index=index,
        k=k,
        v=vector,
        ns=namespace,
    )
