"""The replay reports: what a context or commit replay found, as models (``--json``) and as text."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

Baseline = Literal["fresh", "stored"]
BASELINES: tuple[Baseline, ...] = ("fresh", "stored")


class ValueChange(BaseModel):
    old: Any = None
    new: Any = None


class EvidenceDelta(BaseModel):
    id: str
    source: str | None = None
    old_rank: int | None = None  # 1-based: the E-label number in the package
    new_rank: int | None = None
    old_score: float | None = None
    new_score: float | None = None
    reason: str | None = None
    rule: str | None = None


class EvidenceDiff(BaseModel):
    added: list[EvidenceDelta] = Field(default_factory=list)
    dropped: list[EvidenceDelta] = Field(default_factory=list)
    reordered: list[EvidenceDelta] = Field(default_factory=list)
    rescored: list[EvidenceDelta] = Field(default_factory=list)

    def empty(self) -> bool:
        return not (self.added or self.dropped or self.reordered or self.rescored)

    def counts(self) -> str:
        """``+added −dropped reordered n rescored n``: the one-line figure of the report and the drift."""
        return f"+{len(self.added)} −{len(self.dropped)} reordered {len(self.reordered)} rescored {len(self.rescored)}"


class SlotDelta(BaseModel):
    slot: str
    old: int | None
    new: int | None
    delta: int


class TokenDiff(BaseModel):
    by_slot: list[SlotDelta] = Field(default_factory=list)
    used_estimate: ValueChange | None = None
    trimmed: ValueChange | None = None
    limit: ValueChange | None = None

    def empty(self) -> bool:
        return not (self.by_slot or self.used_estimate or self.trimmed or self.limit)


class RecentTurnsDiff(BaseModel):
    """Entries are ``<turn_id>:<role>``, one per message of the slot."""

    removed: list[str] = Field(default_factory=list)
    added: list[str] = Field(default_factory=list)
    old_count: int = 0
    new_count: int = 0

    def empty(self) -> bool:
        return not (self.removed or self.added)


class QueryRow(BaseModel):
    text: str
    mode: str
    weight: float
    origin: str | None = None


class PlanSideDiff(BaseModel):
    side: Literal["memory", "resource"]
    change: Literal["added", "removed", "changed"]
    purpose: ValueChange | None = None
    modes: ValueChange | None = None
    queries_added: list[QueryRow] = Field(default_factory=list)
    queries_removed: list[QueryRow] = Field(default_factory=list)
    filters: dict[str, ValueChange] = Field(default_factory=dict)  # under global_filters, dotted
    other: dict[str, ValueChange] = Field(default_factory=dict)  # budget, ranking, output, debug, dotted


class PlanDiff(BaseModel):
    resources_searched: ValueChange | None = None
    planner: dict[str, ValueChange] = Field(default_factory=dict)
    sides: list[PlanSideDiff] = Field(default_factory=list)

    def empty(self) -> bool:
        return not (self.resources_searched or self.planner or self.sides)


class ListDiff(BaseModel):
    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)

    def empty(self) -> bool:
        return not (self.added or self.removed)


class ContextReplay(BaseModel):
    """One replayed request: candidate against baseline (see the module docstring)."""

    context_id: str
    session_id: str
    user_message: str
    created_at: datetime
    stored_fingerprint: str | None = None
    baseline: Baseline = "fresh"
    changed: bool = False
    evidence: EvidenceDiff = Field(default_factory=EvidenceDiff)
    tokens: TokenDiff = Field(default_factory=TokenDiff)
    recent_turns: RecentTurnsDiff | None = None  # None: not comparable (no stored package)
    plans: PlanDiff | None = None  # None: not comparable (plans not stored)
    ignored_fields: ListDiff = Field(default_factory=ListDiff)
    drift: list[str] = Field(default_factory=list)  # fresh mode: stored outcome vs fresh baseline
    notes: list[str] = Field(default_factory=list)
    error: str | None = None

    def text(self) -> str:
        head = f"{self.context_id}  session {self.session_id}  {self.created_at.isoformat()}"
        lines = [head, f"  message: {_clip(self.user_message, 100)}"]
        if self.error:
            lines.append(f"  error: {self.error}")
            return "\n".join(lines)
        lines += [f"  {line}" for line in _diff_lines(self)]
        if not self.changed:
            lines.append("  no difference")
        if self.drift:
            lines.append("  drift (stored outcome vs fresh baseline: the graph or the config changed since):")
            lines += [f"    {d}" for d in self.drift]
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


class ReplayTotals(BaseModel):
    requests: int = 0
    changed: int = 0
    errors: int = 0
    drifted: int = 0
    evidence_added: int = 0
    evidence_dropped: int = 0
    evidence_reordered: int = 0
    evidence_rescored: int = 0
    tokens_used_delta: int = 0
    plans_changed: int = 0
    recent_turns_changed: int = 0
    ignored_fields_changed: int = 0


class _UnderOtherConfig(BaseModel):
    """What both replays report: one namespace's history run again under another config."""

    namespace: str
    baseline_fingerprint: str  # the brain's own config
    other_fingerprint: str  # the config replayed under
    notes: list[str] = Field(default_factory=list)


class ReplayReport(_UnderOtherConfig):
    baseline: Baseline
    requests: list[ContextReplay] = Field(default_factory=list)
    totals: ReplayTotals = Field(default_factory=ReplayTotals)

    @property
    def changed(self) -> bool:
        return self.totals.changed > 0

    def text(self) -> str:
        t = self.totals
        against = "a fresh replay with the current config" if self.baseline == "fresh" else "the stored outcome"
        out = [
            f"replay of {t.requests} request(s) in namespace {self.namespace}: "
            f"config {self.other_fingerprint} against {against} ({self.baseline_fingerprint})",
            *[f"note: {n}" for n in self.notes],
        ]
        out += ["", *(r.text() + "\n" for r in self.requests)]
        out.append(
            f"total: {t.changed} of {t.requests} changed ({t.errors} failed); evidence +{t.evidence_added} "
            f"−{t.evidence_dropped} reordered {t.evidence_reordered} rescored {t.evidence_rescored}; "
            f"tokens used {t.tokens_used_delta:+d}; plans changed {t.plans_changed}; recent turns changed "
            f"{t.recent_turns_changed}; ignored fields changed {t.ignored_fields_changed}; drifted {t.drifted}"
        )
        return "\n".join(out)


class MemoryState(BaseModel):
    status: str
    confidence: float
    version: int


class MemoryChange(BaseModel):
    type: str
    key: str
    source_turn_id: str | None
    occurrence: int  # the n-th item (1-based) of this key written by that turn
    change: Literal["added", "removed", "changed"]
    stored: MemoryState | None = None
    replayed: MemoryState | None = None
    fields: list[str] = Field(default_factory=list)  # which of status / confidence / version differ


class CommitReplayTotals(BaseModel):
    added: int = 0
    removed: int = 0
    changed: int = 0
    status_changed: int = 0
    confidence_changed: int = 0
    version_changed: int = 0


class CommitReplayReport(_UnderOtherConfig):
    session_id: str
    scratch_namespace: str
    turns_replayed: int = 0
    stored_items: int = 0
    replayed_items: int = 0
    reconstructed_items: int = 0  # explicit TurnEvents.items rebuilt from the memory they wrote
    changed: bool = False
    changes: list[MemoryChange] = Field(default_factory=list)
    totals: CommitReplayTotals = Field(default_factory=CommitReplayTotals)
    scratch_removed: bool = False

    def text(self) -> str:
        t = self.totals
        out = [
            f"replay-commits of session {self.session_id} ({self.turns_replayed} turns) in namespace "
            f"{self.namespace}: config {self.other_fingerprint} against what is stored",
            f"  memory items: {self.stored_items} stored, {self.replayed_items} replayed",
        ]
        for c in self.changes:
            where = f"{c.type} {c.key} (turn {c.source_turn_id}, #{c.occurrence})"
            if c.change == "added":
                out.append(f"  + {where}: {_state(c.replayed)}")
            elif c.change == "removed":
                out.append(f"  − {where}: {_state(c.stored)}")
            else:
                out.append(f"  ~ {where}: {_state(c.stored)} → {_state(c.replayed)}")
        if not self.changed:
            out.append("  no difference")
        out.append(
            f"  total: +{t.added} −{t.removed} ~{t.changed} (status {t.status_changed}, confidence "
            f"{t.confidence_changed}, version {t.version_changed})"
        )
        out.append(
            f"  scratch namespace {self.scratch_namespace}: "
            + ("deleted" if self.scratch_removed else "NOT fully deleted")
        )
        out += [f"  note: {n}" for n in self.notes]
        return "\n".join(out)


def _state(s: MemoryState | None) -> str:
    return "—" if s is None else f"{s.status}, confidence {s.confidence:g}, v{s.version}"


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


# ============================================================================ text rendering
def _diff_lines(r: ContextReplay) -> list[str]:
    lines: list[str] = []
    ev = r.evidence
    if not ev.empty():
        lines.append(f"evidence: {ev.counts()}")
        for e in ev.dropped:
            why = f"{e.reason} ({e.rule})" if e.rule else e.reason
            lines.append(f"  − E{e.old_rank} {e.id} [{e.source}] score {e.old_score}: {why}")
        for e in ev.added:
            lines.append(f"  + E{e.new_rank} {e.id} [{e.source}] score {e.new_score}: {e.reason}")
        for e in ev.reordered:
            lines.append(f"  ↕ {e.id}: E{e.old_rank} → E{e.new_rank}")
        for e in ev.rescored:
            lines.append(f"  ~ {e.id}: score {e.old_score} → {e.new_score}")
    tk = r.tokens
    if not tk.empty():
        parts = [f"{s.slot} {s.old} → {s.new} ({s.delta:+d})" for s in tk.by_slot]
        for name in ("used_estimate", "trimmed", "limit"):
            vc: ValueChange | None = getattr(tk, name)
            if vc is not None:
                parts.append(f"{name} {vc.old} → {vc.new}")
        lines.append("tokens: " + "; ".join(parts))
    rt = r.recent_turns
    if rt is not None and not rt.empty():
        lines.append(
            f"recent turns: {rt.old_count} → {rt.new_count} messages"
            + (f"; removed {', '.join(rt.removed)}" if rt.removed else "")
            + (f"; added {', '.join(rt.added)}" if rt.added else "")
        )
    pl = r.plans
    if pl is not None and not pl.empty():
        if pl.resources_searched:
            lines.append(f"resources searched: {pl.resources_searched.old} → {pl.resources_searched.new}")
        for k, vc in pl.planner.items():
            lines.append(f"planner {k}: {_short(vc.old)} → {_short(vc.new)}")
        for s in pl.sides:
            lines.append(f"{s.side} plan {s.change}")
            if s.purpose:
                lines.append(f"  purpose {s.purpose.old} → {s.purpose.new}")
            if s.modes:
                lines.append(f"  modes {s.modes.old} → {s.modes.new}")
            for q in s.queries_removed:
                lines.append(f"  − query [{q.mode} {q.weight:g} {q.origin or ''}] {_clip(q.text, 80)}")
            for q in s.queries_added:
                lines.append(f"  + query [{q.mode} {q.weight:g} {q.origin or ''}] {_clip(q.text, 80)}")
            for k, vc in {**{f"global_filters.{k}": v for k, v in s.filters.items()}, **s.other}.items():
                lines.append(f"  {k}: {_short(vc.old)} → {_short(vc.new)}")
    ig = r.ignored_fields
    if not ig.empty():
        lines.append("ignored fields:" + "".join(f" +{x}" for x in ig.added) + "".join(f" −{x}" for x in ig.removed))
    return lines


def _short(v: Any) -> str:
    return _clip(json.dumps(v, ensure_ascii=False, default=str), 120)
