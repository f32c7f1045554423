"""commit_turn with the journal in front: accepted turns survive an unreachable or restarting Neo4j.

journal.append (fsync) → replay earlier pending turns → graph commit → journal.mark_done
                                                 └─ server unreachable → "accepted, pending"
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from graphbrain.commit.pipeline import CommitPipeline, validate_session_id
from graphbrain.contracts import CommitResult, TurnEvents, utcnow
from graphbrain.errors import InputError, StoreError, StoreFull, StoreUnavailable
from graphbrain.journal import Journal, JournalUnwritable

log = logging.getLogger(__name__)

# How long a commit waits for another worker writing an earlier turn of its session before it answers
# "accepted, pending" (a commit takes ~0.1 s; a replayed backlog longer).
BUSY_WAIT_S = 10.0


class DurableCommitter:
    def __init__(self, pipeline: CommitPipeline, journal: Journal, default_namespace: str) -> None:
        self.pipeline = pipeline
        self.journal = journal
        self.default_namespace = default_namespace

    def commit(self, session_id: str, turn_events: Any) -> CommitResult:
        session_id = validate_session_id(session_id)
        ev = TurnEvents.parse(turn_events)
        # Fix the turn's identity, time and namespace now, so a replay is the very same turn: a replay
        # may run in a Brain of another namespace sharing the data dir (and so the journal).
        ns = ev.namespace or self.default_namespace
        ev = ev.model_copy(update={"turn_id": ev.turn_id or uuid.uuid4().hex, "at": ev.at or utcnow(), "namespace": ns})
        assert ev.turn_id is not None
        events = ev.model_dump(mode="json", exclude_none=True)
        entry, claimed = self.journal.append_claimed(ns, session_id, ev.turn_id, events)
        # Not claimed: this very turn is being committed by another caller right now; ours goes on and
        # is answered "duplicate" by the graph (the Turn id is unique), never written twice.
        try:
            return self._commit_claimed(entry, session_id, ev, ns)
        finally:
            if claimed:
                self.journal.release(entry)

    def _commit_claimed(self, entry: int, session_id: str, ev: TurnEvents, ns: str) -> CommitResult:
        assert ev.turn_id is not None
        if self.journal.target_unreachable and not self.pipeline.store.ping():
            # Still away: journaled only. Extracting the turn (and replaying the backlog) for a write that
            # must fail would take the CPU a restarting server needs, once per call while it is down.
            return self._pending(
                entry, session_id, ev.turn_id, ns, "the graph is unreachable or cannot write (no answer to a ping)"
            )
        try:
            # An earlier turn of this session being written by another worker right now must land first:
            # wait for it a little, then leave ours in the journal behind it (order is kept either way).
            deadline = time.monotonic() + BUSY_WAIT_S
            while True:
                busy: set[tuple[str, str]] = set()
                self.replay(stop_before=entry, busy=busy)
                if (ns, session_id) not in busy:
                    break
                if time.monotonic() > deadline:
                    return self._pending(
                        entry, session_id, ev.turn_id, ns, "an earlier turn of this session is still being written"
                    )
                time.sleep(0.05)
            result = self.pipeline.commit(session_id, ev)
        except StoreUnavailable as e:
            self.journal.target_unreachable = True
            self.journal.note_attempt(entry, str(e))
            why = f"the graph cannot write ({e})" if isinstance(e, StoreFull) else f"the graph is unreachable ({e})"
            return self._pending(entry, session_id, ev.turn_id, ns, why)
        except (InputError, StoreError) as e:
            # The graph refused the turn itself (bad data, a constraint): retrying will not help, so it
            # is kept in the journal as failed, never replayed blindly.
            self.journal.mark_failed(entry, str(e))
            raise
        self.journal.target_unreachable = False
        try:
            self.journal.mark_done(entry)
        except JournalUnwritable as e:
            # The turn is in the graph; left pending, a later replay answers it "duplicate".
            log.warning("turn %s is written but the journal could not mark it done: %s", ev.turn_id, e)
        return result

    def _pending(self, entry: int, session_id: str, turn_id: str, ns: str, why: str) -> CommitResult:
        return CommitResult(
            ok=True,
            status="pending",
            commit_id=f"journal:{entry}",
            session_id=session_id,
            turn_id=turn_id,
            namespace=ns,
            warnings=[
                f"accepted, pending: {why}; the turn is journaled and will be written when the database "
                "answers (graphbrain journal status / replay)"
            ],
        )

    def replay(self, *, stop_before: int | None = None, busy: set[tuple[str, str]] | None = None) -> list[CommitResult]:
        """Write pending turns in journal order; stops at the first that still cannot reach the graph.

        A turn another worker is writing right now is skipped, and so is every later turn of its session
        (they must land after it); those sessions are added to ``busy``."""
        done: list[CommitResult] = []
        skipped: set[tuple[str, str]] = set() if busy is None else busy
        for e in self.journal.pending():
            if stop_before is not None and e.id >= stop_before:
                break
            if (e.namespace, e.session_id) in skipped:
                continue
            if not self.journal.claim(e.id):
                skipped.add((e.namespace, e.session_id))  # another worker is committing it right now
                continue
            try:
                # The entry's namespace, never the replaying Brain's (entries journaled before turns
                # carried theirs have it only in this column).
                done.append(self.pipeline.commit(e.session_id, {**e.events, "namespace": e.namespace}))
            except StoreUnavailable as err:
                self.journal.target_unreachable = True
                self.journal.note_attempt(e.id, str(err))
                raise
            except (InputError, StoreError) as err:
                self.journal.mark_failed(e.id, str(err))
                log.warning("journaled turn %s failed permanently: %s", e.turn_id, err)
                continue
            finally:
                self.journal.release(e.id)
            self.journal.target_unreachable = False
            self.journal.mark_done(e.id)
        return done
