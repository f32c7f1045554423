"""replay_commits: commit a session's stored turns again under another config and diff the memory.

The TurnEvents of the session's stored turns are rebuilt (same turn_id, message_id, at, role, content,
tool calls, refs, metadata) and committed, in seq order, into a scratch namespace
``<namespace>__replay_<hex>`` under ``other``; the memory items written (type, key, status, confidence,
version) are diffed against those the session wrote in the real namespace, and the scratch namespace
is deleted (checked: no node is left). Items are matched by (type, key, source turn, n-th item of that
key in the turn). The replay sees only this session: items of other sessions that the original commits
resolved against (or entities another session made known) are not there, which the notes say.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from graphbrain.brain import Brain, load_embedder
from graphbrain.config import BrainConfig
from graphbrain.contracts import ExplicitItem, Message, RefIn, ToolCall, TurnEvents
from graphbrain.errors import InputError
from graphbrain.ids import stable_id
from graphbrain.replay.report import CommitReplayReport, CommitReplayTotals, MemoryChange, MemoryState
from graphbrain.store import Store
from graphbrain.store.json_props import loads

CONFIDENCE_EPS = 1e-6
SCRATCH_MARK = "__replay_"
SCRATCH_DELETE_BATCH = 5000
NAMESPACE_MAX = 128  # BrainConfig.namespace / TurnEvents.namespace max_length


def scratch_namespace(namespace: str) -> str:
    """A fresh scratch namespace for one replay: ``<namespace>__replay_<12 hex>``, within the length limit."""
    tail = f"{SCRATCH_MARK}{uuid.uuid4().hex[:12]}"
    return namespace[: NAMESPACE_MAX - len(tail)] + tail


def _turn_events(row: Mapping[str, Any], items: Sequence[Mapping[str, Any]], namespace: str) -> TurnEvents:
    """The TurnEvents a stored turn was committed from, as far as the EventStore records it."""
    messages = []
    for m in sorted(row["messages"], key=lambda m: int(m.get("position") or 0)):
        messages.append(
            Message(
                message_id=m.get("message_id"),
                role=m["role"],
                content=m.get("content") or "",
                name=m.get("name"),
                tool_calls=[
                    ToolCall(id=c["call_id"], name=c["name"], args=loads(c.get("args_json")) or {})
                    for c in sorted(m.get("tool_calls") or [], key=lambda c: str(c["call_id"]))
                ],
                tool_call_id=m.get("tool_call_id"),
                status=m.get("status"),
                result=loads(m.get("result_json")),
                at=m.get("at"),
            )
        )
    refs = [
        RefIn(type=r["type"], uri=r["uri"], title=r.get("title"), metadata=loads(r.get("metadata_json")) or {})
        for r in sorted(row["refs"], key=lambda r: str(r["uri"]))
    ]
    explicit = [
        ExplicitItem(
            type=it["type"],
            key=it["key"],
            value=loads(it.get("value_json")) or {},
            source=it.get("source") or "tool",
            evidence_refs=list(it.get("evidence_refs") or []),
        )
        for it in items
    ]
    return TurnEvents(
        turn_id=row["turn_id"],
        at=row["at"],
        namespace=namespace,
        messages=messages,
        refs=refs,
        items=explicit,
        metadata=loads(row.get("metadata_json")) or {},
    )


def _item_index(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, str | None, int], MemoryState]:
    """Memory rows keyed by (type, key, source turn, n-th of that key in the turn by version)."""
    seen: Counter[tuple[str, str, str | None]] = Counter()
    out: dict[tuple[str, str, str | None, int], MemoryState] = {}
    for r in sorted(
        rows, key=lambda r: (str(r["type"]), str(r["key"]), str(r.get("source_turn_id")), int(r.get("version") or 1))
    ):
        base = (str(r["type"]), str(r["key"]), r.get("source_turn_id"))
        seen[base] += 1
        out[(*base, seen[base])] = MemoryState(
            status=str(r.get("status")),
            confidence=round(float(r.get("confidence") or 0.0), 6),
            version=int(r.get("version") or 1),
        )
    return out


def _diff_memory(
    stored: Sequence[Mapping[str, Any]], replayed: Sequence[Mapping[str, Any]]
) -> tuple[list[MemoryChange], CommitReplayTotals]:
    a, b = _item_index(stored), _item_index(replayed)
    changes: list[MemoryChange] = []
    totals = CommitReplayTotals()
    for k in [*a, *(k for k in b if k not in a)]:
        mtype, key, turn, n = k
        old, new = a.get(k), b.get(k)
        if old is not None and new is not None:
            fields = []
            if old.status != new.status:
                fields.append("status")
                totals.status_changed += 1
            if abs(old.confidence - new.confidence) > CONFIDENCE_EPS:
                fields.append("confidence")
                totals.confidence_changed += 1
            if old.version != new.version:
                fields.append("version")
                totals.version_changed += 1
            if not fields:
                continue
            totals.changed += 1
            change: Literal["added", "removed", "changed"] = "changed"
        elif new is not None:
            fields, change = [], "added"
            totals.added += 1
        else:
            fields, change = [], "removed"
            totals.removed += 1
        changes.append(
            MemoryChange(
                type=mtype,
                key=key,
                source_turn_id=turn,
                occurrence=n,
                change=change,
                stored=old,
                replayed=new,
                fields=fields,
            )
        )
    return changes, totals


def drop_scratch(store: Store, namespace: str) -> int:
    """Delete a scratch namespace completely; returns the nodes left (0 when it is gone)."""
    if SCRATCH_MARK not in namespace:
        # Never point this at a real namespace: the Cypher refuses too, this says why.
        raise InputError(
            f"{namespace!r} is not a replay scratch namespace", [{"field": "namespace", "reason": "not scratch"}]
        )
    while True:
        rows = store.run(
            "replay/delete_scratch_batch", {"namespace": namespace, "batch": SCRATCH_DELETE_BATCH}, write=True
        )
        if not rows or int(rows[0]["deleted"]) == 0:
            break
    rows = store.run("replay/count_namespace", {"namespace": namespace})
    return int(rows[0]["nodes"]) if rows else 0


def replay_commits(brain: Brain, other_config: BrainConfig, *, session_id: str) -> CommitReplayReport:
    """Re-extract a session's stored turns under ``other_config`` in a scratch namespace and diff the
    memory items written against what the session stored; the scratch namespace is deleted after."""
    from graphbrain.commit.pipeline import CommitPipeline, validate_session_id

    session_id = validate_session_id(session_id)
    ns = brain.namespace
    store = brain.store
    turns = sorted(
        store.run("replay/session_turns", {"session_node_id": stable_id("ses", ns, session_id)}),
        key=lambda t: int(t["seq"]),
    )
    if not turns:
        raise InputError(
            f"session {session_id!r} has no stored turns in namespace {ns!r}",
            [{"field": "session_id", "reason": "no turns"}],
        )
    explicit: dict[str, list[dict[str, Any]]] = {}
    for it in store.run("replay/session_explicit_items", {"namespace": ns, "session_id": session_id}):
        explicit.setdefault(str(it["turn_id"]), []).append(it)

    scratch = scratch_namespace(ns)
    cfg = other_config.model_copy(deep=True)
    cfg.namespace = scratch
    # Ref ingestion writes documents, not memory items, and may fetch URLs: a replay does neither.
    cfg.policies.retention.ingest_refs = "off"
    # The pipeline itself, not Brain.commit_turn: a scratch turn must never enter the durable journal,
    # where a pending one would be written again after its scratch namespace is gone. Only the main
    # model: the scratch items get no English vectors (the diff compares no vector).
    pipeline = CommitPipeline(cfg, store, lambda: load_embedder(cfg))
    report = CommitReplayReport(
        session_id=session_id,
        namespace=ns,
        scratch_namespace=scratch,
        baseline_fingerprint=brain.config.fingerprint(),
        other_fingerprint=other_config.fingerprint(),
        reconstructed_items=sum(len(v) for v in explicit.values()),
    )
    left = -1
    try:
        for row in turns:
            pipeline.commit(session_id, _turn_events(row, explicit.get(str(row["turn_id"]), []), scratch))
            report.turns_replayed += 1
        replayed = store.run("replay/session_memory", {"namespace": scratch, "session_id": session_id})
    finally:
        # Also when a commit fails half-way: a scratch namespace must never outlive its replay.
        left = drop_scratch(store, scratch)
    stored = store.run("replay/session_memory", {"namespace": ns, "session_id": session_id})
    report.stored_items, report.replayed_items = len(stored), len(replayed)
    report.changes, report.totals = _diff_memory(stored, replayed)
    report.changed = bool(report.changes)
    report.scratch_removed = left == 0
    if left:
        report.notes.append(f"{left} node(s) of {scratch} could not be deleted: run the replay cleanup again")
    report.notes.append(
        "the session is replayed alone: items of other sessions that its commits resolved against, and "
        "entities other sessions made known, are not in the scratch namespace"
    )
    if report.reconstructed_items:
        report.notes.append(
            f"{report.reconstructed_items} explicit item(s) (TurnEvents.items) are not in the EventStore and "
            "were rebuilt from the memory they wrote: a caller-given confidence or retraction flag is not known"
        )
    return report
