"""The embedded server outlives the command that started it, is shared by the next ones, and is stopped
by its watchdog once idle; with idle_stop_s 0 it stops with its last user. Commands that need no model
load none. Real processes, a real FalkorDB, each in a data dir of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphbrain import Brain
from graphbrain.store.embedded_server import EmbeddedServer, EmbeddedSettings
from graphbrain.store.falkordb_store import FalkorStore

# Modules only a model load imports: the embedding runtime, spaCy, jieba.
MODEL_MODULES = ("onnxruntime", "spacy", "jieba", "fastembed")


@pytest.fixture()
def data_dir(tmp_path: Path) -> Iterator[Path]:
    d = (tmp_path / "data").resolve()
    yield d
    EmbeddedServer(EmbeddedSettings(data_dir=d)).stop()


def _env(data_dir: Path, idle: float) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_URI"}
    env.update(
        GRAPHBRAIN_STORAGE_BACKEND="embedded",
        GRAPHBRAIN_DATA_DIR=str(data_dir),
        GRAPHBRAIN_EMBEDDED_IDLE_STOP_S=str(idle),
        GRAPHBRAIN_EMBEDDING_PROVIDER="hashing",
        GRAPHBRAIN_NAMESPACE="lifecycle",
    )
    return env


def _cli(data_dir: Path, idle: float, *args: str) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(
        [sys.executable, "-m", "graphbrain.interfaces.cli", *args],
        env=_env(data_dir, idle),
        cwd=str(data_dir.parent),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return out


def _pid(data_dir: Path) -> int:
    return int((data_dir / "falkordb" / "redis.pid").read_text().strip())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped) counts as gone.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ", 1)[1].startswith("Z"))


def _wait(cond: object, timeout_s: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if cond():  # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


def test_server_is_shared_by_later_commands_and_stopped_when_idle(data_dir: Path) -> None:
    server = EmbeddedServer(EmbeddedSettings(data_dir=data_dir))
    _cli(data_dir, 4, "init")
    assert server.running(), "the server outlives the command that started it"
    pid = _pid(data_dir)
    _cli(data_dir, 4, "memory", "list")
    assert _pid(data_dir) == pid, "the next command reuses it instead of starting its own"
    # While a process uses it, idleness does not count.
    settings = EmbeddedSettings(data_dir=data_dir, idle_stop_s=4)
    holder = FalkorStore(settings)
    assert holder.ping()
    time.sleep(8)
    assert server.running() and _pid(data_dir) == pid
    holder.close()
    # Once nobody uses it, the watchdog stops it (and then exits).
    assert _wait(lambda: not server.running()), "the idle server was not stopped"
    assert _wait(lambda: not _alive(pid))
    assert not _watchdogs(data_dir)
    # The next command starts it again; the data is there.
    listed = json.loads(_cli(data_dir, 4, "memory", "list", "--json").stdout)
    assert listed == []
    assert server.running()


def _watchdogs(data_dir: Path) -> list[str]:
    out = subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if "_embedded_idle.py" in line and str(data_dir) in line]


def test_idle_stop_zero_stops_with_the_last_user(data_dir: Path) -> None:
    server = EmbeddedServer(EmbeddedSettings(data_dir=data_dir))
    _cli(data_dir, 0, "init")
    assert not server.running()
    assert not _watchdogs(data_dir)


def test_memory_list_loads_no_model(data_dir: Path) -> None:
    """A command that needs no model loads none: init, memory list and traces prune import no model runtime."""
    code = (
        "import sys; from graphbrain.interfaces.cli import main\n"
        "for argv in (['init'], ['memory', 'list'], ['traces', 'prune', '--keep-last', '5', '--yes']):\n"
        "    try:\n"
        "        main(argv, standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"print(sorted(m for m in {MODEL_MODULES!r} if m in sys.modules))\n"
    )
    env = _env(data_dir, 0)
    env.pop("GRAPHBRAIN_EMBEDDING_PROVIDER")  # the real default provider: it must not be loaded either
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


def test_a_brain_in_a_script_leaves_the_server_for_the_next(data_dir: Path) -> None:
    """The Python API shares the same life: a script's Brain leaves the server up for the next one."""
    os.environ["GRAPHBRAIN_EMBEDDED_IDLE_STOP_S"], old = "30", os.environ["GRAPHBRAIN_EMBEDDED_IDLE_STOP_S"]
    try:
        with Brain.from_config(
            overrides={"storage.backend": "embedded", "storage.data_dir": str(data_dir), "storage.journal": False}
        ) as brain:
            assert brain.store.ping()
    finally:
        os.environ["GRAPHBRAIN_EMBEDDED_IDLE_STOP_S"] = old
    assert EmbeddedServer(EmbeddedSettings(data_dir=data_dir)).running()


def _servers(data_dir: Path) -> list[int]:
    """The pids of the redis-servers running on the data dir (redis titles itself with its socket)."""
    out = subprocess.run(["ps", "-ww", "-eo", "pid=,args="], capture_output=True, text=True, check=True).stdout
    rows = (line.split(None, 1) for line in out.splitlines() if "redis-server" in line and str(data_dir) in line)
    return [int(pid) for pid, _ in rows]


def test_a_server_still_loading_is_waited_for_never_started_twice(data_dir: Path) -> None:
    """A large graph takes a while to load (35 s for a 10k-item graph on a busy machine, PINGs unanswered while
    FalkorDB rebuilds its indexes), longer than startup_timeout_s. The process that started the server
    waits for it while it runs, and so does one arriving meanwhile: a process once gave up, and the next
    started a second server on the same data dir, which took over the socket and the pid file while both
    held the AOF."""
    settings = EmbeddedSettings(data_dir=data_dir, idle_stop_s=0)
    store = FalkorStore(settings)
    store.cypher("CREATE INDEX FOR (n:Probe) ON (n.v)", write=True)
    store.cypher("UNWIND range(1, 600000) AS i CREATE (:Probe {v: i})", write=True)
    store.close()  # idle_stop_s 0: the server stops with it
    assert not EmbeddedServer(settings).running()

    counts: list[object] = []

    def count() -> None:
        impatient = FalkorStore(EmbeddedSettings(data_dir=data_dir, startup_timeout_s=0.5))
        try:
            counts.append(impatient.cypher("MATCH (n:Probe) RETURN count(n) AS n").rows[0]["n"])
        except Exception as e:  # noqa: BLE001 (reported by the assert below)
            counts.append(e)
        finally:
            impatient.close()

    threads = [threading.Thread(target=count) for _ in range(2)]
    for thread in threads:
        thread.start()
        time.sleep(0.3)  # the second arrives while the first's server loads
    for thread in threads:
        thread.join(timeout=120)
    assert counts == [600000, 600000]
    assert _servers(data_dir) == [_pid(data_dir)]
