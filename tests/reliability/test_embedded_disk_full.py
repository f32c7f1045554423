"""The embedded data dir's disk full: a clear error at the edge, nothing half-written, every acknowledged
turn written once space is freed.

The real FalkorDB server on a 20 MB tmpfs of the test's own (mounting needs root: skipped elsewhere),
filled by a file:

* the whole data dir full (journal and graph on one disk): the journal refuses the turn first
  (JournalUnwritable, HTTP 507), nothing of it anywhere;
* the graph's disk full but the journal's not (``falkordb/`` on its own tmpfs), with no byte left (the
  undo plan cannot be written: the write is refused before it starts) and with a few kB left (redis
  takes a statement or two, then refuses the rest with MISCONF and the undo cannot run either): the
  turn is journaled, answered "accepted, pending" (StoreFull, HTTP 507, without a journal); no read
  sees its half; once space is freed the undo runs and the journal writes every turn in order, once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.config import load_config
from graphbrain.errors import StoreFull
from graphbrain.journal import JournalUnwritable
from graphbrain.store.falkordb_store import FalkorStore

ROOT = Path(__file__).resolve().parents[2]


def _mount(path: Path, size: str = "20m") -> None:
    path.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if out.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {out.stderr.decode(errors='replace').strip()}")


def _server_pid(data_dir: Path) -> int | None:
    try:
        return int((data_dir / "falkordb" / "redis.pid").read_text().strip())
    except (OSError, ValueError):
        return None


def _kill_server(pid: int | None) -> None:
    """The test's own server, by the pid read when it started: one whose disk was full may refuse its
    SHUTDOWN (it cannot flush its AOF) after removing its pid file, and stay up."""
    if pid is None:
        return
    try:
        if "redis-server" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
            os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


@pytest.fixture()
def mounts(tmp_path: Path) -> Iterator[list[Path]]:
    made: list[Path] = []
    yield made
    for m in reversed(made):
        subprocess.run(["umount", "-l", str(m)], check=False)


def _brain(data_dir: Path, journal: bool = True) -> Brain:
    cfg = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.backend": "embedded",
            "storage.data_dir": str(data_dir),
            "storage.journal": journal,
            "namespace": f"full{uuid.uuid4().hex[:8]}",
            # The graph's behaviour is what is tested: the quick embedder keeps the test light.
            "embedding.provider": "hashing",
            "embedding.english.provider": "none",
        },
    )
    return Brain(cfg, FalkorStore(cfg.storage))


def _turn(n: int) -> dict[str, Any]:
    return {"turn_id": f"t{n}", "messages": [{"role": "user", "content": f"TODO: port module {n} before Friday."}]}


def _fill(path: Path, leave_kb: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 65536)
    except OSError:
        pass
    try:
        while True:  # the last pages too
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    if leave_kb:
        os.ftruncate(fd, os.fstat(fd).st_size - leave_kb * 1024)
    os.close(fd)


def _turns(brain: Brain) -> list[str]:
    rows = brain.store.run("bench/chaos_turns", {"namespace": brain.config.namespace, "sessions": ["s"]})
    return [str(r["turn_id"]) for r in rows]


def test_the_whole_data_dir_full_refuses_the_turn_at_the_journal(tmp_path: Path, mounts: list[Path]) -> None:
    disk = tmp_path / "disk"
    _mount(disk)
    mounts.append(disk)
    data = disk / "data"
    brain = _brain(data)
    pid = None
    try:
        brain.init_schema()
        pid = _server_pid(data)
        for n in (1, 2):
            assert brain.commit_turn("s", _turn(n)).status == "committed"
        _fill(disk / "filler", 0)
        with pytest.raises(JournalUnwritable, match="cannot be written .*not accepted"):
            brain.commit_turn("s", _turn(3))
        assert brain.journal.find(brain.config.namespace, "s", "t3") is None
        assert _turns(brain) == ["t1", "t2"]
        (disk / "filler").unlink()
        assert brain.commit_turn("s", _turn(3)).status == "committed"
        assert _turns(brain) == ["t1", "t2", "t3"]
    finally:
        brain.close()
        _kill_server(pid)


@pytest.mark.parametrize("leave_kb", [0, 3])
def test_the_graphs_disk_full_keeps_every_turn_for_later(tmp_path: Path, mounts: list[Path], leave_kb: int) -> None:
    data = tmp_path / "data"
    graph_disk = data / "falkordb"
    _mount(graph_disk)
    mounts.append(graph_disk)
    brain = _brain(data)
    bare = None
    pid = None
    try:
        brain.init_schema()
        pid = _server_pid(data)
        for n in (1, 2):
            assert brain.commit_turn("s", _turn(n)).status == "committed"
        _fill(graph_disk / "filler", leave_kb)
        answers = [brain.commit_turn("s", _turn(n)) for n in (3, 4, 5)]
        assert [a.status for a in answers] == ["pending"] * 3
        assert "cannot write" in answers[0].warnings[0] and "disk is full" in answers[0].warnings[0]
        assert [e.turn_id for e in brain.journal.pending()] == ["t3", "t4", "t5"]
        # Without a journal the same write is refused with StoreFull, which names the disk.
        bare = _brain(data, journal=False)
        with pytest.raises(StoreFull, match="disk is full"):
            bare.commit_turn("s2", _turn(9))
        # No read sees a half-written turn (the undo of a cut-short write runs before a read, or the
        # read is refused while it cannot).
        with contextlib.suppress(StoreFull):
            assert _turns(brain) == ["t1", "t2"]

        (graph_disk / "filler").unlink()
        for _ in range(50):  # redis tries its AOF again every second
            if brain.store.ping():
                break
            time.sleep(0.2)
        assert brain.commit_turn("s", _turn(6)).status == "committed"
        assert brain.journal.status()["pending"] == 0
        assert _turns(brain) == ["t1", "t2", "t3", "t4", "t5", "t6"]
    finally:
        if bare is not None:
            bare.close()
        brain.close()
        _kill_server(pid)
