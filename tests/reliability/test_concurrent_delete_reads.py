"""A commit's pre-reads while a forget deletes the same nodes: no row of nulls reaches the pipeline.

Neo4j reads at READ COMMITTED: a node a concurrent transaction deletes after the MATCH found it reads as
nulls. The chaos bench's churn (a fresh namespace committed to while another thread forgets it) once
failed a commit with a raw ``AttributeError: 'NoneType' object has no attribute 'split'``: a Memory
row of ``commit/context_items`` without its key reached extraction's ``key_project``. The queries check
what they read, after reading it.
(``context_items_by_id`` is held to the same.)
"""

from __future__ import annotations

import threading
import time
from typing import Any

from graphbrain import Brain

CREATE = (
    """MERGE (s:Session {id: $ns + ':s'}) ON CREATE SET s.namespace = $ns, s.session_id = 's', s.last_seq = 1""",
    "CREATE (:Turn {id: $ns + ':turn', namespace: $ns, session_id: 's', seq: 1, commit_id: 'c' + $round})",
    """MATCH (t:Turn {id: $ns + ':turn'})
    UNWIND range(1, 20) AS i
    CREATE (:Memory:Active {id: $ns + ':m:' + toString(i) + ':' + $round, namespace: $ns, status: 'active',
                     type: 'tasks', key: 'task:x:' + toString(i), value_json: '{}', text: 't', updated_at: $round})
           -[:DERIVED_FROM]->(t)""",
    """CREATE (:Entity {id: $ns + ':e:' + $round, namespace: $ns, canonical: 'kalo', key: 'entity:kalo',
                     kind: 'concept', created_at: $round})""",
)
DELETE = "MATCH (n) WHERE n.namespace = $ns AND (n:Memory OR n:Entity OR n:Turn) DETACH DELETE n"


def test_pre_reads_skip_nodes_deleted_under_them(brain: Brain) -> None:
    ns = brain.config.namespace
    stop = threading.Event()
    churn_errors: list[BaseException] = []

    def churn() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                for statement in CREATE:
                    brain.store.cypher(statement, {"ns": ns, "round": f"{n:06d}"}, write=True)
                brain.store.cypher(DELETE, {"ns": ns}, write=True)
            except BaseException as e:  # pragma: no cover - reported below
                churn_errors.append(e)
                return

    t = threading.Thread(target=churn)
    t.start()
    bad: list[tuple[str, dict[str, Any]]] = []
    reads = 0
    try:
        deadline = time.monotonic() + 6
        while time.monotonic() < deadline:
            reads += 1
            session = {
                "session_node_id": f"{ns}:s",
                "namespace": ns,
                "session_id": "s",
                "window": 50,
                "types": ["tasks"],
                "limit": 50,
            }
            for r in brain.store.run("commit/context_items", session):
                if r["key"] is None or r["id"] is None or r["type"] is None:
                    bad.append(("context_items", r))
            # The ids of the moment: the churn deletes them while the next read looks them up.
            ids = [
                r["id"]
                for r in brain.store.cypher("MATCH (m:Memory {namespace: $ns}) RETURN m.id AS id", {"ns": ns}).rows
            ]
            for r in brain.store.run("commit/context_items_by_id", {"namespace": ns, "ids": ids}):
                if r["key"] is None or r["id"] is None or r["type"] is None:
                    bad.append(("context_items_by_id", r))
            for r in brain.store.run("commit/existing_entities", {"namespace": ns, "canonicals": ["kalo"]}):
                if r["id"] is None:
                    bad.append(("existing_entities", r))
            for r in brain.store.run("commit/turn_exists", {"turn_node_id": f"{ns}:turn"}):
                if r["seq"] is None:  # the turn was there (a null commit_id or result is answered as such)
                    bad.append(("turn_exists", r))
    finally:
        stop.set()
        t.join()
    assert not churn_errors, churn_errors
    assert reads > 20
    assert not bad, f"{len(bad)} rows of a deleted node in {reads} reads, e.g. {bad[:3]}"
