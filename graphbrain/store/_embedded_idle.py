"""The embedded server's idle watchdog, and the stop that it and ``EmbeddedServer`` share.

Run by ``EmbeddedServer`` as ``python -I -S _embedded_idle.py --dir D --socket S --idle SECONDS`` (by
path, stdlib only: it neither imports graphbrain nor holds its memory for the minutes it waits). It
holds ``watchdog.lock`` (one watchdog per data dir), and stops the server once no process has shared
``clients.lock`` for ``--idle`` seconds and ``last_used`` is as old; the stop happens under
``start.lock`` so no client can start using the server meanwhile. It exits when the server is gone.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import socket
import time
from pathlib import Path

_SHUTDOWN = b"*1\r\n$8\r\nSHUTDOWN\r\n"
_PING = b"*1\r\n$4\r\nPING\r\n"


def answers(socket_path: str) -> bool:
    """PING over the unix socket. A server that cannot write its AOF (the disk full) refuses PING with
    MISCONF: it is up all the same, and starting another on its data dir would be worse. One still
    loading its data answers LOADING, or nothing: not up yet (EmbeddedServer waits for it by its pid)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2.0)
            s.connect(socket_path)
            s.sendall(_PING)
            return s.recv(64).startswith((b"+PONG", b"-MISCONF"))
    except OSError:
        return False


def shutdown(socket_path: str, pid_file: Path, timeout_s: float = 30.0) -> None:
    """SHUTDOWN, and wait until the server has flushed its AOF and let go of its files (it removes its
    pid file and socket then). Not until the process has exited: FalkorDB takes ~4 s winding down its
    threads after that, writing nothing."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout_s)
            s.connect(socket_path)
            s.sendall(_SHUTDOWN)
            deadline = time.monotonic() + timeout_s
            while (pid_file.exists() or os.path.exists(socket_path)) and time.monotonic() < deadline:
                time.sleep(0.02)
    except OSError:
        return  # not running


def _busy(clients: int) -> bool:
    """Whether any process shares clients.lock now (probed without keeping it)."""
    try:
        fcntl.flock(clients, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    fcntl.flock(clients, fcntl.LOCK_UN)
    return False


def watch(directory: Path, socket_path: str, idle_s: float) -> None:
    with open(directory / "watchdog.lock", "ab") as me:
        try:
            fcntl.flock(me, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return  # another watchdog has this server
        poll = min(max(idle_s / 20, 0.2), 5.0)
        last_active = time.time()
        clients = os.open(directory / "clients.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            while answers(socket_path):
                with contextlib.suppress(OSError):
                    last_active = max(last_active, (directory / "last_used").stat().st_mtime)
                if _busy(clients):
                    last_active = time.time()
                elif time.time() - last_active >= idle_s and _stop_if_idle(directory, socket_path, clients, idle_s):
                    return
                time.sleep(poll)
        finally:
            os.close(clients)


def _stop_if_idle(directory: Path, socket_path: str, clients: int, idle_s: float) -> bool:
    with open(directory / "start.lock", "ab") as start:
        fcntl.flock(start, fcntl.LOCK_EX)
        with contextlib.suppress(OSError):
            if time.time() - (directory / "last_used").stat().st_mtime < idle_s:
                return False  # used between the check and the lock
        try:
            fcntl.flock(clients, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a client came in meanwhile
        try:
            shutdown(socket_path, directory / "redis.pid")
        finally:
            fcntl.flock(clients, fcntl.LOCK_UN)
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description="Stop graphbrain's embedded server when idle.")
    parser.add_argument("--dir", required=True, type=Path)
    parser.add_argument("--socket", required=True)
    parser.add_argument("--idle", required=True, type=float)
    args = parser.parse_args()
    watch(args.dir, args.socket, args.idle)


if __name__ == "__main__":
    main()
