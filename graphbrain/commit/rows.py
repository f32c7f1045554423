"""The rows one commit writes: memory items (resolved against the active item of their key) and entities."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from typing import Any

from graphbrain.commit.candidate import Candidate
from graphbrain.commit.conflicts import resolve
from graphbrain.commit.events import TurnRecord
from graphbrain.contracts import CommitExplain, ConflictDecision, MemoryType, MemoryWritten
from graphbrain.ids import new_id
from graphbrain.nlp import detect_language
from graphbrain.store.json_props import loads_object


def dump_json(v: Any) -> str:
    """The stored form of a value (sorted keys, so equal values compare equal as text)."""
    return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)


@dataclass
class Planned:
    """A kept candidate, ready to be resolved against the active item of its key."""

    cand: Candidate
    message_pos: int | None
    confidence: float


@dataclass
class EntityPlan:
    id: str
    key: str
    lock_id: str
    kind: str
    canonical: str
    name: str
    count: int
    message_id: str | None
    mentions: list[dict[str, Any]] = field(default_factory=list)
    memory_ids: list[str] = field(default_factory=list)
    reason: str = ""
    passed: bool = False  # through the gate: an entity memory item; else a candidate (graph only)


def locked_keys(planned: list[Planned]) -> list[str]:
    """The memory keys a commit writes or retracts, sorted (the lock order that avoids deadlocks)."""
    return sorted({p.cand.key for p in planned} | {p.cand.retracts_key for p in planned if p.cand.retracts_key})


def entity_pairs(entities: list[EntityPlan]) -> list[list[str]]:
    """The co-mentioned entity pairs a commit relates (capped: a turn naming 30 things is not 435 facts)."""
    return [[a.id, b.id] for a, b in combinations(sorted(entities, key=lambda x: x.id), 2)][:200]


@dataclass
class MemoryWrites:
    """What the planned items become: new item rows, items only retracted, and what the result reports."""

    items: list[dict[str, Any]] = field(default_factory=list)
    retract_only: list[dict[str, Any]] = field(default_factory=list)
    written: list[MemoryWritten] = field(default_factory=list)
    stage_events: list[str] = field(default_factory=list)  # what may trigger a summary


def memory_writes(
    rec: TurnRecord,
    planned: list[Planned],
    item_vectors: list[Any],
    item_english: list[Any],
    active: dict[str, dict[str, Any]],
    explain: CommitExplain,
) -> MemoryWrites:
    """Resolve each planned item against the active item of its key (``active``, updated as items are
    planned, so a later candidate of the turn resolves against an earlier one); conflict decisions go to
    ``explain``."""
    ns = rec.namespace
    at = rec.at
    out = MemoryWrites()
    items, retract_only, written, stage_events = out.items, out.retract_only, out.written, out.stage_events
    for p, vec, vec_en in zip(planned, item_vectors, item_english, strict=True):
        c = p.cand
        target_key = c.retracts_key or c.key
        old = active.get(target_key)
        old_value = loads_object(old["value_json"]) if old else None
        res = resolve(c.type, old_value, c.value if c.value else None, retraction=c.retracts)
        if res.action == "unchanged":
            explain.conflicts.append(
                ConflictDecision(
                    key=c.key,
                    type=c.type.value,
                    action="unchanged",
                    old_id=old["id"] if old else None,
                    reason=res.reason,
                )
            )
            continue
        if c.retracts and old and (not res.write_new or c.key != target_key):
            retract_only.append({"id": old["id"], "at": at})
            explain.conflicts.append(
                ConflictDecision(
                    key=target_key,
                    type=c.type.value,
                    action="retracted",
                    old_id=old["id"],
                    old_value=old_value,
                    new_value=c.value or None,
                    reason=res.reason,
                )
            )
            written.append(
                MemoryWritten(
                    id=old["id"],
                    type=c.type,
                    key=target_key,
                    confidence=float(old.get("confidence") or 0),
                    status="retracted",
                    action="retracted",
                )
            )
            active.pop(target_key, None)
            if not res.write_new:
                continue
            old, old_value = active.get(c.key), None
            if old:
                old_value = loads_object(old["value_json"])
                res = resolve(c.type, old_value, c.value)
                if res.action == "unchanged":
                    continue
        item_id = new_id("mem")
        version = int(old.get("version") or 1) + 1 if old else 1
        msg_pos = p.message_pos
        items.append(
            {
                "id": item_id,
                "type": c.type.value,
                "lock_id": f"{ns}|{c.key}",
                "old_id": old["id"] if old and res.old_status else None,
                "old_status": res.old_status if old else None,
                "edge": res.edge if old else None,
                "at": at,
                "created_at": at,
                "embedding": vec,
                "embedding_en": vec_en,
                "message_node_id": rec.messages[msg_pos]["id"] if msg_pos is not None else None,
                "props": {
                    "type": c.type.value,
                    "key": c.key,
                    "value_json": dump_json(c.value),
                    "text": c.searchable_text(),
                    "language": detect_language(c.searchable_text()),
                    "confidence": round(p.confidence, 4),
                    "status": "active",
                    "source": c.source,
                    "source_session_id": rec.session_id,
                    "source_turn_id": rec.turn_id,
                    "source_message_id": rec.messages[msg_pos]["message_id"] if msg_pos is not None else None,
                    "evidence_refs": list(c.evidence_refs),
                    "version": version,
                    "rule": c.reason,
                    "missing_embedding": vec is None,
                    "task_status": c.value.get("status") if c.type == MemoryType.tasks else None,
                },
            }
        )
        if old and res.old_status:
            explain.conflicts.append(
                ConflictDecision(
                    key=c.key,
                    type=c.type.value,
                    action=res.action if res.action != "created" else "superseded",
                    old_id=old["id"],
                    new_id=item_id,
                    old_value=old_value,
                    new_value=c.value,
                    reason=res.reason,
                )
            )
            written.append(
                MemoryWritten(
                    id=old["id"],
                    type=c.type,
                    key=c.key,
                    confidence=float(old.get("confidence") or 0),
                    status=res.old_status,
                    action=res.old_status,
                )
            )
        action = "created" if not old else ("versioned" if res.edge == "VERSION_OF" else "updated")
        written.append(
            MemoryWritten(
                id=item_id,
                type=c.type,
                key=c.key,
                confidence=round(p.confidence, 4),
                status="active",
                action=action,
            )
        )
        # The item now holds the key: a later candidate in this turn resolves against it.
        active[c.key] = {
            "id": item_id,
            "value_json": dump_json(c.value),
            "version": version,
            "confidence": p.confidence,
        }
        if c.type == MemoryType.tasks and c.value.get("status") == "done":
            stage_events.append(f"task done: {c.key}")
        elif c.type == MemoryType.decisions:
            stage_events.append(f"decision made: {c.key}")
        elif c.type == MemoryType.events:
            stage_events.append(f"event: {c.key}")
    return out


def entity_rows(
    entities: list[EntityPlan],
    entity_vectors: list[Any],
    candidates: list[EntityPlan],
    items: list[dict[str, Any]],
    at: datetime,
    confidence: float,
) -> list[dict[str, Any]]:
    """The entity rows, those through the gate (with their vectors and the items that name them) and the
    candidates (graph only), sorted by id: every writer takes the entity nodes' locks in the same order, so
    two commits naming the same entities queue instead of deadlocking."""
    rows: list[dict[str, Any]] = []
    for e, vec in [*zip(entities, entity_vectors, strict=True), *((c, None) for c in candidates)]:
        named = e.name.casefold()
        mem_ids = [it["id"] for it in items if named in it["props"]["text"].casefold()] if e.passed else []
        rows.append(
            {
                "id": e.id,
                "status": "active" if e.passed else "candidate",
                "key": e.key,
                "lock_id": e.lock_id,
                "kind": e.kind,
                "canonical": e.canonical,
                "name": e.name,
                "count": e.count,
                "message_id": e.message_id,
                "mentions": e.mentions,
                "memory_ids": mem_ids,
                "at": at,
                "embedding": vec,
                "confidence": confidence,
                "value_json": dump_json({"name": e.name, "kind": e.kind, "canonical": e.canonical}),
            }
        )
    return sorted(rows, key=lambda r: r["id"])
