"""The session inside the commit transaction: its lock and next sequence number, and its rolling summary."""

from __future__ import annotations

from typing import Any

from graphbrain.commit import consolidate
from graphbrain.commit.events import TurnRecord
from graphbrain.config import BrainConfig
from graphbrain.contracts import SummaryInfo
from graphbrain.errors import StoreStateError
from graphbrain.ids import stable_id
from graphbrain.store import Tx


def lock_session(tx: Tx, rec: TurnRecord) -> tuple[dict[str, Any], int]:
    """Lock the turn's Session (created on first use) and take its next sequence number: (its row, seq)."""
    ns = rec.namespace
    at = rec.at
    locked = tx.run(
        "commit/lock_session",
        {
            "session_node_id": rec.session_node_id,
            "namespace": ns,
            "session_id": rec.session_id,
            "at": at,
        },
    )
    lock = locked[0] if len(locked) == 1 else {}
    seq = lock.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise StoreStateError(
            f"commit/lock_session gave no sequence number for session {rec.session_id!r} "
            f"(node {rec.session_node_id}, namespace {ns!r}): it answered {locked!r}; "
            "graphbrain never writes a Session without last_seq"
        )
    return lock, seq


def update_summary(
    tx: Tx,
    config: BrainConfig,
    rec: TurnRecord,
    lock: dict[str, Any],
    seq: int,
    turn_tokens: int,
    stage_events: list[str],
) -> SummaryInfo:
    """Rewrite the session summary when the consolidation policy says so, else count the turn's tokens."""
    upto = int(lock.get("summary_upto_seq") or 0)
    tokens = int(lock.get("tokens_since_summary") or 0) + turn_tokens
    trig = consolidate.should_summarize(
        config,
        turns_since_summary=seq - upto,
        tokens_since_summary=tokens,
        stage_events=stage_events,
    )
    if not trig.triggered:
        tx.run(
            "commit/update_session_summary_counters",
            {"session_node_id": rec.session_node_id, "tokens_since_summary": tokens},
        )
        return SummaryInfo(updated=False, triggered=False)
    inputs = tx.run(
        "commit/summary_inputs",
        {
            "session_node_id": rec.session_node_id,
            "namespace": rec.namespace,
            "session_id": rec.session_id,
            "from_seq": upto,
            "to_seq": seq,
        },
    )[0]
    text = consolidate.build_summary(inputs["items"], inputs["refs"], inputs["entities"], inputs["user_messages"])
    version = int(lock.get("summary_version") or 0) + 1
    rng = [upto + 1, seq]
    tx.run(
        "commit/write_summary",
        {
            "session_node_id": rec.session_node_id,
            "summary_id": stable_id("sum", rec.namespace, rec.session_id, version),
            "namespace": rec.namespace,
            "version": version,
            "text": text,
            "range": rng,
            "at": rec.at,
            "reason": trig.reason,
        },
    )
    return SummaryInfo(updated=True, triggered=True, reason=trig.reason, version=version, source_turn_range=rng)
