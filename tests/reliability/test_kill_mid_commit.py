"""A process killed (SIGKILL) in the middle of commit_turn's write transaction: nothing of the turn is in
the graph, and the journal replays it exactly once when the next process starts.

On Neo4j the open transaction dies with its connection. The embedded backend has no multi-statement
transactions: the killed writer leaves its undo plan on disk, and the next process to open the graph
runs it before anything reads (graphbrain/store/falkordb_store.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.store.falkordb_store import EmbeddedServer, EmbeddedSettings

ROOT = Path(__file__).resolve().parents[2]

# The child commits a turn and is killed while its transaction is open: the working summary step runs
# inside the write transaction, after the turn and its memory items were written to it.
CHILD = """
import json, sys, time
from pathlib import Path
from graphbrain import Brain
from graphbrain.commit import pipeline

args = json.loads(sys.argv[1])
brain = Brain.from_config(args["config"], overrides=args["overrides"])
brain.commit_turn("s", {"turn_id": "t1", "messages": [{"role": "user", "content": "TODO: write the parser."}]})

def stall(*_a, **_k):
    Path(args["marker"]).write_text("in transaction")
    time.sleep(600)

pipeline.CommitPipeline._summary = stall
brain.commit_turn("s", {"turn_id": "t2", "messages": [
    {"role": "user", "content": "We decided to use Neo4j. TODO: benchmark the planner."}]})
"""


def _count(brain: Brain, query: str) -> int:
    return int(brain.store.cypher(query, {"ns": brain.namespace}).rows[0]["n"])


def test_sigkill_mid_transaction_leaves_nothing_and_replays_once(
    neo4j_uri: str, schema_ready: None, tmp_path: Path
) -> None:
    ns = f"kill{uuid.uuid4().hex[:8]}"
    overrides = {"storage.neo4j.uri": neo4j_uri, "storage.data_dir": str(tmp_path / "data"), "namespace": ns}
    _kill_and_recover(overrides, tmp_path)


def test_sigkill_mid_write_embedded_is_taken_back_and_replays_once(tmp_path: Path) -> None:
    data = tmp_path / "data"
    overrides = {"storage.backend": "embedded", "storage.data_dir": str(data), "namespace": "kill"}
    try:
        _kill_and_recover(overrides, tmp_path, undo_plan=data / "falkordb" / "graphbrain.undo.json")
    finally:
        # The killed child started the server; nobody else would shut it down.
        EmbeddedServer(EmbeddedSettings(data_dir=data))._shutdown()


def _kill_and_recover(overrides: dict[str, str], tmp_path: Path, undo_plan: Path | None = None) -> None:
    ns = overrides["namespace"]
    marker = tmp_path / "marker"
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            json.dumps({"config": str(ROOT / "brain.yml"), "overrides": overrides, "marker": str(marker)}),
        ],
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 240
        while not marker.exists():
            assert child.poll() is None, "the child exited before reaching the transaction"
            assert time.monotonic() < deadline, "the child never reached the transaction"
            time.sleep(0.1)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()

    if undo_plan is not None:
        assert undo_plan.exists(), "the killed embedded writer left no undo plan"
    # A fresh process: the open transaction died with its connection (or, embedded, the undo plan ran
    # when the graph was opened), so only t1 is in the graph…
    brain = Brain.from_config(ROOT / "brain.yml", overrides=overrides, check_schema=False)
    try:
        assert _count(brain, "MATCH (t:Turn {namespace: $ns}) RETURN count(t) AS n") == 1
        assert _count(brain, "MATCH (m:Memory:Decision {namespace: $ns}) RETURN count(m) AS n") == 0
        assert brain.journal_status()["pending"] == 1
        assert undo_plan is None or not undo_plan.exists()
    finally:
        brain.close()

    # …and starting up (Brain.from_config replays the journal) writes t2 exactly once.
    brain = Brain.from_config(ROOT / "brain.yml", overrides=overrides)
    try:
        assert brain.journal_status()["pending"] == 0
        rows = brain.store.cypher(
            "MATCH (t:Turn {namespace: $ns}) RETURN t.turn_id AS id, t.seq AS seq ORDER BY seq", {"ns": ns}
        ).rows
        assert rows == [{"id": "t1", "seq": 1}, {"id": "t2", "seq": 2}]
        assert _count(brain, "MATCH (m:Memory:Decision {namespace: $ns}) RETURN count(m) AS n") == 1
        assert brain.replay_journal() == []
    finally:
        brain.close()


def test_a_statement_applied_whose_answer_was_lost_is_taken_back_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server killed after it applied a statement and before its answer reached the writer: the writer
    saw no statement answered, yet the first one (the session's next sequence number) is in the graph.
    The undo plan runs all the same, so no sequence number is used up and no empty Session is left."""
    from graph_snapshot import snapshot

    from graphbrain.errors import StoreUnavailable
    from graphbrain.store.falkordb_store import FalkorStore

    data = tmp_path / "data"
    overrides = {"storage.backend": "embedded", "storage.data_dir": str(data), "namespace": "lost-answer"}
    brain = Brain.from_config(ROOT / "brain.yml", overrides=overrides, check_schema=False)
    try:
        brain.init_schema()
        brain.commit_turn("s", {"turn_id": "t1", "messages": [{"role": "user", "content": "TODO: 写解析器。"}]})
        before = snapshot(brain.store, brain.namespace)
        store = brain.store
        assert isinstance(store, FalkorStore)
        real = FalkorStore._run_named

        def answer_lost(self: FalkorStore, name: str, params: Any, *, write: bool) -> Any:
            rows = real(self, name, params, write=write)
            if name == "commit/lock_session":
                raise StoreUnavailable("injected: the connection dropped before the answer")
            return rows

        monkeypatch.setattr(FalkorStore, "_run_named", answer_lost)
        pending = brain.commit_turn("s", {"turn_id": "t2", "messages": [{"role": "user", "content": "TODO: x"}]})
        monkeypatch.undo()
        assert pending.status == "pending"
        assert snapshot(brain.store, brain.namespace) == before
        assert [r.seq for r in brain.replay_journal()] == [2]
    finally:
        brain.close()
        EmbeddedServer(EmbeddedSettings(data_dir=data))._shutdown()
