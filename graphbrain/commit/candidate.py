"""The memory candidate extraction proposes, what extraction may know of the session, and its rendering.

A Candidate is a memory item before the retention gate: typed, keyed (see ``keys``), with the span of text
it came from. ``explicit_to_candidate`` and ``entity_to_candidate`` make one from the other two sources.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, NamedTuple

from graphbrain.commit import keys
from graphbrain.config import NlpConfig
from graphbrain.contracts import ExplicitItem, MemoryStatus, MemoryType
from graphbrain.nlp.candidate import EntityCandidate

Role = Literal["user", "assistant", "tool", "system"]
Source = Literal["user", "assistant", "tool", "inferred"]  # MemoryItem.source
ConfidenceClass = Literal["user_asserted", "tool_derived", "inferred"]


_ROLE_SOURCE: dict[str, Source] = {"user": "user", "assistant": "assistant", "tool": "tool"}
_ROLE_CLASS: dict[str, ConfidenceClass] = {"user": "user_asserted", "tool": "tool_derived"}


def confidence_class_of(role: str) -> ConfidenceClass:
    """The confidence class of what ``role`` (or an item's source) says: user → user_asserted, tool →
    tool_derived, anything else inferred."""
    return _ROLE_CLASS.get(role, "inferred")


class ActiveItem(NamedTuple):
    """An active memory item known to the caller: what status changes and retractions refer to."""

    type: MemoryType
    key: str
    value: dict[str, Any]


@dataclass
class ExtractionContext:
    """What extraction may know beyond the message itself.

    ``active_items``: active memory items as (type, key, value), oldest first (the last one is the
    most recent, which "no, that's wrong" refers to when nothing else matches). ``known_projects``:
    project names that count when merely mentioned ("for graphbrain"); the projects of the active
    items' keys are added automatically. ``default_project``: the session's project when the text
    names none. ``now``: the turn's time, for event dates and relative due dates.
    """

    active_items: Sequence[tuple[MemoryType | str, str, dict[str, Any]]] = ()
    known_projects: Collection[str] = ()
    default_project: str | None = None
    now: datetime | None = None
    nlp: NlpConfig | None = None

    def items(self) -> list[ActiveItem]:
        return [ActiveItem(MemoryType(t), k, dict(v)) for t, k, v in self.active_items]

    def of_type(self, mtype: MemoryType) -> list[ActiveItem]:
        return [i for i in self.items() if i.type == mtype]

    def projects(self) -> set[str]:
        found = {p for p in self.known_projects if p}
        for _, key, _ in self.active_items:
            proj = keys.key_project(key)
            if proj and proj != keys.GENERAL_PROJECT:
                found.add(proj)
        return found


@dataclass
class Candidate:
    """A memory item proposed by extraction (or reported explicitly), before the retention gate.

    ``value`` is shaped per type: tasks {title, status, project, due?, notes?}; decisions {topic,
    decision, choice?, rationale?, project}; preferences {scope, name, value, polarity, over?}; goals
    {project, goal, by?}; events {kind, title, date, date_source, project}; profile {subject,
    attribute, value}; entities {name, canonical, kind, aliases}.

    Retractions: ``retracts`` is True, ``corrects`` names the (type, key) of the active item the user
    denied (None when nothing known matched; ``retracts_key`` is its key), ``wrong`` is the denied value
    as said, and ``value`` is the corrected fact, to be written under ``key`` (the corrected item's key
    whenever one matched).

    ``source`` is the MemoryItem source (user / assistant / tool / inferred), derived from ``role``
    unless given. After ``retention.gate``, ``gate_reason`` says why the candidate was kept or dropped
    and ``confidence`` holds its seed §1.4 confidence.
    """

    type: MemoryType
    key: str
    value: dict[str, Any]
    text: str
    confidence_class: ConfidenceClass
    role: Role
    span: tuple[int, int]
    reason: str
    retracts: bool = False
    corrects: tuple[MemoryType, str] | None = None
    wrong: str | None = None
    stable: bool = True  # preferences / goals: lasting wording, not a one-off ("this time", "这次")
    hedged: bool = False  # said speculatively ("maybe", "可能"): not a fact yet
    confirmed: bool = False  # an assistant / inferred item the user confirmed
    explicit: bool = False  # reported as a structured item (TurnEvents.items), not extracted from text
    confidence: float | None = None  # an explicit confidence (explicit items); the gate clamps it
    status: MemoryStatus | None = None
    evidence_refs: list[str] = field(default_factory=list)
    source: Source | None = None
    gate_reason: str | None = None

    @classmethod
    def rendered(
        cls,
        mtype: MemoryType,
        key: str,
        value: dict[str, Any],
        *,
        role: Role,
        span: tuple[int, int],
        reason: str,
        confidence_class: ConfidenceClass | None = None,
        **more: Any,
    ) -> Candidate:
        """A candidate whose text is its value's rendering; its confidence class follows ``role`` unless given."""
        return cls(
            type=mtype,
            key=key,
            value=value,
            text=render(mtype, value),
            confidence_class=confidence_class or confidence_class_of(role),
            role=role,
            span=span,
            reason=reason,
            **more,
        )

    def __post_init__(self) -> None:
        if self.source is None:
            self.source = _ROLE_SOURCE.get(self.role, "inferred")

    @property
    def retracts_key(self) -> str | None:
        """The key of the item this candidate retracts (None if it retracts nothing known)."""
        return self.corrects[1] if self.retracts and self.corrects is not None else None

    @property
    def corrected(self) -> bool:
        """True when this candidate is the corrected version of something the user denied."""
        return self.retracts and self.corrects is not None

    def searchable_text(self) -> str:
        """The memory item's searchable text: "[type:key] rendering" (CONTRACTS.md §2)."""
        return f"[{self.type.value}:{self.key}] {self.text}"


# ====================================================================================== rendering
def render(mtype: MemoryType, value: Mapping[str, Any]) -> str:
    """A readable one-line rendering of a value, used as the item's text."""
    v = value
    if mtype == MemoryType.tasks:
        extra = [f"due {v['due']}"] if v.get("due") else []
        if v.get("notes"):
            extra.append(str(v["notes"]))
        tail = f" ({'; '.join(extra)})" if extra else ""
        return f"Task [{v.get('status', 'todo')}] {v.get('title', '')}{tail} — project {v.get('project', '')}"
    if mtype == MemoryType.decisions:
        why = f", because {v['rationale']}" if v.get("rationale") else ""
        return f"Decision on {v.get('topic', '')}: {v.get('decision', '')}{why} — project {v.get('project', '')}"
    if mtype == MemoryType.preferences:
        verb = "prefers" if v.get("polarity", "positive") == "positive" else "avoids"
        over = f" over {v['over']}" if v.get("over") else ""
        return f"Preference ({v.get('scope', 'other')}/{v.get('name', '')}): {verb} {v.get('value', '')}{over}"
    if mtype == MemoryType.goals:
        by = f" by {v['by']}" if v.get("by") else ""
        return f"Goal ({v.get('project', '')}): {v.get('goal', '')}{by}"
    if mtype == MemoryType.events:
        when = f" on {v['date']}" if v.get("date") else ""
        kind = str(v.get("kind", "event")).capitalize()
        return f"{kind}: {v.get('title', '')}{when} — project {v.get('project', '')}"
    if mtype == MemoryType.profile:
        return f"{v.get('subject', 'user')} {v.get('attribute', '')}: {v.get('value', '')}"
    if mtype == MemoryType.entities:
        return f"{v.get('kind', 'entity')}: {v.get('name', v.get('canonical', ''))}"
    parts = [f"{k}: {val}" for k, val in v.items() if isinstance(val, (str, int, float)) and val != ""]
    return "; ".join(parts)


# ====================================================================================== other sources
_SOURCE_ROLE: dict[str, Role] = {
    "tool": "tool",
    "user": "user",
    "assistant": "assistant",
    "inferred": "assistant",
}


def explicit_to_candidate(item: ExplicitItem) -> Candidate:
    """A structured item reported by a tool or the caller, as a Candidate (it still goes through the gate)."""
    return Candidate.rendered(
        item.type,
        item.key,
        dict(item.value),
        role=_SOURCE_ROLE[item.source],
        span=(0, 0),
        reason=f"explicit item from {item.source}",
        confidence_class=confidence_class_of(item.source),
        explicit=True,
        retracts=item.status == "retracted",
        corrects=(item.type, item.key) if item.status == "retracted" else None,
        confidence=item.confidence,
        source=item.source,
        status=item.status,
        evidence_refs=list(item.evidence_refs),
    )


def entity_to_candidate(ec: EntityCandidate, role: Role) -> Candidate:
    """An entity that passed the entity gate, as a memory candidate ``entity:<kind>:<canonical>``."""
    value = {
        "name": ec.name,
        "canonical": ec.canonical,
        "kind": ec.kind,
        "aliases": [ec.name],
        "signal": ec.signal,
    }
    return Candidate.rendered(
        MemoryType.entities,
        keys.entity_key(ec.kind, ec.canonical),
        value,
        role=role,
        span=(ec.start, ec.end),
        reason=f"entity ({ec.signal})",
    )
