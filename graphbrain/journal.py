"""A durable local journal for commit_turn: nothing is lost when Neo4j is away.

Every turn is appended to a SQLite file in ``storage.data_dir`` (WAL, ``synchronous=FULL``: fsync'd
before the call returns) *before* the graph write, and marked done after it. When the graph write fails
because the server is unreachable, the turn stays pending and the call answers "accepted, pending".
Pending turns are replayed in order — on the next call, at start-up and by ``graphbrain journal replay``
— and because a committed turn is recognised by its turn id, a replay never writes a turn twice.

Several processes may share one journal (workers of one app on one host). Each entry carries the
owner committing it (``host:pid:token``); a replay takes only entries nobody owns, entries of an owner
process that is gone (same host, pid not alive) or whose claim is older than ``STALE_CLAIM_S``, so a
worker never replays — and races — a turn another live worker is writing at that moment.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  namespace TEXT NOT NULL,
  session_id TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  events TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',   -- pending | done | failed
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL,
  UNIQUE (namespace, session_id, turn_id)
);
CREATE INDEX IF NOT EXISTS journal_pending ON journal (status, id);
"""

# Columns added after the first release: added in place to an older journal file.
LATER_COLUMNS = {"owner": "TEXT", "claimed_at": "REAL", "target": "TEXT"}

# A claim older than this is free to take even when its owner cannot be checked (another host).
STALE_CLAIM_S = 600.0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class Entry:
    id: int
    namespace: str
    session_id: str
    turn_id: str
    events: dict[str, Any]
    status: str
    attempts: int
    last_error: str | None
    created_at: float


class Journal:
    def __init__(self, path: Path, target: str | None = None) -> None:
        """``target`` names the database turns are written to (``Store.target``): entries are recorded
        with it and replayed only by a journal with the same target (entries without one, by any)."""
        self.path = path
        self.target = target
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()  # append_claimed holds it across append and claim
        # Entries this process is committing right now: a concurrent call must not replay them.
        self._inflight: set[int] = set()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # fsync on every commit: the point of a journal
        self._db.executescript(SCHEMA)
        have = {r[1] for r in self._db.execute("PRAGMA table_info(journal)").fetchall()}
        for column, kind in LATER_COLUMNS.items():
            if column not in have:
                try:
                    self._db.execute(f"ALTER TABLE journal ADD COLUMN {column} {kind}")
                except sqlite3.OperationalError as e:  # another process opening it added it first
                    if "duplicate column" not in str(e):
                        raise
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    @classmethod
    def in_data_dir(cls, data_dir: str | Path, target: str | None = None) -> Journal:
        return cls(Path(data_dir) / "journal.sqlite3", target)

    def append(self, namespace: str, session_id: str, turn_id: str, events: dict[str, Any]) -> int:
        """Record a turn before its graph write, owned by this process from the first moment (so no
        other process replays it while we write it); a turn already journaled keeps its first entry."""
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO journal"
                " (namespace, session_id, turn_id, events, created_at, updated_at, owner, claimed_at, target)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    namespace,
                    session_id,
                    turn_id,
                    json.dumps(events, ensure_ascii=False, default=str),
                    now,
                    now,
                    self.owner,
                    now,
                    self.target,
                ),
            )
            row = self._db.execute(
                "SELECT id FROM journal WHERE namespace = ? AND session_id = ? AND turn_id = ?",
                (namespace, session_id, turn_id),
            ).fetchone()
        return int(row[0])

    def append_claimed(self, namespace: str, session_id: str, turn_id: str, events: dict[str, Any]) -> tuple[int, bool]:
        """``append`` and ``claim`` as one step for this process's threads: no other thread's replay can
        take a new entry between the two. Returns the entry id and whether this caller holds it."""
        with self._lock:
            entry = self.append(namespace, session_id, turn_id, events)
            return entry, self.claim(entry)

    def claim(self, entry_id: int) -> bool:
        """Take an entry for committing; False when another thread of this process or another live
        process is committing it right now."""
        with self._lock:
            if entry_id in self._inflight:
                return False
            self._db.execute("BEGIN IMMEDIATE")  # the check and the take are one step across processes
            try:
                row = self._db.execute("SELECT owner, claimed_at FROM journal WHERE id = ?", (entry_id,)).fetchone()
                if row is None or not self._free(row[0], row[1]):
                    self._db.execute("ROLLBACK")
                    return False
                self._db.execute(
                    "UPDATE journal SET owner = ?, claimed_at = ? WHERE id = ?", (self.owner, time.time(), entry_id)
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._inflight.add(entry_id)
            return True

    def _free(self, owner: str | None, claimed_at: float | None) -> bool:
        if owner is None or owner == self.owner:
            return True
        if claimed_at is None or time.time() - claimed_at > STALE_CLAIM_S:
            return True
        host, _, rest = owner.partition(":")
        pid = rest.partition(":")[0]
        return host == socket.gethostname() and pid.isdigit() and not _alive(int(pid))

    def release(self, entry_id: int) -> None:
        """Give an entry back (written, or still pending for a later replay by anyone)."""
        with self._lock:
            self._inflight.discard(entry_id)
            self._db.execute("UPDATE journal SET owner = NULL WHERE id = ? AND owner = ?", (entry_id, self.owner))

    def mark_done(self, entry_id: int) -> None:
        self._set(entry_id, "done", None)

    def mark_failed(self, entry_id: int, error: str) -> None:
        """A turn the graph refused for a reason a retry will not fix (bad data): kept, not retried."""
        self._set(entry_id, "failed", error)

    def note_attempt(self, entry_id: int, error: str) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE journal SET attempts = attempts + 1, last_error = ?, updated_at = ? WHERE id = ?",
                (error[:2000], time.time(), entry_id),
            )

    def _set(self, entry_id: int, status: str, error: str | None) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE journal SET status = ?, last_error = coalesce(?, last_error), updated_at = ? WHERE id = ?",
                (status, error, time.time(), entry_id),
            )

    def pending(self, limit: int | None = None) -> list[Entry]:
        """Pending entries for this journal's target (and entries recorded without one), oldest first."""
        sql = f"SELECT {self._COLUMNS} FROM journal WHERE status = 'pending'"
        args: tuple[Any, ...] = ()
        if self.target is not None:
            sql += " AND (target IS NULL OR target = ?)"
            args = (self.target,)
        sql += " ORDER BY id"
        if limit:
            sql += f" LIMIT {int(limit)}"
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [self._entry(r) for r in rows]

    def recent(self, namespace: str, session_id: str, limit: int) -> list[Entry]:
        """The session's last ``limit`` journaled turns (written or pending), oldest first."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._COLUMNS} FROM journal WHERE namespace = ? AND session_id = ? AND status <> 'failed'"
                " ORDER BY id DESC LIMIT ?",
                (namespace, session_id, int(limit)),
            ).fetchall()
        return [self._entry(r) for r in reversed(rows)]

    def pending_elsewhere(self) -> dict[str, int]:
        """Pending entries meant for other databases, by target: never replayed from here."""
        if self.target is None:
            return {}
        with self._lock:
            rows = self._db.execute(
                "SELECT target, count(*) FROM journal WHERE status = 'pending' AND target IS NOT NULL"
                " AND target <> ? GROUP BY target",
                (self.target,),
            ).fetchall()
        return {str(t): int(n) for t, n in rows}

    def status(self) -> dict[str, int]:
        with self._lock:
            rows = self._db.execute("SELECT status, count(*) FROM journal GROUP BY status").fetchall()
        out = {"pending": 0, "done": 0, "failed": 0}
        out.update({str(s): int(n) for s, n in rows})
        elsewhere = sum(self.pending_elsewhere().values())
        out["pending"] -= elsewhere  # "pending" is what this journal's target will replay
        out["pending_elsewhere"] = elsewhere
        return out

    def prune_done(self, older_than_s: float = 7 * 86400) -> int:
        with self._lock:
            cur = self._db.execute(
                "DELETE FROM journal WHERE status = 'done' AND updated_at < ?", (time.time() - older_than_s,)
            )
        return int(cur.rowcount or 0)

    @staticmethod
    def _entry(r: tuple[Any, ...]) -> Entry:
        return Entry(
            id=int(r[0]),
            namespace=r[1],
            session_id=r[2],
            turn_id=r[3],
            events=json.loads(r[4]),
            status=r[5],
            attempts=int(r[6]),
            last_error=r[7],
            created_at=float(r[8]),
        )

    _COLUMNS = "id, namespace, session_id, turn_id, events, status, attempts, last_error, created_at"

    def close(self) -> None:
        with self._lock:
            self._db.close()
