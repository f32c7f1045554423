"""A journaled turn is replayed into its own namespace, whichever Brain replays it.

Brains of several namespaces share one data dir, and so one journal (the CLI's ``--namespace``, an app
serving tenants from one process). A turn accepted "pending" in namespace A and replayed by B's next
commit once landed in B — which ``bench chaos`` saw as a lost turn (its churn forgot B). The graph is
made unreachable for A's commit by a failure injected into its write, on both backends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graph_snapshot import fail_writes_after

from graphbrain import Brain
from graphbrain.errors import StoreUnavailable


def turn(turn_id: str, text: str) -> dict[str, Any]:
    return {"turn_id": turn_id, "messages": [{"role": "user", "content": text}]}


def turns(brain: Brain, namespace: str) -> list[tuple[str, str]]:
    rows = brain.store.cypher(
        "MATCH (t:Turn {namespace: $ns}) RETURN t.session_id AS s, t.turn_id AS t ORDER BY s, t", {"ns": namespace}
    ).rows
    return [(r["s"], r["t"]) for r in rows]


def test_a_pending_turn_is_replayed_into_its_own_namespace(
    brain_factory: Any, backend: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # One data dir for both Brains (on embedded it is the database's own, shared by the test session).
    shared: dict[str, Any] = {"storage.journal": True}
    if backend != "embedded":
        shared["storage.data_dir"] = str(tmp_path / "data")
    a: Brain = brain_factory(**shared)
    b: Brain = brain_factory(**shared)
    assert a.journal.path == b.journal.path and a.namespace != b.namespace
    try:
        fail_writes_after(monkeypatch, a.store, "commit/lock_session", StoreUnavailable)
        pending = a.commit_turn("s", turn("t1", "TODO: 把迁移文档写完 and send it to Dana."))
        assert pending.status == "pending" and pending.namespace == a.namespace
        monkeypatch.undo()

        # B's commit first writes what the journal holds before it: A's turn, into A.
        done = b.commit_turn("s", turn("t1", "TODO: review the parser."))
        assert done.status == "committed" and done.namespace == b.namespace
        assert turns(a, a.namespace) == [("s", "t1")]
        assert turns(b, b.namespace) == [("s", "t1")]
        memory = a.store.cypher(
            "MATCH (m:Memory:Task)-[:DERIVED_FROM]->(:Turn {namespace: $ns}) RETURN m.namespace AS ns",
            {"ns": a.namespace},
        ).rows
        assert memory and {r["ns"] for r in memory} == {a.namespace}
        assert a.journal.status()["pending"] == 0
    finally:
        if backend == "embedded":
            # The session's database dir: no journal is left there for later tests.
            a.journal.close()
            b.journal.close()
            a.journal.path.unlink(missing_ok=True)
            for extra in ("-wal", "-shm"):
                Path(str(a.journal.path) + extra).unlink(missing_ok=True)
