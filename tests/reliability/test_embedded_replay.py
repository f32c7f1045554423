"""After a kill or a restart the embedded server rebuilds the graph from its AOF. The rebuilt graph must be
the one that was live, node for node and edge for edge, internal ids included: the writes logged after
it name nodes by those ids. When FalkorDB logged some writes as queries and others as their effects, the
replay reused freed ids in another order; in a chaos run a new turn then held another turn's edges and
every later start crashed the server (graphbrain/store/embedded_server.py, EFFECTS_THRESHOLD)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import redis

from graphbrain import Brain
from graphbrain.store.embedded_server import EFFECTS_THRESHOLD, EmbeddedServer, EmbeddedSettings

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Atlas", "the billing service", "Bob", "Dana", "the auth service", "天穹", "计费服务", "李娜", "刘洋", "Neo4j"]


def _fingerprint(sock: Path) -> tuple[list[Any], list[Any]]:
    conn = redis.Redis(unix_socket_path=str(sock))
    deadline = time.monotonic() + 120
    while True:
        try:
            nodes = conn.execute_command(
                "GRAPH.RO_QUERY", "graphbrain", "MATCH (n) RETURN id(n), labels(n), properties(n) ORDER BY id(n)"
            )[1]
            break
        except redis.BusyLoadingError:  # still replaying the AOF
            assert time.monotonic() < deadline, "the replay did not finish"
            time.sleep(0.2)
    edges = conn.execute_command(
        "GRAPH.RO_QUERY",
        "graphbrain",
        "MATCH (a)-[e]->(b) RETURN id(e), type(e), id(a), id(b), properties(e) ORDER BY id(e)",
    )[1]
    conn.close()
    return nodes, edges


def _workload(brain: Brain) -> None:
    """Commits in both languages, whole sessions forgotten (deletes free ids), more commits (reuse them)."""
    for i in range(150):
        a, b = NAMES[i % len(NAMES)], NAMES[(i * 3 + 1) % len(NAMES)]
        text = f"TODO: ask {a} about {b} before Friday." if i % 2 else f"待办：和{a}讨论{b}的问题。"
        brain.commit_turn(
            f"s{i % 7}",
            {
                "turn_id": f"t{i}",
                "messages": [{"role": "user", "content": text}, {"role": "assistant", "content": "OK."}],
            },
        )
        if i % 25 == 24:
            brain.forget(session_id=f"s{(i // 25) % 7}")
    brain.ingest(ROOT / "seeds" / "docs")
    brain.commit_turn("s9", {"turn_id": "d1", "messages": [{"role": "user", "content": "We decided to keep Neo4j."}]})
    decisions = brain.list_memory(types=["decisions"])
    assert decisions
    brain.forget(key=decisions[0]["key"])


def test_the_replayed_graph_is_the_live_graph(tmp_path: Path) -> None:
    data = tmp_path / "data"
    overrides = {"storage.backend": "embedded", "storage.data_dir": str(data), "namespace": "replay"}
    copy = tmp_path / "copy"
    brain = Brain.from_config(ROOT / "brain.yml", overrides=overrides)
    try:
        _workload(brain)
        live = _fingerprint(data / "falkordb" / "redis.sock")
        aof = data / "falkordb" / "appendonly"
        assert b"GRAPH.EFFECT" in b"".join(p.read_bytes() for p in aof.glob("*.incr.aof"))
        shutil.copytree(aof, copy / "falkordb" / "appendonly")
    finally:
        brain.close()
        EmbeddedServer(EmbeddedSettings(data_dir=data))._shutdown()

    replica = EmbeddedServer(EmbeddedSettings(data_dir=copy))
    try:
        replica.ensure_running()
        replayed = _fingerprint(copy / "falkordb" / "redis.sock")
    finally:
        replica.release()
        replica._shutdown()
    assert len(replayed[0]) == len(live[0]) and len(replayed[1]) == len(live[1])
    assert replayed[0] == live[0], "the replay put other nodes under the same ids"
    assert replayed[1] == live[1], "the replay joined other nodes by the same edges"


def test_a_server_an_older_version_started_is_switched_to_effects(tmp_path: Path) -> None:
    data = tmp_path / "data"
    overrides = {"storage.backend": "embedded", "storage.data_dir": str(data), "namespace": "older"}
    server = EmbeddedServer(EmbeddedSettings(data_dir=data))
    try:
        server.ensure_running()
        conn = redis.Redis(unix_socket_path=str(server.socket_path))
        conn.execute_command("GRAPH.CONFIG", "SET", "EFFECTS_THRESHOLD", 300)  # FalkorDB's default
        brain = Brain.from_config(ROOT / "brain.yml", overrides=overrides)
        try:
            brain.commit_turn("s", {"turn_id": "t", "messages": [{"role": "user", "content": "hello"}]})
        finally:
            brain.close()
        assert conn.execute_command("GRAPH.CONFIG", "GET", "EFFECTS_THRESHOLD")[1] == EFFECTS_THRESHOLD
        conn.close()
    finally:
        server.release()
        server._shutdown()
