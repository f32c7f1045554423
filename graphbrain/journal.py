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
import logging
import os
import socket
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphbrain.errors import StoreError

log = logging.getLogger(__name__)

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


class JournalUnwritable(StoreError):
    """The journal file cannot be written (disk full, read-only): the turn is refused, nothing half-kept."""


class JournalFull(JournalUnwritable):
    """The journal reached its bound (``storage.journal_max_mb``) with turns still pending: the turn is
    refused whole; the turns journaled before it are kept and replayed, which frees the room."""


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
    def __init__(self, path: Path, target: str | None = None, max_bytes: int | None = None) -> None:
        """``target`` names the database turns are written to (``Store.target``): entries are recorded
        with it and replayed only by a journal with the same target (entries without one, by any).

        ``max_bytes`` bounds the file (SQLite's ``max_page_count``, so a write past it fails inside its
        transaction, leaving nothing of it): at the bound, written turns are pruned first; when pending
        ones alone fill it, ``append`` raises JournalFull. A file already larger keeps its size as bound."""
        self.path = path
        self.target = target
        self.max_bytes = max_bytes
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()  # append_claimed holds it across append and claim
        # Entries this process is committing right now: a concurrent call must not replay them.
        self._inflight: set[int] = set()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
        self._wal()
        self._db.execute("PRAGMA synchronous=FULL")  # fsync on every commit: the point of a journal
        if max_bytes is not None:
            page = int(self._db.execute("PRAGMA page_size").fetchone()[0])
            self._db.execute(f"PRAGMA max_page_count = {max(2, int(max_bytes) // page)}")
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
        # Whether this process's last graph write to the target found it unreachable (kept here, as the
        # committers are made per call): while it is, a commit pings before it spends any work.
        self.target_unreachable = False

    def _wal(self, wait_s: float = 30.0) -> None:
        """Put the file in WAL mode. SQLite converts under an exclusive lock and runs no busy handler for
        it, so processes opening a new journal at once get "database is locked": WAL stays set in the file,
        so look first, and retry the conversion while another process holds the lock."""
        deadline = time.monotonic() + wait_s
        while str(self._db.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    @classmethod
    def in_data_dir(cls, data_dir: str | Path, target: str | None = None, max_mb: float | None = None) -> Journal:
        max_bytes = None if max_mb is None else int(max_mb * 1024 * 1024)
        return cls(Path(data_dir) / "journal.sqlite3", target, max_bytes)

    def size_bytes(self) -> int:
        """The bytes the journal's entries take (pages in use; pages freed by a prune are reused)."""
        with self._lock:
            page = int(self._db.execute("PRAGMA page_size").fetchone()[0])
            count = int(self._db.execute("PRAGMA page_count").fetchone()[0])
            free = int(self._db.execute("PRAGMA freelist_count").fetchone()[0])
        return (count - free) * page

    def _at_bound(self, e: sqlite3.Error) -> bool:
        """Whether a failed write failed on the bound (SQLITE_FULL with the pages up to max_page_count),
        not on the disk."""
        if self.max_bytes is None or getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_FULL:
            return False
        with self._lock:
            count = int(self._db.execute("PRAGMA page_count").fetchone()[0])
            limit = int(self._db.execute("PRAGMA max_page_count").fetchone()[0])
        return count >= limit - 4  # the file is as large as it may grow (a full disk stops it earlier)

    def append(self, namespace: str, session_id: str, turn_id: str, events: dict[str, Any]) -> int:
        """Record a turn before its graph write, owned by this process from the first moment (so no
        other process replays it while we write it); a turn already journaled keeps its first entry.

        A journal that cannot be written (the disk is full, the file read-only) raises JournalUnwritable,
        one at its bound (``max_bytes``) JournalFull: the turn is refused whole, SQLite's transaction
        keeps what was there before intact."""
        payload = json.dumps(events, ensure_ascii=False, default=str)
        with self._lock:
            if self.max_bytes is not None and not self._room_for(len(payload.encode())):
                known = self._existing(namespace, session_id, turn_id)
                if known is not None:
                    return known  # already journaled: it takes no room
                self._prune_for_room(len(payload.encode()))
            try:
                return self._append(namespace, session_id, turn_id, payload)
            except sqlite3.Error as e:
                if self._at_bound(e):  # another process filled it between the check and the insert
                    raise self._full() from e
                raise JournalUnwritable(
                    f"the commit journal {self.path} cannot be written ({e}): free space or fix its permissions;"
                    " the turn was not accepted, the turns journaled before it are kept"
                ) from e

    # Room kept free under the bound for the updates of entries already in (claims, attempts, status):
    # those must not fail because a new turn took the last page.
    RESERVE_BYTES = 64 * 1024

    def _reserve(self) -> int:
        assert self.max_bytes is not None
        return max(self.RESERVE_BYTES, self.max_bytes // 50)

    def _room_for(self, n: int) -> bool:
        assert self.max_bytes is not None
        return self.size_bytes() + 2 * n + self._reserve() <= self.max_bytes  # x2: the row and its index/slack

    def _existing(self, namespace: str, session_id: str, turn_id: str) -> int | None:
        row = self._db.execute(
            "SELECT id FROM journal WHERE namespace = ? AND session_id = ? AND turn_id = ?",
            (namespace, session_id, turn_id),
        ).fetchone()
        return None if row is None else int(row[0])

    def _full(self) -> JournalFull:
        pending = self.status()["pending"]
        return JournalFull(
            f"the commit journal {self.path} is full: {pending} turns wait to be written to the database and"
            f" fill its bound (storage.journal_max_mb: {self._max_mb()}); the turn was not accepted, the turns"
            " journaled before it are kept. Bring the database back (graphbrain journal replay writes them and"
            " frees the room) or raise storage.journal_max_mb"
        )

    def _prune_for_room(self, n: int) -> None:
        """Make room for ``n`` bytes by deleting written turns, oldest first (they are kept only for
        degraded compose and diagnosis); raise JournalFull when pending turns alone fill the bound."""
        pruned = 0
        while not self._room_for(n):
            row = self._db.execute("SELECT count(*), max(id) FROM journal WHERE status = 'done'").fetchone()
            done = int(row[0])
            if done == 0:
                if pruned:
                    log.warning("the commit journal %s: pruned %d written turns, still full", self.path, pruned)
                raise self._full()
            # The older half of the written turns (all of them when few are left).
            cut = self._db.execute(
                "SELECT id FROM journal WHERE status = 'done' ORDER BY id LIMIT 1 OFFSET ?", (max(0, done // 2 - 1),)
            ).fetchone()
            limit = int(row[1]) if done < 64 else int(cut[0])
            try:
                cur = self._db.execute("DELETE FROM journal WHERE status = 'done' AND id <= ?", (limit,))
            except sqlite3.Error as e:
                raise JournalUnwritable(f"the commit journal {self.path} cannot be written ({e})") from e
            pruned += int(cur.rowcount or 0)
        if pruned:
            log.warning(
                "the commit journal %s reached storage.journal_max_mb (%s): pruned its %d oldest written turns",
                self.path,
                self._max_mb(),
                pruned,
            )

    def _max_mb(self) -> str:
        return "none" if self.max_bytes is None else f"{self.max_bytes / 1024 / 1024:g}"

    def _append(self, namespace: str, session_id: str, turn_id: str, payload: str) -> int:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO journal"
                " (namespace, session_id, turn_id, events, created_at, updated_at, owner, claimed_at, target)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (namespace, session_id, turn_id, payload, now, now, self.owner, now, self.target),
            )
            known = self._existing(namespace, session_id, turn_id)
        assert known is not None
        return known

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
            try:
                return self._claim(entry_id)
            except sqlite3.Error as e:
                raise JournalUnwritable(f"the commit journal {self.path} cannot be written ({e})") from e

    def _claim(self, entry_id: int) -> bool:
        with self._lock:
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
            try:
                self._db.execute("UPDATE journal SET owner = NULL WHERE id = ? AND owner = ?", (entry_id, self.owner))
            except sqlite3.Error as e:  # still ours: replayed by this process, or by any once it is gone
                log.warning("the commit journal %s could not release entry %s: %s", self.path, entry_id, e)

    def mark_done(self, entry_id: int) -> None:
        self._set(entry_id, "done", None)

    def mark_failed(self, entry_id: int, error: str) -> None:
        """A turn the graph refused for a reason a retry will not fix (bad data): kept, not retried."""
        self._set(entry_id, "failed", error)

    def note_attempt(self, entry_id: int, error: str) -> None:
        with self._lock:
            try:
                self._db.execute(
                    "UPDATE journal SET attempts = attempts + 1, last_error = ?, updated_at = ? WHERE id = ?",
                    (error[:500], time.time(), entry_id),
                )
            except sqlite3.Error as e:  # a note for diagnosis: the entry itself is kept either way
                log.warning("the commit journal %s could not note an attempt of entry %s: %s", self.path, entry_id, e)

    def _set(self, entry_id: int, status: str, error: str | None) -> None:
        with self._lock:
            try:
                self._db.execute(
                    "UPDATE journal SET status = ?, last_error = coalesce(?, last_error), updated_at = ? WHERE id = ?",
                    (status, error, time.time(), entry_id),
                )
            except sqlite3.Error as e:
                raise JournalUnwritable(f"the commit journal {self.path} cannot be written ({e})") from e

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

    def find(self, namespace: str, session_id: str, turn_id: str) -> Entry | None:
        """The entry of one turn, whatever its status."""
        with self._lock:
            row = self._db.execute(
                f"SELECT {self._COLUMNS} FROM journal WHERE namespace = ? AND session_id = ? AND turn_id = ?",
                (namespace, session_id, turn_id),
            ).fetchone()
        return None if row is None else self._entry(row)

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
