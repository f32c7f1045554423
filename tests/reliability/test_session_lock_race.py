"""The session lock when the Session is deleted under it (forget, or another test run wiping the graph).

Seen once while `make test` of another checkout ran against the same Neo4j: a commit_turn failed with a raw
`TypeError` at `int(lock["seq"])`. Cause: commit/lock_session's MERGE found the Session while another
transaction was deleting it, its SET waited for that lock, and once the delete committed the node it held
read as null. The lock now MERGEs again after taking the lock; this test makes that interleaving happen.
"""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from neo4j import GraphDatabase

from graphbrain import Brain
from graphbrain.commit.pipeline import CommitPipeline
from graphbrain.config import load_config
from graphbrain.errors import StoreStateError
from graphbrain.store.neo4j_store import Neo4jStore

ROOT = Path(__file__).resolve().parents[2]


def _turn(i: int) -> dict[str, Any]:
    return {"turn_id": f"t{i}", "messages": [{"role": "user", "content": f"TODO: fix bug {i}. 记得修复第{i}个问题。"}]}


@pytest.fixture()
def neo4j_brain(neo4j_uri: str, schema_ready: None, tmp_path: Path) -> Any:
    cfg = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.neo4j.uri": neo4j_uri,
            "namespace": f"race{uuid.uuid4().hex[:8]}",
            "storage.data_dir": str(tmp_path / "data"),
            "embedding.provider": "hashing",
        },
    )
    brain = Brain(cfg, Neo4jStore(cfg.storage.neo4j))
    yield brain
    brain.store.cypher("MATCH (n) WHERE n.namespace = $ns DETACH DELETE n", {"ns": brain.namespace}, write=True)
    brain.close()


def _blocked_on_session_lock(driver: Any) -> bool:
    with driver.session() as s:
        rows = s.run("SHOW TRANSACTIONS YIELD currentQuery, status").data()
    return any("MERGE (s:Session" in (r["currentQuery"] or "") and "Blocked" in r["status"] for r in rows)


def test_a_session_deleted_while_a_commit_waits_for_its_lock(neo4j_brain: Brain, neo4j_uri: str) -> None:
    brain = neo4j_brain
    assert brain.commit_turn("s", _turn(1)).seq == 1
    cfg = brain.config.storage.neo4j
    driver = GraphDatabase.driver(neo4j_uri, auth=(cfg.user, cfg.password.get_secret_value()))
    deleting = driver.session()
    tx = deleting.begin_transaction()
    try:
        # The wipe holds the Session's lock, uncommitted, while a commit of the next turn reaches the lock.
        tx.run("MATCH (n) WHERE n.namespace = $ns DETACH DELETE n", ns=brain.namespace).consume()
        out: dict[str, Any] = {}

        def commit() -> None:
            try:
                out["result"] = brain.commit_turn("s", _turn(2))
            except Exception as e:  # reported by the assertions below
                out["error"] = e

        worker = threading.Thread(target=commit)
        worker.start()
        deadline = time.monotonic() + 120
        while not _blocked_on_session_lock(driver):
            assert worker.is_alive(), out
            assert time.monotonic() < deadline, "the commit never waited for the session lock"
            time.sleep(0.05)
        tx.commit()
        worker.join(timeout=120)
    finally:
        if tx.closed() is False:
            tx.rollback()
        deleting.close()
        driver.close()
    assert "error" not in out, out.get("error")
    # The wipe happened first; the turn starts the session afresh, and is really in the graph.
    assert out["result"].status == "committed" and out["result"].seq == 1
    rows = brain.store.cypher(
        "MATCH (s:Session {namespace: $ns})-[:HAS_TURN]->(t:Turn) RETURN s.last_seq AS last, t.turn_id AS id",
        {"ns": brain.namespace},
    ).rows
    assert rows == [{"last": 1, "id": "t2"}]


def test_a_lock_without_a_sequence_number_is_a_graphbrain_error(neo4j_brain: Brain) -> None:
    """Whatever else makes the lock answer without a number, it surfaces named, never as a TypeError."""
    brain = neo4j_brain
    assert brain.commit_turn("s", _turn(1)).seq == 1
    brain.store.cypher("MATCH (s:Session {namespace: $ns}) REMOVE s.last_seq", {"ns": brain.namespace}, write=True)
    pipeline = CommitPipeline(brain.config, brain.store, lambda: brain.embedder)
    with pytest.raises(StoreStateError, match=r"commit/lock_session gave no sequence number for session 's'"):
        pipeline.commit("s", _turn(2))
