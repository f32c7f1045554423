"""Chaos: the database SIGKILLed and restarted under load, then every acknowledged turn checked.

    graphbrain bench chaos --cycles 20 [--backend neo4j|embedded]

Writers commit numbered turns, each to a session of its own, in-process (threads sharing a Brain) and
over HTTP (a ``graphbrain serve`` child); each keeps a ledger of the turns that were acknowledged
(``committed``, ``accepted, pending`` or ``duplicate``) and retries a turn until it is. Readers compose
contexts in-process and over HTTP, with a timeout. Beside them runs the test suite's kind of traffic:
fresh namespaces whose first session is committed to while another thread forgets it. Meanwhile the
database is killed with SIGKILL (never a clean stop) at random moments, ``cycles`` times:

* neo4j: a server of the bench's own on ``--port`` (scripts/neo4j.sh, data under .neo4j-local/), killed
  by the pid in its pidfile and started again after a random pause;
* embedded: the redis-server of a data dir of the bench's own, killed by the pid in its pidfile; the
  next query of any process starts it again (the undo plan of a write it cut short runs first).

Then the journal is replayed and the graph compared with the ledgers: acknowledged turns lost,
duplicated, out of order per session, or without their memory item (each turn carries a TODO), sequence
gaps; reader answers by kind (a 5xx other than 503 "store unavailable" is a failure, and so is an answer
slower than its timeout); the churn's errors by kind (only "store unavailable" is expected); and, per
cycle, how long the database was down and how long after it answered again the first commit landed.
Everything runs on loopback, bounded in count and time, and stops by itself.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import threading
import time
import traceback
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphbrain.bench.http_child import HttpChild, free_port, write_config
from graphbrain.errors import GraphbrainError, StoreUnavailable

ROOT = Path(__file__).resolve().parents[2]
ACKED = ("committed", "pending", "duplicate")
TURN_RETRY_S = 180.0  # a turn not acknowledged within this is given up (and reported)
# A writer answered "accepted, pending" sends its next turn after this, as a client at a person's pace
# would: at full speed four writers journaled ~1500 turns in one 2-kill run on a loaded 2-core machine,
# and the replay of that backlog (one commit at a time, ~2 a second there) took longer than the run.
PENDING_PAUSE_S = 1.0


_SYLLABLES = ("ka", "lo", "mi", "nu", "pe", "ri", "so", "tu", "va", "ze")


def _word(writer: str, n: int) -> str:
    """A made-up word per writer and turn (digits would not keep two TODOs apart: similar tasks merge)."""
    return "".join(_SYLLABLES[int(d)] for d in f"{sum(map(ord, writer)) % 100:02d}{n}")


def chaos_turn(writer: str, n: int) -> dict[str, Any]:
    """The n-th turn of a writer, English or Chinese, with a TODO (extraction decides what it becomes: the
    check is that every item a committed answer reported is in the graph)."""
    word = _word(writer, n)
    text = f"TODO: port the {word} module before Friday." if n % 2 else f"待办：把 {word} 模块移植到新版本。"
    return {"turn_id": f"{writer}-{n}", "messages": [{"role": "user", "content": text}]}


# --------------------------------------------------------------------------------------------- targets
class Target:
    """A database the bench owns: it may kill it (SIGKILL) and bring it back."""

    backend = ""

    def start(self) -> None: ...

    def kill(self) -> None: ...

    def restart(self) -> None: ...

    def stop(self) -> None: ...

    def overrides(self) -> dict[str, Any]:
        return {}


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _sigkill(pid: int, poll_s: float) -> None:
    """SIGKILL ``pid`` and wait (up to 30 s, polling every ``poll_s``) until its process is gone."""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(poll_s)


def _pid(pidfile: Path) -> int | None:
    try:
        text = pidfile.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


# The bench's own server is made to start again quickly: on 2 cores a default one (1 GB heap, both JIT
# compilers, G1) took 40-58 s to come back under the bench's load. The bench's graph is a few MB, so a
# 512 MB heap, a 64 MB page cache, the serial collector and only the quick JIT compiler do, and Neo4j's
# classes come from a class-data-sharing archive (made once, by a clean start and stop). Measured on an
# idle 2-core machine, SIGKILL to ready: 13-17 s default, 10-11 s with these options, 7 s with the archive.
CHAOS_JAVA_OPTS = (
    "-Xms128m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError"
    " -XX:-OmitStackTraceInFastThrow -Dio.netty.tryReflectionSetAccessible=true"
)
CHAOS_PAGECACHE = "64m"
CHAOS_START_TIMEOUT_S = 300  # a restart under load may take minutes; scripts/neo4j.sh gives up after this


class Neo4jTarget(Target):
    backend = "neo4j"

    def __init__(self, port: int) -> None:
        self.port = port
        suffix = "" if port == 7687 else f"-{port}"
        self.pidfile = ROOT / ".neo4j-local" / f"neo4j{suffix}.pid"
        # The JDK checks the archive against itself and the class path, and runs without it on a mismatch.
        self.archive = ROOT / ".neo4j-local" / "chaos-classes.jsa"
        self.uri = f"bolt://127.0.0.1:{port}"
        self.script = ROOT / "scripts" / "neo4j.sh"
        if not self.script.is_file():
            raise GraphbrainError("bench chaos on neo4j needs the checkout's scripts/neo4j.sh")

    def _sh(self, cmd: str, java_opts: str | None = None) -> str:
        env = {
            **os.environ,
            "GRAPHBRAIN_NEO4J_PORT": str(self.port),
            "GRAPHBRAIN_NEO4J_NO_DOCKER": "1",
            "GRAPHBRAIN_NEO4J_START_TIMEOUT": os.environ.get(
                "GRAPHBRAIN_NEO4J_START_TIMEOUT", str(CHAOS_START_TIMEOUT_S)
            ),
            "GRAPHBRAIN_NEO4J_PAGECACHE": os.environ.get("GRAPHBRAIN_NEO4J_PAGECACHE", CHAOS_PAGECACHE),
        }
        env.pop("NEO4J_URI", None)
        if "GRAPHBRAIN_NEO4J_JAVA_OPTS" not in os.environ:  # a caller's own options win
            opts = java_opts or CHAOS_JAVA_OPTS
            if java_opts is None and self.archive.is_file():
                opts += f" -XX:SharedArchiveFile={self.archive} -Xlog:cds=off -Xlog:cds+dynamic=off"
            env["GRAPHBRAIN_NEO4J_JAVA_OPTS"] = opts
        out = subprocess.run(
            ["bash", str(self.script), cmd], env=env, capture_output=True, text=True, timeout=900, check=False
        )
        if out.returncode != 0:
            raise GraphbrainError(f"scripts/neo4j.sh {cmd} on port {self.port} failed: {out.stderr[-2000:]}")
        return out.stdout.strip()

    def _make_archive(self) -> None:
        """Start and stop the server once cleanly with the JDK recording the classes it loads (written at
        a clean exit only, so not on the SIGKILLs to come); a failure just leaves restarts slower."""
        tmp = self.archive.with_name(f"{self.archive.stem}.{os.getpid()}.tmp.jsa")
        print("  making a class-data archive of Neo4j for quicker restarts (once, ~30 s)", flush=True)
        opts = f"{CHAOS_JAVA_OPTS} -XX:ArchiveClassesAtExit={tmp} -Xlog:cds=off -Xlog:cds+dynamic=off"
        try:
            self._sh("start", java_opts=opts)
            self._sh("stop")
            if tmp.is_file() and tmp.stat().st_size > 0:
                os.replace(tmp, self.archive)
        finally:
            tmp.unlink(missing_ok=True)

    def start(self) -> None:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", self.port)) == 0 and _pid(self.pidfile) is None:
                raise GraphbrainError(f"port {self.port} is taken by a server this bench did not start: use --port")
        if not self.archive.is_file() and "GRAPHBRAIN_NEO4J_JAVA_OPTS" not in os.environ:
            self._make_archive()
        self._sh("start")

    def kill(self) -> None:
        pid = _pid(self.pidfile)
        # Only our own launcher: its pidfile's process, a neo4j-local on our port.
        if pid is None or "neo4j-local" not in _cmdline(pid) or f"--port {self.port}" not in _cmdline(pid):
            raise GraphbrainError(f"no Neo4j of this bench on port {self.port} to kill (pidfile {self.pidfile})")
        _sigkill(pid, poll_s=0.05)

    def restart(self) -> None:
        self._sh("start")

    def stop(self) -> None:
        self._sh("stop")

    def overrides(self) -> dict[str, Any]:
        return {"storage.backend": "neo4j", "storage.neo4j.uri": self.uri}


class EmbeddedTarget(Target):
    backend = "embedded"

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.pidfile = data_dir / "falkordb" / "redis.pid"

    def kill(self) -> None:
        pid = _pid(self.pidfile)
        cwd = ""
        if pid is not None:
            try:
                cwd = os.readlink(f"/proc/{pid}/cwd")
            except OSError:
                cwd = ""
        # Only the redis-server of our own data dir (redis runs in its --dir).
        if pid is None or "redis-server" not in _cmdline(pid) or Path(cwd) != (self.data_dir / "falkordb").resolve():
            raise GraphbrainError(f"no embedded server of this bench to kill (pidfile {self.pidfile})")
        _sigkill(pid, poll_s=0.02)

    def restart(self) -> None:
        """Nothing: the next query of any process starts the server again."""

    def stop(self) -> None:
        from graphbrain.store.falkordb_store import EmbeddedServer, EmbeddedSettings

        EmbeddedServer(EmbeddedSettings(data_dir=self.data_dir))._shutdown()

    def overrides(self) -> dict[str, Any]:
        return {"storage.backend": "embedded"}


# --------------------------------------------------------------------------------------------- workers
@dataclass
class Ledger:
    writer: str
    session: str
    acked: list[str] = field(default_factory=list)
    acked_as: dict[str, str] = field(default_factory=dict)  # turn id → the status it was acknowledged with
    statuses: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    given_up: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)  # memory items a committed answer said it wrote


@dataclass
class Shared:
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_committed: float = 0.0
    reader_answers: Counter[str] = field(default_factory=Counter)
    reader_slow: int = 0
    reader_5xx: int = 0
    churn: Counter[str] = field(default_factory=Counter)
    # The traceback of the first error of each unexpected kind (all but StoreUnavailable), also appended
    # to ``trace_log``: a kind's count alone does not say where it was raised.
    tracebacks: dict[str, str] = field(default_factory=dict)
    trace_log: Path | None = None

    def committed(self) -> None:
        with self.lock:
            self.last_committed = time.monotonic()

    def note(self, where: str, e: BaseException) -> str:
        """An error's kind (see _kind); the first of each unexpected kind is kept with its traceback."""
        kind = _kind(e)
        if isinstance(e, StoreUnavailable):
            return kind
        key = f"{where} {kind}"
        with self.lock:
            if key in self.tracebacks:
                return kind
            tb = "".join(traceback.format_exception(e))
            self.tracebacks[key] = tb
            if self.trace_log is not None:
                with open(self.trace_log, "a", encoding="utf-8") as f:
                    f.write(f"--- {key} (thread {threading.current_thread().name}, {time.ctime()})\n{tb}\n")
        return kind


def _kind(e: BaseException) -> str:
    """An error's kind: its class, and for anything but the expected "store unavailable" its message."""
    if isinstance(e, StoreUnavailable):
        return type(e).__name__
    return f"{type(e).__name__}: {str(e)[:160]}"


def _write_loop(call: Any, ledger: Ledger, shared: Shared) -> None:
    n = 0
    while not shared.stop.is_set():
        n += 1
        turn = chaos_turn(ledger.writer, n)
        deadline = time.monotonic() + TURN_RETRY_S
        while True:
            try:
                status, items = call(ledger.session, turn)
            except Exception as e:  # a client retries: counted, then the same turn again
                status, items = None, []
                ledger.errors[shared.note(f"writer {ledger.writer}", e)] += 1
            if status in ACKED:
                ledger.acked.append(turn["turn_id"])
                ledger.acked_as[turn["turn_id"]] = str(status)
                ledger.statuses[str(status)] += 1
                if status == "committed":
                    ledger.items += items
                    shared.committed()
                elif status == "pending":
                    shared.stop.wait(PENDING_PAUSE_S)
                break
            if time.monotonic() > deadline:
                ledger.given_up.append(turn["turn_id"])
                break
            if shared.stop.is_set():
                break  # the run is over: an unacknowledged turn is nobody's promise
            time.sleep(0.2)


def _read_loop(call: Any, sessions: list[str], shared: Shared, limit_s: float, rng: random.Random) -> None:
    while not shared.stop.is_set():
        t0 = time.monotonic()
        try:
            kind = call(rng.choice(sessions), rng.choice(["what is left to fix?", "还有哪些待办？"]))
        except Exception as e:
            kind = shared.note("reader", e)
        took = time.monotonic() - t0
        with shared.lock:
            shared.reader_answers[kind] += 1
            if took > limit_s:
                shared.reader_slow += 1
            if kind.startswith("http 5") and not kind.startswith("http 503 store_unavailable"):
                shared.reader_5xx += 1
        time.sleep(0.1)


def _churn_loop(brain: Any, shared: Shared) -> None:
    """The test suite's kind of traffic: a fresh namespace's first session committed to while another
    thread forgets it (the interleaving that once gave the session lock no sequence number)."""
    from graphbrain.brain import Brain

    while not shared.stop.is_set():
        ns = f"chaos-churn-{uuid.uuid4().hex[:8]}"
        b = Brain(brain.config.model_copy(update={"namespace": ns}), brain.store)

        def forget(b: Brain = b) -> None:
            for _ in range(3):
                try:
                    b.forget(whole_namespace=True)
                    shared.churn["forget ok"] += 1
                except Exception as e:
                    shared.churn[f"forget {shared.note('churn forget', e)}"] += 1
                time.sleep(0.05)

        t = threading.Thread(target=forget)
        t.start()
        for i in range(3):
            try:
                b.commit_turn("s", {"turn_id": f"c{i}", "messages": [{"role": "user", "content": f"TODO: churn {i}"}]})
                shared.churn["commit ok"] += 1
            except Exception as e:
                shared.churn[f"commit {shared.note('churn commit', e)}"] += 1
        t.join()
        try:
            b.forget(whole_namespace=True)
        except Exception as e:
            shared.churn[f"cleanup {shared.note('churn cleanup', e)}"] += 1


# --------------------------------------------------------------------------------------------- the run
@dataclass
class Cycle:
    n: int
    down_s: float
    recovery_s: float | None


def run_chaos(
    config_path: str | None = None,
    *,
    backend: str = "neo4j",
    cycles: int = 20,
    writers: int = 2,
    http_writers: int = 2,
    readers: int = 1,
    http_readers: int = 1,
    port: int = 7691,
    seed: int | None = None,
    up_s: tuple[float, float] = (3.0, 8.0),
    pause_s: tuple[float, float] = (0.0, 2.0),
) -> dict[str, Any]:
    """Run the chaos (see the module docstring) and return the report."""
    import httpx

    from graphbrain.brain import Brain
    from graphbrain.config import find_config

    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix=f"graphbrain-chaos-{backend}-"))
    data_dir = work / "data"
    target: Target = Neo4jTarget(port) if backend == "neo4j" else EmbeddedTarget(data_dir)
    ns = f"chaos-{uuid.uuid4().hex[:8]}"
    settings: dict[str, Any] = {
        **target.overrides(),
        "storage.data_dir": str(data_dir),
        "storage.journal": True,
        "storage.neo4j.connection_timeout_s": 2,
        "storage.neo4j.max_retry_time_s": 2,
        "storage.neo4j.query_timeout_s": 20,
        "namespace": ns,
    }
    reader_limit_s = 60.0  # compose may wait for a connection and a query: well past both timeouts is a hang
    target.start()
    child: HttpChild | None = None
    shared = Shared(trace_log=work / "errors.log")
    ledgers: list[Ledger] = []
    threads: list[threading.Thread] = []
    try:
        # The bench's own database may be new: the schema is created here, not asked for.
        brain = Brain.from_config(config_path, overrides=settings, check_schema=False)
    except BaseException:
        target.stop()
        raise
    client = httpx.Client(timeout=reader_limit_s)
    cycle_log: list[Cycle] = []
    try:
        brain.init_schema()
        brain.warm_up()
        if http_writers or http_readers:
            base = find_config(config_path)
            cfg_file = work / "brain.yml"
            # The child answers compose from the journal while the database is away (marked degraded).
            write_config(
                Path(base) if base else None,
                cfg_file,
                {**settings, "server.auth": False, "storage.degraded_compose": True},
            )
            child = HttpChild(cfg_file, free_port(), work / "serve.log")
            child.wait_ready(client)

        def inproc_commit(session: str, turn: dict[str, Any]) -> tuple[str, list[str]]:
            result = brain.commit_turn(session, turn)
            return str(result.status), [m.id for m in result.memory_written if m.status == "active"]

        def http_commit(session: str, turn: dict[str, Any]) -> tuple[str, list[str]]:
            assert child is not None
            r = client.post(f"{child.url}/v1/commit_turn", json={"session_id": session, "turn_events": turn})
            if r.status_code != 200:
                raise RuntimeError(f"http {r.status_code}")
            body = r.json()
            return str(body.get("status")), [m["id"] for m in body.get("memory_written", []) if m["status"] == "active"]

        def inproc_read(session: str, text: str) -> str:
            pkg = brain.compose_context(session, text)
            return "ok degraded" if pkg.debug.degraded else "ok"

        def http_read(session: str, text: str) -> str:
            assert child is not None
            r = client.post(f"{child.url}/v1/compose_context", json={"session_id": session, "user_message": text})
            if r.status_code == 200:
                return "ok degraded" if r.json().get("debug", {}).get("degraded") else "ok"
            kind = (r.json().get("error") or {}).get("type", "") if "json" in r.headers.get("content-type", "") else ""
            return f"http {r.status_code} {kind}".strip()

        for i in range(writers + http_writers):
            name = f"w{i}" if i < writers else f"h{i}"
            ledger = Ledger(writer=name, session=f"chaos-{name}")
            ledgers.append(ledger)
            commit = inproc_commit if i < writers else http_commit
            threads.append(threading.Thread(target=_write_loop, args=(commit, ledger, shared), name=f"chaos-{name}"))
        sessions = [ledger.session for ledger in ledgers]
        for i in range(readers + http_readers):
            read = inproc_read if i < readers else http_read
            args = (read, sessions, shared, reader_limit_s, random.Random(rng.random()))
            threads.append(threading.Thread(target=_read_loop, args=args, name=f"chaos-reader-{i}"))
        threads.append(threading.Thread(target=_churn_loop, args=(brain, shared), name="chaos-churn"))
        for t in threads:
            t.start()

        for n in range(1, cycles + 1):
            time.sleep(rng.uniform(*up_s))
            t_kill = time.monotonic()
            target.kill()
            time.sleep(rng.uniform(*pause_s))
            target.restart()
            t_up = time.monotonic()
            recovery: float | None = None
            deadline = t_up + 300
            while time.monotonic() < deadline:
                with shared.lock:
                    if shared.last_committed > t_up:
                        recovery = shared.last_committed - t_up
                        break
                time.sleep(0.05)
            cycle_log.append(Cycle(n, round(t_up - t_kill, 2), None if recovery is None else round(recovery, 2)))
            print(f"  cycle {n}/{cycles}: down {t_up - t_kill:.1f} s, first commit after {recovery} s", flush=True)
        time.sleep(rng.uniform(*up_s))
    except BaseException:
        shared.stop.set()
        brain.close()
        target.stop()
        raise
    finally:
        shared.stop.set()
        for t in threads:
            t.join(timeout=TURN_RETRY_S + 60)
        if child is not None:
            child.stop()
        client.close()
    try:
        return _verify(brain, backend, ns, cycles, ledgers, shared, cycle_log)
    finally:
        brain.close()
        target.stop()


def _journal_view(brain: Any, ns: str, session: str, turn_id: str) -> dict[str, Any] | None:
    entry = brain.journal.find(ns, session, turn_id)
    if entry is None:
        return None
    return {"id": entry.id, "status": entry.status, "attempts": entry.attempts, "last_error": entry.last_error}


def _verify(
    brain: Any,
    backend: str,
    ns: str,
    cycles: int,
    ledgers: list[Ledger],
    shared: Shared,
    cycle_log: list[Cycle],
) -> dict[str, Any]:
    from graphbrain.bench.load import check_invariants, invariants_hold

    # Whatever is still pending is written now (the database answers again).
    for _ in range(20):
        try:
            brain.replay_journal()
        except StoreUnavailable:
            time.sleep(1)
            continue
        if brain.journal.status()["pending"] == 0:
            break
    pending_left = brain.journal.status()["pending"]
    rows = brain.store.run("bench/chaos_turns", {"namespace": ns, "sessions": [x.session for x in ledgers]})
    by_session: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_session.setdefault(str(r["session_id"]), []).append(r)
    lost, duplicated, out_of_order, no_messages, unacked_written, gaps = 0, 0, 0, 0, 0, 0
    lost_turns: list[dict[str, Any]] = []  # what is known of each lost turn, to explain it
    disorder: list[dict[str, Any]] = []  # the same for each pair of turns written out of order
    for ledger in ledgers:
        graph = by_session.get(ledger.session, [])
        ids = [str(r["turn_id"]) for r in graph]
        counts = Counter(ids)
        duplicated += sum(c - 1 for c in counts.values() if c > 1)
        seqs = [int(r["seq"]) for r in graph]
        gaps += int(seqs != list(range(1, len(seqs) + 1)))
        position = {tid: i for i, tid in enumerate(ids)}
        acked = set(ledger.acked)
        for tid in ledger.acked:
            if tid not in position:
                lost += 1
                lost_turns.append(
                    {
                        "turn_id": tid,
                        "acknowledged_as": ledger.acked_as.get(tid),
                        "journal": _journal_view(brain, ns, ledger.session, tid),
                    }
                )
        present = [position[tid] for tid in ledger.acked if tid in position]
        swapped = [(a, b) for a, b in zip(present, present[1:], strict=False) if b < a]
        out_of_order += len(swapped)
        for a, b in swapped:
            # What is known of both turns of a swapped pair, to explain how the later one got in first.
            pair = [ids[b], ids[a]]
            disorder.append(
                {
                    "session": ledger.session,
                    "acknowledged_first": [(t, ledger.acked_as.get(t)) for t in pair],
                    "graph_seq": [int(graph[i]["seq"]) for i in (b, a)],
                    "journal": [_journal_view(brain, ns, ledger.session, t) for t in pair],
                }
            )
        messages = {str(r["turn_id"]): int(r["messages"]) for r in graph}
        no_messages += sum(1 for tid in ledger.acked if tid in messages and messages[tid] == 0)
        unacked_written += sum(1 for tid in ids if tid not in acked)
    told = sorted({i for ledger in ledgers for i in ledger.items})
    found = {str(r["id"]) for r in brain.store.run("bench/chaos_items", {"namespace": ns, "ids": told})}
    items_missing = len(set(told) - found)
    inv = check_invariants(brain.store, ns)
    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for ledger in ledgers:
        statuses.update(ledger.statuses)
        errors.update({f"{ledger.writer[0]} {k}": v for k, v in ledger.errors.items()})
    recoveries = [c.recovery_s for c in cycle_log if c.recovery_s is not None]
    churn_bad = {k: v for k, v in shared.churn.items() if not k.endswith(("ok", "StoreUnavailable"))}
    report = {
        "backend": backend,
        "namespace": ns,
        "cycles": len(cycle_log),
        "cycles_asked": cycles,
        "writers": {
            "in_process": sum(1 for x in ledgers if x.writer.startswith("w")),
            "http": sum(1 for x in ledgers if x.writer.startswith("h")),
        },
        "turns_acknowledged": sum(len(x.acked) for x in ledgers),
        "acknowledged_by_status": dict(statuses),
        "turns_given_up": sum(len(x.given_up) for x in ledgers),
        "writer_errors_retried": dict(errors),
        "lost": lost,
        "lost_turns": lost_turns,
        "duplicated": duplicated,
        "out_of_order": out_of_order,
        "out_of_order_turns": disorder,
        "seq_gap_sessions": gaps,
        "acknowledged_without_messages": no_messages,
        "memory_items_reported": len(told),
        "memory_items_missing": items_missing,
        "written_but_unacknowledged": unacked_written,
        "journal_pending_after": pending_left,
        "invariants": {k: (len(v) if isinstance(v, list) else v) for k, v in inv.items()},
        "reader_answers": dict(shared.reader_answers),
        "reader_5xx": shared.reader_5xx,
        "reader_over_timeout": shared.reader_slow,
        "churn": dict(shared.churn),
        "churn_unexpected_errors": churn_bad,
        "down_s": [c.down_s for c in cycle_log],
        "recovery_s": [c.recovery_s for c in cycle_log],
        "recovery_s_max": max(recoveries) if recoveries else None,
        "first_tracebacks": dict(shared.tracebacks),
        "trace_log": str(shared.trace_log) if shared.tracebacks else None,
    }
    report["ok"] = (
        len(cycle_log) == cycles
        and lost == duplicated == out_of_order == no_messages == gaps == items_missing == 0
        and not report["turns_given_up"]
        and pending_left == 0
        and shared.reader_5xx == 0
        and shared.reader_slow == 0
        and not churn_bad
        and len(recoveries) == len(cycle_log)
        and invariants_hold(inv)
    )
    return report


def format_chaos(r: dict[str, Any]) -> str:
    rec = [x for x in r["recovery_s"] if x is not None]
    lines = [
        f"chaos: {r['backend']}, {r['cycles']} SIGKILLs of the database, writers {r['writers']}",
        f"  turns acknowledged   {r['turns_acknowledged']}  {r['acknowledged_by_status']}"
        f"  (given up {r['turns_given_up']})",
        f"  lost {r['lost']}  duplicated {r['duplicated']}  out of order {r['out_of_order']}"
        f"  seq-gap sessions {r['seq_gap_sessions']}  without messages {r['acknowledged_without_messages']}"
        f"  memory items reported {r['memory_items_reported']}, missing {r['memory_items_missing']}",
        *(f"    lost {x}" for x in r["lost_turns"]),
        *(f"    out of order {x}" for x in r.get("out_of_order_turns", [])),
        f"  journal pending after replay {r['journal_pending_after']}; written but unacknowledged"
        f" {r['written_but_unacknowledged']}",
        f"  writer errors (retried) {r['writer_errors_retried']}",
        f"  reader answers {r['reader_answers']}",
        f"  reader 5xx (other than 503 store_unavailable) {r['reader_5xx']}  over timeout {r['reader_over_timeout']}",
        f"  churn {r['churn']}  unexpected {r['churn_unexpected_errors']}",
        f"  down s      {r['down_s']}",
        f"  recovery s  {r['recovery_s']}"
        + (f"  (median {sorted(rec)[len(rec) // 2]}, max {max(rec)})" if rec else ""),
        f"  {'OK' if r['ok'] else 'FAILED'}",
    ]
    if r.get("first_tracebacks"):
        lines.append(f"  first traceback of each unexpected error kind (all in {r.get('trace_log')}):")
        for key, tb in r["first_tracebacks"].items():
            lines += [f"  --- {key}", *("    " + x for x in tb[-3000:].splitlines())]
    return "\n".join(lines)


def main_chaos(
    config_path: str | None, backend: str, cycles: int, port: int, seed: int | None, as_json: bool
) -> dict[str, Any]:
    """``graphbrain bench chaos``: run, print the figures (or JSON), return the report."""
    report = run_chaos(config_path, backend=backend, cycles=cycles, port=port, seed=seed)
    print(json.dumps(report, ensure_ascii=False, indent=2) if as_json else format_chaos(report))
    return report
