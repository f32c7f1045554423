"""The memory types (with their key prefixes and graph labels) and the stored MemoryItem."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field

from graphbrain.contracts.base import _Strict


class MemoryType(StrEnum):
    profile = "profile"
    preferences = "preferences"
    goals = "goals"
    tasks = "tasks"
    decisions = "decisions"
    entities = "entities"
    events = "events"
    cases = "cases"
    patterns = "patterns"


# Key prefix per type (CONTRACTS.md §2).
KEY_PREFIX: dict[MemoryType, str] = {
    MemoryType.profile: "profile",
    MemoryType.preferences: "pref",
    MemoryType.goals: "goal",
    MemoryType.tasks: "task",
    MemoryType.decisions: "decision",
    MemoryType.entities: "entity",
    MemoryType.events: "event",
    MemoryType.cases: "case",
    MemoryType.patterns: "pattern",
}

# Graph label per type.
TYPE_LABEL: dict[MemoryType, str] = {
    MemoryType.profile: "Profile",
    MemoryType.preferences: "Preference",
    MemoryType.goals: "Goal",
    MemoryType.tasks: "Task",
    MemoryType.decisions: "Decision",
    MemoryType.entities: "EntityMemory",
    MemoryType.events: "Event",
    MemoryType.cases: "Case",
    MemoryType.patterns: "Pattern",
}

OVERWRITE_TYPES = frozenset({MemoryType.preferences, MemoryType.goals, MemoryType.tasks})
VERSIONED_TYPES = frozenset(
    {MemoryType.decisions, MemoryType.events, MemoryType.cases, MemoryType.patterns, MemoryType.profile}
)

MemoryStatus = Literal["active", "superseded", "retracted"]
TaskStatus = Literal["todo", "doing", "done", "blocked"]


class MemoryItem(_Strict):
    id: str
    namespace: str
    type: MemoryType
    key: str
    value: dict[str, Any]
    text: str
    confidence: float = Field(ge=0, le=1)
    status: MemoryStatus = "active"
    source: Literal["user", "assistant", "tool", "inferred"] = "user"
    source_session_id: str | None = None
    source_turn_id: str | None = None
    source_message_id: str | None = None
    evidence_refs: list[str] = Field(default_factory=list)
    version: int = 1
    created_at: datetime
    updated_at: datetime


# What `from graphbrain.contracts import ...` re-exports from this module.
__all__ = ["KEY_PREFIX", "MemoryItem", "MemoryStatus", "MemoryType", "OVERWRITE_TYPES", "TYPE_LABEL"]
__all__ += ["TaskStatus", "VERSIONED_TYPES"]
