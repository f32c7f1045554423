"""While the graph is known to be away, a commit only journals: it answers "accepted, pending" after a
ping, without extracting the turn or replaying the backlog (work that must fail, and the CPU a
restarting server needs). The way back — the server answering again, the backlog written in order — is
test_journal's real stop and restart.

Neo4j at a port nobody listens on: connection refused, as while a killed server restarts.
"""

from __future__ import annotations

import socket
import uuid
from pathlib import Path
from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.commit.pipeline import CommitPipeline
from graphbrain.config import load_config
from graphbrain.store.neo4j_store import Neo4jStore

ROOT = Path(__file__).resolve().parents[2]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_while_the_graph_is_away_a_commit_only_journals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.neo4j.uri": f"bolt://127.0.0.1:{_closed_port()}",
            "storage.data_dir": str(tmp_path / "data"),
            "storage.neo4j.connection_timeout_s": 1,
            "storage.neo4j.max_retry_time_s": 1,
            "namespace": f"away{uuid.uuid4().hex[:8]}",
        },
    )
    brain = Brain(cfg, Neo4jStore(cfg.storage.neo4j))
    try:
        first = brain.commit_turn("s", {"turn_id": "t1", "messages": [{"role": "user", "content": "TODO: 写测试。"}]})
        assert first.status == "pending"

        calls: list[Any] = []
        real = CommitPipeline.commit

        def spy(self: CommitPipeline, session_id: str, events: Any) -> Any:
            calls.append(session_id)
            return real(self, session_id, events)

        monkeypatch.setattr(CommitPipeline, "commit", spy)
        second = brain.commit_turn("s", {"turn_id": "t2", "messages": [{"role": "user", "content": "TODO: ship it."}]})
        assert second.status == "pending" and "ping" in second.warnings[0]
        assert calls == []
        assert [e.turn_id for e in brain.journal.pending()] == ["t1", "t2"]
    finally:
        brain.close()
