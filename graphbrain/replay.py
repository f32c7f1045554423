"""Replay stored requests under another brain.yml and say what would change (seed §0 "可回归", §5).

    report = replay_contexts(brain, load_config("other.yml"), session_id="s1")
    print(report.text())                 # per request and in total; report.model_dump() for --json
    print(replay_commits(brain, load_config("other.yml"), session_id="s1").text())

**replay_contexts** loads stored compose_context requests (ContextTrace nodes: session, user message,
agent_state, namespace; by ``context_id``, by session, since a time, the last N) and composes each again
with ``store_trace=False`` and ``now=`` the original ``created_at``, so time phrases ("last week")
resolve to the same range. Retrieval's recency clock is pinned as well, to the minute of the original
request (the executor's own default clock), so the same graph and config give the same package. A
replay only reads: the graph is not changed.

What "difference" means for a context replay:

- ``baseline="fresh"`` (the default): the request is composed twice now, with the brain's own config
  (the baseline) and with ``other`` (the candidate), and the report diffs candidate against baseline.
  Both runs see the same graph, so every difference is the config's doing. The stored outcome is also
  compared with the fresh baseline; what differs is reported as ``drift`` (the graph changed since the
  request — e.g. later turns now in the recent window — or the brain's config is not the one that
  served it: compare ``stored_fingerprint`` with ``baseline_fingerprint``).
- ``baseline="stored"``: the candidate is diffed against the stored outcome itself — the stored package
  when ``store_contexts`` was on, else the trace's evidence, budget figures, drops, ignored fields and
  planner (plus the plans when ``store_plans`` was on; recent turns are then not comparable). Config
  effects and graph changes since the request are mixed in this mode.

Compared, candidate against baseline:

- evidence, by id: *added* (with the reason the baseline had dropped it, if it had), *dropped* (with the
  candidate's reason from its ``debug.dropped``: ``cap:evidence_max_items``, ``diversity:…``,
  ``budget:token_limit``…, or "not retrieved"), *reordered* (the relative order of the items both keep
  changed; ranks are the E-label numbers) and *rescored* (same item, other score);
- tokens: ``by_slot`` per slot, ``used_estimate``, ``trimmed``, ``limit``;
- recent turns: the (turn_id, role) entries removed or added;
- plans, per side (memory / resource): present or not (whether resources were searched), purpose,
  modes, queries added or removed (expansion queries carry ``origin: expansion``), ``global_filters``
  and every other plan field by dotted path (the per-call ``request_id`` is left out); planner
  decisions (intent, search_resources, time range, scope, core terms);
- ignored fields added or removed.

**replay_commits** rebuilds the TurnEvents of a session's stored turns (same turn_id, message_id, at,
role, content, tool calls, refs, metadata) and commits them, in seq order, into a scratch namespace
``<namespace>__replay_<hex>`` under ``other``; it then diffs the memory items written (type, key,
status, confidence, version) against those the session wrote in the real namespace, and deletes the
scratch namespace (checked: no node is left). Items are matched by (type, key, source turn, n-th item
of that key in the turn). The replay sees only this session: items of other sessions that the original
commits resolved against (or entities another session made known) are not there, which the notes say.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from graphbrain.brain import Brain
from graphbrain.config import BrainConfig, load_config
from graphbrain.contracts import (
    ContextPackage,
    EvidencePack,
    ExplicitItem,
    Message,
    RefIn,
    RetrievalPlan,
    ToolCall,
    TurnEvents,
)
from graphbrain.errors import GraphbrainError, InputError
from graphbrain.ids import stable_id
from graphbrain.store import Store

Baseline = Literal["fresh", "stored"]
BASELINES: tuple[Baseline, ...] = ("fresh", "stored")

# A replay re-runs every request it selects; this caps a selection without --last.
MAX_REQUESTS = 1000
# Scores are rounded to 6 places by the composer; anything smaller is float noise, not a change.
SCORE_EPS = 1e-9
CONFIDENCE_EPS = 1e-6
SCRATCH_MARK = "__replay_"
SCRATCH_DELETE_BATCH = 5000
NAMESPACE_MAX = 128  # BrainConfig.namespace / TurnEvents.namespace max_length


# ============================================================================ report models
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


class ReplayReport(BaseModel):
    namespace: str
    baseline: Baseline
    baseline_fingerprint: str
    other_fingerprint: str
    requests: list[ContextReplay] = Field(default_factory=list)
    totals: ReplayTotals = Field(default_factory=ReplayTotals)
    notes: list[str] = Field(default_factory=list)

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


class CommitReplayReport(BaseModel):
    session_id: str
    namespace: str
    scratch_namespace: str
    baseline_fingerprint: str
    other_fingerprint: str
    turns_replayed: int = 0
    stored_items: int = 0
    replayed_items: int = 0
    reconstructed_items: int = 0  # explicit TurnEvents.items rebuilt from the memory they wrote
    changed: bool = False
    changes: list[MemoryChange] = Field(default_factory=list)
    totals: CommitReplayTotals = Field(default_factory=CommitReplayTotals)
    scratch_removed: bool = False
    notes: list[str] = Field(default_factory=list)

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


# ============================================================================ outcomes
@dataclass
class _EvidenceRow:
    id: str
    score: float
    source: str | None


@dataclass
class _Outcome:
    """What one compose produced, in the terms the diff compares; None = not known for a stored trace."""

    evidence: list[_EvidenceRow]
    dropped: list[dict[str, Any]]
    budget: dict[str, Any] | None
    recent_turns: list[str] | None
    plans: list[dict[str, Any]] | None
    planner: dict[str, Any] | None
    ignored: list[str]
    notes: list[str] = field(default_factory=list)

    @classmethod
    def of_package(cls, p: ContextPackage) -> _Outcome:
        return cls(
            evidence=[_EvidenceRow(e.id, e.score, e.source) for e in p.evidence],
            dropped=list(p.debug.dropped),
            budget=p.constraints.token_budget.model_dump(),
            recent_turns=[f"{t.turn_id}:{t.role}" for t in p.recent_turns],
            plans=list(p.debug.plans),
            planner=dict(p.debug.planner),
            ignored=list(p.debug.ignored),
        )

    @classmethod
    def of_stored(cls, row: Mapping[str, Any]) -> _Outcome:
        """The stored package when there is one (store_contexts), else the trace and the plans."""
        if row.get("package"):
            return cls.of_package(ContextPackage.model_validate_json(row["package"]))
        trace = _json_obj(row.get("trace"))
        plans = json.loads(row["plans"]) if row.get("plans") else None
        notes = ["no stored package (store_contexts was off): recent turns are not compared"]
        if plans is None:
            notes.append("no stored plans (store_plans was off): plans are not compared")
        return cls(
            evidence=[
                _EvidenceRow(str(e["id"]), float(e.get("score") or 0.0), e.get("source"))
                for e in trace.get("evidence") or []
            ],
            dropped=list(trace.get("dropped") or []),
            budget=trace.get("token_budget"),
            recent_turns=None,
            plans=plans,
            planner=trace.get("planner"),
            ignored=list(trace.get("ignored_fields") or []),
            notes=notes,
        )


def _json_obj(text: str | None) -> dict[str, Any]:
    try:
        v = json.loads(text or "{}")
    except ValueError:
        return {}
    return v if isinstance(v, dict) else {}


# ============================================================================ diffs
@dataclass
class _Diff:
    evidence: EvidenceDiff
    tokens: TokenDiff
    recent_turns: RecentTurnsDiff | None
    plans: PlanDiff | None
    ignored: ListDiff

    def changed(self) -> bool:
        return not (
            self.evidence.empty()
            and self.tokens.empty()
            and (self.recent_turns is None or self.recent_turns.empty())
            and (self.plans is None or self.plans.empty())
            and self.ignored.empty()
        )


def _diff(old: _Outcome, new: _Outcome) -> _Diff:
    recent = (
        _diff_recent(old.recent_turns, new.recent_turns)
        if old.recent_turns is not None and new.recent_turns is not None
        else None
    )
    plans = _diff_plans(old, new) if old.plans is not None and new.plans is not None else None
    return _Diff(
        evidence=_diff_evidence(old, new),
        tokens=_diff_tokens(old.budget, new.budget),
        recent_turns=recent,
        plans=plans,
        ignored=_diff_list(old.ignored, new.ignored),
    )


def _drop_reasons(dropped: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str, str | None]]:
    """Evidence id → (reason, rule) of its last evidence drop (a later drop is the decisive one)."""
    out: dict[str, tuple[str, str | None]] = {}
    for d in dropped:
        if d.get("slot") == "evidence" and d.get("id"):
            rule = d.get("rule") or d.get("phase")
            out[str(d["id"])] = (str(d.get("reason") or "dropped"), str(rule) if rule else None)
    return out


def _diff_evidence(old: _Outcome, new: _Outcome) -> EvidenceDiff:
    old_rank = {e.id: i + 1 for i, e in enumerate(old.evidence)}
    new_rank = {e.id: i + 1 for i, e in enumerate(new.evidence)}
    old_by = {e.id: e for e in old.evidence}
    new_by = {e.id: e for e in new.evidence}
    new_drops = _drop_reasons(new.dropped)
    old_drops = _drop_reasons(old.dropped)
    out = EvidenceDiff()
    for e in old.evidence:
        if e.id not in new_by:
            reason, rule = new_drops.get(e.id, ("not retrieved", None))
            out.dropped.append(
                EvidenceDelta(
                    id=e.id, source=e.source, old_rank=old_rank[e.id], old_score=e.score, reason=reason, rule=rule
                )
            )
    for e in new.evidence:
        if e.id not in old_by:
            was = old_drops.get(e.id)
            out.added.append(
                EvidenceDelta(
                    id=e.id,
                    source=e.source,
                    new_rank=new_rank[e.id],
                    new_score=e.score,
                    reason=f"baseline dropped it: {was[0]}" if was else "not retrieved in the baseline",
                    rule=was[1] if was else None,
                )
            )
    # Reordered: the relative order of the items both keep changed. Absolute ranks shift whenever
    # something above is added or dropped, which says nothing about these items themselves.
    common_old = [e.id for e in old.evidence if e.id in new_by]
    common_new = [e.id for e in new.evidence if e.id in old_by]
    rel_new = {i: n for n, i in enumerate(common_new)}
    for n, i in enumerate(common_old):
        delta = EvidenceDelta(
            id=i,
            source=new_by[i].source,
            old_rank=old_rank[i],
            new_rank=new_rank[i],
            old_score=old_by[i].score,
            new_score=new_by[i].score,
        )
        if rel_new[i] != n:
            out.reordered.append(delta)
        if abs(old_by[i].score - new_by[i].score) > SCORE_EPS:
            out.rescored.append(delta)
    return out


def _diff_tokens(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> TokenDiff:
    if old is None or new is None:
        return TokenDiff()
    out = TokenDiff()
    old_slots: Mapping[str, int] = old.get("by_slot") or {}
    new_slots: Mapping[str, int] = new.get("by_slot") or {}
    for slot in [*old_slots, *(s for s in new_slots if s not in old_slots)]:
        a, b = old_slots.get(slot), new_slots.get(slot)
        if a != b:
            out.by_slot.append(SlotDelta(slot=slot, old=a, new=b, delta=(b or 0) - (a or 0)))
    for name in ("used_estimate", "trimmed", "limit"):
        if old.get(name) != new.get(name):
            setattr(out, name, ValueChange(old=old.get(name), new=new.get(name)))
    return out


def _diff_recent(old: Sequence[str], new: Sequence[str]) -> RecentTurnsDiff:
    # A multiset difference: one turn may hold several messages of one role (several tool results).
    removed = Counter(old) - Counter(new)
    added = Counter(new) - Counter(old)
    return RecentTurnsDiff(removed=_take(old, removed), added=_take(new, added), old_count=len(old), new_count=len(new))


def _take(seq: Sequence[str], wanted: Counter[str]) -> list[str]:
    """The entries of ``wanted`` in the order they appear in ``seq``."""
    left = Counter(wanted)
    out: list[str] = []
    for x in seq:
        if left[x] > 0:
            out.append(x)
            left[x] -= 1
    return out


def _diff_list(old: Sequence[str], new: Sequence[str]) -> ListDiff:
    return ListDiff(added=[x for x in new if x not in old], removed=[x for x in old if x not in new])


# Planner keys not compared one by one: "queries" and "expansions" are the plans' queries (compared per
# side), "search_resources" is reported as resources_searched.
_PLANNER_SKIP = frozenset({"queries", "expansions", "search_resources"})


def _plan_side(plan: Mapping[str, Any]) -> Literal["memory", "resource"]:
    scope = (plan.get("global_filters") or {}).get("scope") or []
    return "resource" if "resources" in scope else "memory"


def _queries(plan: Mapping[str, Any]) -> list[QueryRow]:
    return [
        QueryRow(
            text=str(q.get("text")),
            mode=str(q.get("mode", "hybrid")),
            weight=float(q.get("weight", 1.0)),
            origin=(q.get("hints") or {}).get("origin"),
        )
        for q in plan.get("queries") or []
    ]


def _modes(qs: Sequence[QueryRow]) -> list[str]:
    return list(dict.fromkeys(q.mode for q in qs))


def _dotted(a: Any, b: Any, prefix: str, out: dict[str, ValueChange]) -> None:
    """Every leaf that differs between two JSON values, by dotted path (lists compare as a whole)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for k in [*a, *(k for k in b if k not in a)]:
            _dotted(a.get(k), b.get(k), f"{prefix}.{k}" if prefix else str(k), out)
    elif a != b:
        out[prefix] = ValueChange(old=a, new=b)


def _diff_plans(old: _Outcome, new: _Outcome) -> PlanDiff:
    out = PlanDiff()
    old_planner, new_planner = old.planner or {}, new.planner or {}
    for k in [*old_planner, *(k for k in new_planner if k not in old_planner)]:
        if k in _PLANNER_SKIP:
            continue
        _dotted(old_planner.get(k), new_planner.get(k), k, out.planner)
    old_sides = {_plan_side(p): p for p in old.plans or []}
    new_sides = {_plan_side(p): p for p in new.plans or []}
    searched_old = old_planner.get("search_resources", "resource" in old_sides)
    searched_new = new_planner.get("search_resources", "resource" in new_sides)
    if searched_old != searched_new:
        out.resources_searched = ValueChange(old=searched_old, new=searched_new)
    side: Literal["memory", "resource"]
    for side in ("memory", "resource"):
        a, b = old_sides.get(side), new_sides.get(side)
        if a is None or b is None:
            only = a if a is not None else b
            if only is None:  # this side is in neither
                continue
            qs = _queries(only)
            out.sides.append(
                PlanSideDiff(
                    side=side,
                    change="added" if a is None else "removed",
                    queries_added=qs if a is None else [],
                    queries_removed=qs if b is None else [],
                    modes=ValueChange(old=None if a is None else _modes(qs), new=_modes(qs) if a is None else None),
                )
            )
            continue
        d = _diff_plan_pair(side, a, b)
        if d is not None:
            out.sides.append(d)
    return out


def _diff_plan_pair(
    side: Literal["memory", "resource"], a: Mapping[str, Any], b: Mapping[str, Any]
) -> PlanSideDiff | None:
    qa, qb = _queries(a), _queries(b)
    d = PlanSideDiff(side=side, change="changed")
    d.queries_added = [q for q in qb if q not in qa]
    d.queries_removed = [q for q in qa if q not in qb]
    if _modes(qa) != _modes(qb):
        d.modes = ValueChange(old=_modes(qa), new=_modes(qb))
    if a.get("purpose") != b.get("purpose"):
        d.purpose = ValueChange(old=a.get("purpose"), new=b.get("purpose"))
    _dotted(a.get("global_filters") or {}, b.get("global_filters") or {}, "", d.filters)
    # request_id is new on every call (it is the context_id); queries and purpose are compared above.
    skip = {"request_id", "queries", "purpose", "global_filters"}
    _dotted(
        {k: v for k, v in a.items() if k not in skip},
        {k: v for k, v in b.items() if k not in skip},
        "",
        d.other,
    )
    changed = d.queries_added or d.queries_removed or d.modes or d.purpose or d.filters or d.other
    return d if changed else None


# ============================================================================ text rendering
def _diff_lines(r: ContextReplay) -> list[str]:
    lines: list[str] = []
    ev = r.evidence
    if not ev.empty():
        lines.append(
            f"evidence: +{len(ev.added)} −{len(ev.dropped)} reordered {len(ev.reordered)} rescored {len(ev.rescored)}"
        )
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


def _drift_lines(d: _Diff) -> list[str]:
    """A few summary lines for what differs between the stored outcome and the fresh baseline."""
    out: list[str] = []
    ev = d.evidence
    if not ev.empty():
        out.append(
            f"evidence +{len(ev.added)} −{len(ev.dropped)} reordered {len(ev.reordered)} rescored {len(ev.rescored)}"
        )
    if not d.tokens.empty():
        used = d.tokens.used_estimate
        out.append(
            "tokens " + (f"used {used.old} → {used.new}" if used else ", ".join(s.slot for s in d.tokens.by_slot))
        )
    if d.recent_turns is not None and not d.recent_turns.empty():
        out.append(f"recent turns {d.recent_turns.old_count} → {d.recent_turns.new_count} messages")
    if d.plans is not None and not d.plans.empty():
        out.append("plans differ")
    if not d.ignored.empty():
        out.append("ignored fields differ")
    return out


# ============================================================================ replay_contexts
class _PinnedBrain(Brain):
    """A Brain whose retrievals measure recency against a fixed clock.

    The composer lets the executor default to the current minute; a replay pins it to the minute of
    the original request, so a replay reproduces the original ranking and two replays of one request
    agree whatever the wall clock says. It shares the caller's store and is never closed itself.
    """

    def __init__(self, config: BrainConfig, store: Store, clock: datetime) -> None:
        super().__init__(config, store)
        self._clock = clock

    def retrieve(self, plan: RetrievalPlan | dict[str, Any] | str, *, namespace: str | None = None) -> EvidencePack:
        from graphbrain.retrieve.executor import Executor

        return Executor(self.config, self.store, lambda: self.embedder).retrieve(
            plan, namespace=self._ns(namespace), now=self._clock
        )


def _compose(config: BrainConfig, store: Store, request: Mapping[str, Any], created_at: datetime) -> ContextPackage:
    from graphbrain.compose.composer import Composer

    clock = created_at.replace(second=0, microsecond=0)
    brain = _PinnedBrain(config, store, clock)
    return Composer(brain).compose(
        str(request.get("session_id") or ""),
        str(request.get("user_message") or ""),
        request.get("agent_state") or None,
        namespace=str(request.get("namespace") or config.namespace),
        now=created_at,
        store_trace=False,
    )


def _aware(dt: datetime) -> datetime:
    """UTC with a fixed offset. A naive value means UTC; a zone-named one (the driver returns pytz UTC)
    is converted, because Cypher does not order a zone-id DATETIME against the stored offset ones."""
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def parse_since(since: str | datetime | None) -> datetime | None:
    """``--since``: an ISO date or date-time (naive means UTC)."""
    if since is None or isinstance(since, datetime):
        return _aware(since) if since else None
    try:
        return _aware(datetime.fromisoformat(since.strip().replace("Z", "+00:00")))
    except ValueError as e:
        raise InputError(
            f"since: not an ISO date or date-time: {since!r}", [{"field": "since", "reason": "not ISO 8601"}]
        ) from e


def _select(
    brain: Brain,
    *,
    context_id: str | None,
    session_id: str | None,
    since: datetime | None,
    last: int | None,
) -> list[dict[str, Any]]:
    ns = brain.namespace
    if context_id is not None:
        if session_id is not None or since is not None or last is not None:
            raise InputError(
                "context_id selects one request: give it alone (not with session, since or last)",
                [{"field": "context_id", "reason": "combined with another selector"}],
            )
        rows = brain.store.run("replay/context_trace", {"context_id": context_id, "namespace": ns})
        if not rows:
            raise InputError(
                f"no stored context {context_id!r} in namespace {ns!r}",
                [{"field": "context_id", "reason": "not found"}],
            )
        return rows
    if last is not None and last < 1:
        raise InputError("last: must be at least 1", [{"field": "last", "reason": "< 1"}])
    rows = brain.store.run(
        "replay/context_traces",
        {"namespace": ns, "session_id": session_id, "since": since, "limit": min(last or MAX_REQUESTS, MAX_REQUESTS)},
    )
    return list(reversed(rows))  # the query gives newest first; replay in the order they happened


def replay_contexts(
    brain: Brain,
    other_config: BrainConfig,
    *,
    context_id: str | None = None,
    session_id: str | None = None,
    since: str | datetime | None = None,
    last: int | None = None,
    baseline: Baseline = "fresh",
) -> ReplayReport:
    """Re-run stored compose_context requests of ``brain``'s namespace under ``other_config``.

    Selectors combine (session and since and last); ``context_id`` stands alone; none selects the
    namespace's requests (up to ``MAX_REQUESTS``, the newest). The graph is only read. ``other_config``'s
    storage settings are not used: both runs read ``brain.store``.
    """
    if baseline not in BASELINES:
        raise InputError(
            f"baseline: one of {', '.join(BASELINES)}", [{"field": "baseline", "reason": f"unknown {baseline!r}"}]
        )
    rows = _select(brain, context_id=context_id, session_id=session_id, since=parse_since(since), last=last)
    report = ReplayReport(
        namespace=brain.namespace,
        baseline=baseline,
        baseline_fingerprint=brain.config.fingerprint(),
        other_fingerprint=other_config.fingerprint(),
    )
    if other_config.storage != brain.config.storage:
        report.notes.append("the other config's storage settings are ignored: the replay reads this brain's graph")
    if not rows:
        report.notes.append("no stored requests matched (are traces on? observability.trace, trace_sample)")
    if len(rows) == MAX_REQUESTS and last is None:
        report.notes.append(f"only the newest {MAX_REQUESTS} requests were replayed")
    for row in rows:
        report.requests.append(_replay_one(brain, other_config, row, baseline))
    report.totals = _totals(report.requests)
    return report


def _replay_one(brain: Brain, other: BrainConfig, row: Mapping[str, Any], baseline: Baseline) -> ContextReplay:
    request = _json_obj(row.get("request"))
    created_at = _aware(row["created_at"])
    out = ContextReplay(
        context_id=str(row["context_id"]),
        session_id=str(request.get("session_id") or row.get("session_id") or ""),
        user_message=str(request.get("user_message") or ""),
        created_at=created_at,
        stored_fingerprint=row.get("config_fingerprint"),
        baseline=baseline,
    )
    if baseline == "fresh" and out.stored_fingerprint and out.stored_fingerprint != brain.config.fingerprint():
        out.notes.append(
            f"served by config {out.stored_fingerprint}, not the baseline's {brain.config.fingerprint()}: "
            "drift may be config as well as graph"
        )
    try:
        stored = _Outcome.of_stored(row)
        candidate = _Outcome.of_package(_compose(other, brain.store, request, created_at))
        if baseline == "fresh":
            fresh = _Outcome.of_package(_compose(brain.config, brain.store, request, created_at))
            diff = _diff(fresh, candidate)
            drift = _diff(stored, fresh)
            out.drift = _drift_lines(drift) if drift.changed() else []
        else:
            diff = _diff(stored, candidate)
            out.notes += stored.notes
    except GraphbrainError as e:
        # One bad stored request (say, a message the validation now refuses) must not stop the rest.
        out.error = f"{type(e).__name__}: {e}"
        return out
    out.evidence, out.tokens, out.recent_turns = diff.evidence, diff.tokens, diff.recent_turns
    out.plans, out.ignored_fields = diff.plans, diff.ignored
    out.changed = diff.changed()
    return out


def _totals(requests: Sequence[ContextReplay]) -> ReplayTotals:
    t = ReplayTotals(requests=len(requests))
    for r in requests:
        if r.error:
            t.errors += 1
            continue
        t.changed += int(r.changed)
        t.drifted += int(bool(r.drift))
        t.evidence_added += len(r.evidence.added)
        t.evidence_dropped += len(r.evidence.dropped)
        t.evidence_reordered += len(r.evidence.reordered)
        t.evidence_rescored += len(r.evidence.rescored)
        used = r.tokens.used_estimate
        if used is not None:
            t.tokens_used_delta += int(used.new or 0) - int(used.old or 0)
        t.plans_changed += int(r.plans is not None and not r.plans.empty())
        t.recent_turns_changed += int(r.recent_turns is not None and not r.recent_turns.empty())
        t.ignored_fields_changed += int(not r.ignored_fields.empty())
    return t


# ============================================================================ replay_commits
def scratch_namespace(namespace: str) -> str:
    """A fresh scratch namespace for one replay: ``<namespace>__replay_<12 hex>``, within the length limit."""
    tail = f"{SCRATCH_MARK}{uuid.uuid4().hex[:12]}"
    return namespace[: NAMESPACE_MAX - len(tail)] + tail


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


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
                    ToolCall(id=c["call_id"], name=c["name"], args=_loads(c.get("args_json")) or {})
                    for c in sorted(m.get("tool_calls") or [], key=lambda c: str(c["call_id"]))
                ],
                tool_call_id=m.get("tool_call_id"),
                status=m.get("status"),
                result=_loads(m.get("result_json")),
                at=m.get("at"),
            )
        )
    refs = [
        RefIn(type=r["type"], uri=r["uri"], title=r.get("title"), metadata=_loads(r.get("metadata_json")) or {})
        for r in sorted(row["refs"], key=lambda r: str(r["uri"]))
    ]
    explicit = [
        ExplicitItem(
            type=it["type"],
            key=it["key"],
            value=_loads(it.get("value_json")) or {},
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
        metadata=_loads(row.get("metadata_json")) or {},
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
    embedder_brain = Brain(cfg, store)  # only for its (process-wide cached) embedder; shares the store
    # The pipeline itself, not Brain.commit_turn: a scratch turn must never enter the durable journal,
    # where a pending one would be written again after its scratch namespace is gone.
    pipeline = CommitPipeline(cfg, store, lambda: embedder_brain.embedder)
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


# ============================================================================ CLI entry points
def _emit(text: str) -> None:
    sys.stdout.write(text + "\n")


def main_replay(
    config_path: str | None,
    other_config_path: str,
    *,
    context_id: str | None = None,
    session: str | None = None,
    since: str | None = None,
    last: int | None = None,
    as_json: bool = False,
    baseline: Baseline = "fresh",
) -> int:
    """``graphbrain replay --config other.yml [--context-id ID | --session S | --since DATE | --last N]``.

    ``config_path`` is the brain's own config (its graph, namespace and the fresh baseline); prints the
    report (text or JSON) and returns the exit status: 0 (differences are findings, not failures; bad
    input and store failures raise GraphbrainError).
    """
    other = load_config(other_config_path)
    with Brain.from_config(config_path) as brain:
        report = replay_contexts(
            brain, other, context_id=context_id, session_id=session, since=since, last=last, baseline=baseline
        )
    _emit(json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2) if as_json else report.text())
    return 0


def main_replay_commits(config_path: str | None, other_config_path: str, session: str, as_json: bool = False) -> int:
    """``graphbrain replay-commits --config other.yml --session S``: prints the report; returns 0, or 1
    when the scratch namespace could not be deleted completely (the report names it)."""
    other = load_config(other_config_path)
    with Brain.from_config(config_path) as brain:
        report = replay_commits(brain, other, session_id=session)
    _emit(json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2) if as_json else report.text())
    return 0 if report.scratch_removed else 1


__all__ = [
    "CommitReplayReport",
    "ContextReplay",
    "EvidenceDelta",
    "EvidenceDiff",
    "MemoryChange",
    "PlanDiff",
    "RecentTurnsDiff",
    "ReplayReport",
    "SlotDelta",
    "TokenDiff",
    "ValueChange",
    "drop_scratch",
    "main_replay",
    "main_replay_commits",
    "parse_since",
    "replay_commits",
    "replay_contexts",
    "scratch_namespace",
]
