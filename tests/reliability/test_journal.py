"""Nothing lost when Neo4j fails: stop the real server mid-run, commit, restart, check exactly once.

This test runs its own Neo4j (scripts/neo4j.sh on a spare port) because it stops and restarts it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.config import load_config
from graphbrain.store.neo4j_store import Neo4jStore

ROOT = Path(__file__).resolve().parents[2]
PORT = os.environ.get("GRAPHBRAIN_FAULT_PORT", "7744")


def neo4j(cmd: str) -> str:
    env = {**os.environ, "GRAPHBRAIN_NEO4J_PORT": PORT}
    env.pop("NEO4J_URI", None)
    out = subprocess.run(
        ["bash", str(ROOT / "scripts" / "neo4j.sh"), cmd],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""


@pytest.fixture(scope="module")
def fault_uri() -> Any:
    uri = neo4j("start")
    yield uri
    neo4j("stop")


def make_brain(uri: str, tmp_path: Path, ns: str) -> Brain:
    cfg = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.neo4j.uri": uri,
            "namespace": ns,
            "storage.data_dir": str(tmp_path / "data"),
            "storage.neo4j.connection_timeout_s": 2,
            "storage.neo4j.max_retry_time_s": 1,
        },
    )
    b = Brain(cfg, Neo4jStore(cfg.storage.neo4j))
    b.init_schema()
    return b


WORDS = ["parser", "planner", "journal", "fetcher", "ranker", "chunker", "exporter", "importer"]


def turn(i: int) -> dict[str, Any]:
    return {
        "turn_id": f"t{i}",
        "messages": [
            {"role": "user", "content": f"TODO: fix the flaky {WORDS[i]} test."},
            {"role": "assistant", "content": "On it."},
        ],
    }


def counts(brain: Brain) -> tuple[int, int]:
    rows = brain.store.cypher(
        "MATCH (t:Turn {namespace: $ns}) WITH count(t) AS turns "
        "MATCH (m:Memory:Task {namespace: $ns}) RETURN turns, count(m) AS tasks",
        {"ns": brain.namespace},
    ).rows
    return int(rows[0]["turns"]), int(rows[0]["tasks"])


def test_server_down_mid_run_then_replayed_exactly_once(fault_uri: str, tmp_path: Path) -> None:
    brain = make_brain(fault_uri, tmp_path, "fault1")
    brain.store.cypher("MATCH (n {namespace: 'fault1'}) DETACH DELETE n", write=True)
    for i in range(3):
        assert brain.commit_turn("s", turn(i)).status == "committed"
    neo4j("stop")
    pending = [brain.commit_turn("s", turn(i)) for i in range(3, 6)]
    assert [r.status for r in pending] == ["pending"] * 3 and all(r.ok for r in pending)
    assert brain.journal_status()["pending"] == 3
    neo4j("start")
    # the next call replays the pending turns first, in order, then commits its own
    r = brain.commit_turn("s", turn(6))
    assert r.status == "committed" and r.seq == 7
    assert brain.journal_status()["pending"] == 0
    assert counts(brain) == (7, 7)
    seqs = [
        row["seq"]
        for row in brain.store.cypher(
            "MATCH (t:Turn {namespace: 'fault1'}) RETURN t.seq AS seq, t.turn_id AS id ORDER BY seq"
        ).rows
    ]
    assert seqs == list(range(1, 8))
    # replaying again changes nothing
    assert brain.replay_journal() == []
    assert counts(brain) == (7, 7)
    brain.close()


def test_killed_before_mark_done_replays_as_duplicate(fault_uri: str, tmp_path: Path) -> None:
    brain = make_brain(fault_uri, tmp_path, "fault2")
    brain.store.cypher("MATCH (n {namespace: 'fault2'}) DETACH DELETE n", write=True)
    # a turn journaled and written, but the process "died" before marking it done
    entry = brain.journal.append("fault2", "s", "t0", turn(0))
    brain.commit_turn("s", {**turn(0)})
    brain.journal._set(entry, "pending", None)
    assert brain.journal_status()["pending"] == 1
    results = brain.replay_journal()
    assert [r.status for r in results] == ["duplicate"]
    assert counts(brain) == (1, 1)
    brain.close()


def test_compose_fails_clearly_when_down(tmp_path: Path) -> None:
    from graphbrain.errors import StoreUnavailable

    cfg = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.neo4j.uri": "bolt://127.0.0.1:1",
            "storage.data_dir": str(tmp_path / "d"),
            "storage.neo4j.connection_timeout_s": 1,
            "storage.neo4j.max_retry_time_s": 1,
        },
    )
    brain = Brain(cfg, Neo4jStore(cfg.storage.neo4j))
    with pytest.raises(StoreUnavailable, match="unavailable"):
        brain.compose_context("s", "what did we decide?")
    r = brain.commit_turn("s", turn(1))
    assert r.status == "pending"
    brain.close()


def test_a_turn_journaled_for_one_database_is_never_replayed_into_another(
    neo4j_uri: str, schema_ready: None, tmp_path: Path
) -> None:
    data = str(tmp_path / "shared-data")
    away = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.neo4j.uri": "bolt://127.0.0.1:1",
            "storage.data_dir": data,
            "namespace": "target1",
            "storage.neo4j.connection_timeout_s": 1,
            "storage.neo4j.max_retry_time_s": 1,
        },
    )
    brain = Brain(away, Neo4jStore(away.storage.neo4j))
    assert brain.commit_turn("s", turn(1)).status == "pending"
    brain.close()
    # The same data dir, pointed at another (live) server: the pending turn is not its to write.
    live = load_config(
        ROOT / "brain.yml", overrides={"storage.neo4j.uri": neo4j_uri, "storage.data_dir": data, "namespace": "target1"}
    )
    other = Brain(live, Neo4jStore(live.storage.neo4j))
    try:
        other.store.cypher("MATCH (n {namespace: 'target1'}) DETACH DELETE n", write=True)
        status = other.journal_status()
        assert status["pending"] == 0 and status["pending_elsewhere"] == 1
        assert list(status["pending_elsewhere_by_target"]) == ["neo4j bolt://127.0.0.1:1 database=neo4j"]
        assert other.replay_journal() == []
        assert other.commit_turn("s", turn(2)).status == "committed"
        assert counts(other) == (1, 1)
    finally:
        other.close()


def test_degraded_compose_from_the_journal_when_configured(fault_uri: str, tmp_path: Path) -> None:
    brain = make_brain(fault_uri, tmp_path, "fault3")
    brain.store.cypher("MATCH (n {namespace: 'fault3'}) DETACH DELETE n", write=True)
    assert brain.commit_turn("s", turn(0)).status == "committed"
    degraded_cfg = brain.config.model_copy(
        update={"storage": brain.config.storage.model_copy(update={"degraded_compose": True})}
    )
    degraded = Brain(degraded_cfg, Neo4jStore(degraded_cfg.storage.neo4j))
    neo4j("stop")
    try:
        assert brain.commit_turn("s", turn(1)).status == "pending"
        # Not configured: a clear error, quickly.
        from graphbrain.errors import StoreUnavailable

        with pytest.raises(StoreUnavailable):
            brain.compose_context("s", "which test is flaky?")
        # Configured: the journal's recent turns (written and pending alike), marked degraded.
        pkg = degraded.compose_context("s", "which test is flaky?")
        assert pkg.debug.degraded and any("degraded" in w for w in pkg.debug.warnings)
        assert [t.turn_id for t in pkg.recent_turns if t.role == "user"] == ["t0", "t1"]
        assert pkg.evidence == [] and pkg.user_message.content == "which test is flaky?"
    finally:
        neo4j("start")
    # Back up: the normal path again, not degraded.
    try:
        assert not degraded.compose_context("s", "which test is flaky?").debug.degraded
    finally:
        degraded.close()
        brain.close()
