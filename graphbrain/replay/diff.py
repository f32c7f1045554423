"""What differs between two compose outcomes: evidence, tokens, recent turns, plans, ignored fields.

Compared, new (the candidate) against old (the baseline):

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
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from graphbrain.contracts import ContextPackage
from graphbrain.replay.report import (
    EvidenceDelta,
    EvidenceDiff,
    ListDiff,
    PlanDiff,
    PlanSideDiff,
    QueryRow,
    RecentTurnsDiff,
    SlotDelta,
    TokenDiff,
    ValueChange,
)
from graphbrain.store.json_props import loads_object

# Scores are rounded to 6 places by the composer; anything smaller is float noise, not a change.
SCORE_EPS = 1e-9


@dataclass
class _EvidenceRow:
    id: str
    score: float
    source: str | None


@dataclass
class Outcome:
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
    def of_package(cls, p: ContextPackage) -> Outcome:
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
    def of_stored(cls, row: Mapping[str, Any]) -> Outcome:
        """The stored package when there is one (store_contexts), else the trace and the plans."""
        if row.get("package"):
            return cls.of_package(ContextPackage.model_validate_json(row["package"]))
        trace = loads_object(row.get("trace"))
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


@dataclass
class OutcomeDiff:
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


def diff_outcomes(old: Outcome, new: Outcome) -> OutcomeDiff:
    recent = (
        _diff_recent(old.recent_turns, new.recent_turns)
        if old.recent_turns is not None and new.recent_turns is not None
        else None
    )
    plans = _diff_plans(old, new) if old.plans is not None and new.plans is not None else None
    return OutcomeDiff(
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


def _diff_evidence(old: Outcome, new: Outcome) -> EvidenceDiff:
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


def _diff_plans(old: Outcome, new: Outcome) -> PlanDiff:
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


def drift_lines(d: OutcomeDiff) -> list[str]:
    """A few summary lines for what differs between the stored outcome and the fresh baseline."""
    out: list[str] = []
    ev = d.evidence
    if not ev.empty():
        out.append(f"evidence {ev.counts()}")
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
