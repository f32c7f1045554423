"""commit_turn with the journal in front: accepted turns survive an unreachable or restarting Neo4j.

journal.append (fsync) → replay earlier pending turns → graph commit → journal.mark_done
                                                 └─ server unreachable → "accepted, pending"
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from graphbrain.commit.pipeline import CommitPipeline, validate_session_id
from graphbrain.contracts import CommitResult, TurnEvents, utcnow
from graphbrain.errors import InputError, StoreError, StoreUnavailable
from graphbrain.journal import Journal

log = logging.getLogger(__name__)


class DurableCommitter:
    def __init__(self, pipeline: CommitPipeline, journal: Journal, default_namespace: str) -> None:
        self.pipeline = pipeline
        self.journal = journal
        self.default_namespace = default_namespace

    def commit(self, session_id: str, turn_events: Any) -> CommitResult:
        session_id = validate_session_id(session_id)
        ev = TurnEvents.parse(turn_events)
        # Fix the turn's identity and time now, so a replay is the very same turn.
        ev = ev.model_copy(update={"turn_id": ev.turn_id or uuid.uuid4().hex, "at": ev.at or utcnow()})
        ns = ev.namespace or self.default_namespace
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
        try:
            self.replay(stop_before=entry)
            result = self.pipeline.commit(session_id, ev)
        except StoreUnavailable as e:
            self.journal.note_attempt(entry, str(e))
            return CommitResult(
                ok=True,
                status="pending",
                commit_id=f"journal:{entry}",
                session_id=session_id,
                turn_id=ev.turn_id,
                namespace=ns,
                warnings=[
                    f"accepted, pending: the graph is unreachable ({e}); the turn is journaled and "
                    "will be written when the database answers (graphbrain journal status / replay)"
                ],
            )
        except (InputError, StoreError) as e:
            # The graph refused the turn itself (bad data, a constraint): retrying will not help, so it
            # is kept in the journal as failed, never replayed blindly.
            self.journal.mark_failed(entry, str(e))
            raise
        self.journal.mark_done(entry)
        return result

    def replay(self, *, stop_before: int | None = None) -> list[CommitResult]:
        """Write pending turns in journal order; stops at the first that still cannot reach the graph."""
        done: list[CommitResult] = []
        for e in self.journal.pending():
            if stop_before is not None and e.id >= stop_before:
                break
            if not self.journal.claim(e.id):
                continue  # another thread of this process is committing it right now
            try:
                done.append(self.pipeline.commit(e.session_id, e.events))
            except StoreUnavailable as err:
                self.journal.note_attempt(e.id, str(err))
                raise
            except (InputError, StoreError) as err:
                self.journal.mark_failed(e.id, str(err))
                log.warning("journaled turn %s failed permanently: %s", e.turn_id, err)
                continue
            finally:
                self.journal.release(e.id)
            self.journal.mark_done(e.id)
        return done
