"""Conflict policy (seed §1.5): what a new value for an existing type+key does to the old item.

- overwrite types (preferences, goals, tasks): the old item becomes ``superseded`` (SUPERSEDES edge);
- versioned types (decisions, events, cases, patterns, profile): history is kept as a chain of versions
  (VERSION_OF edge); the newest is the active one and wins in context;
- a retraction: the old item becomes ``retracted`` (RETRACTS edge) and the corrected fact, if any, is
  the new active item;
- a value whose key fields did not change significantly leaves the old item alone (``unchanged``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from graphbrain.contracts import OVERWRITE_TYPES, MemoryType

# The fields whose change makes a new value a conflict, per type. Other fields (notes, rationale) ride
# along with a new version but do not by themselves create one.
KEY_FIELDS: dict[MemoryType, tuple[str, ...]] = {
    MemoryType.tasks: ("status", "title"),
    MemoryType.preferences: ("value", "polarity"),
    MemoryType.goals: ("goal",),
    MemoryType.decisions: ("decision",),
    MemoryType.events: ("title", "date"),
    MemoryType.profile: ("attribute", "value"),
    MemoryType.cases: ("problem", "outcome"),
    MemoryType.patterns: ("pattern",),
    MemoryType.entities: ("name",),
}

Action = Literal["created", "superseded", "versioned", "retracted", "unchanged"]


@dataclass(frozen=True)
class Resolution:
    action: Action
    old_status: Literal["superseded", "retracted"] | None  # what happens to the old item
    edge: Literal["SUPERSEDES", "VERSION_OF", "RETRACTS"] | None
    write_new: bool
    reason: str


def _norm(v: Any) -> str:
    return re.sub(r"\s+", " ", str(v if v is not None else "")).strip().casefold()


def changed_fields(mtype: MemoryType, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    fields = KEY_FIELDS.get(mtype) or tuple(sorted(set(old) | set(new)))
    return [f for f in fields if f in new and _norm(old.get(f)) != _norm(new.get(f))]


def resolve(
    mtype: MemoryType,
    old_value: dict[str, Any] | None,
    new_value: dict[str, Any] | None,
    *,
    retraction: bool = False,
) -> Resolution:
    """Decide what a candidate does, given the current active value of its key (or None)."""
    if retraction:
        if old_value is None:
            if new_value is None:
                return Resolution("unchanged", None, None, False, "retraction names no active item")
            return Resolution("created", None, None, True, "correction written; nothing active to retract")
        return Resolution(
            "retracted",
            "retracted",
            "RETRACTS",
            new_value is not None,
            "user denied or corrected the fact" + ("; corrected fact written" if new_value else ""),
        )
    if new_value is None:
        return Resolution("unchanged", None, None, False, "no value")
    if old_value is None:
        return Resolution("created", None, None, True, "new key")
    diff = changed_fields(mtype, old_value, new_value)
    if not diff:
        return Resolution("unchanged", None, None, False, "same key fields as the active item")
    what = ", ".join(diff)
    if mtype in OVERWRITE_TYPES:
        return Resolution("superseded", "superseded", "SUPERSEDES", True, f"overwrite: {what} changed")
    return Resolution("versioned", "superseded", "VERSION_OF", True, f"new version: {what} changed")
