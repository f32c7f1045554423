"""Retractions: a correction ("no, that's wrong, it's …", "不对，其实是…") names the active item it denies.

The corrected fact is extracted like any clause; the item it corrects is found by key, by the denied value,
by topic, or (for a strong marker that says nothing else) is the most recent one.
"""

from __future__ import annotations

import re
from typing import Any

from graphbrain.commit.apply import apply_rules
from graphbrain.commit.builders import State
from graphbrain.commit.builders.base import group
from graphbrain.commit.candidate import ActiveItem, Candidate, render
from graphbrain.commit.matching import best_match
from graphbrain.commit.phrase import clean
from graphbrain.commit.rules import CORRECTION_RULES, RETRACTION_MARKERS
from graphbrain.commit.rules.table import en_re, zh_re
from graphbrain.commit.utterance import Sentence
from graphbrain.contracts import MemoryType

# "X, not Y" / "X，不是 Y" at the end of a correction names the wrong value.
_NOT_TAIL_RES: tuple[re.Pattern[str], ...] = (
    en_re(r"^(?P<x>.+?)[,;]?\s+(?:and\s+)?not\s+(?P<wrong>[^,.;]+?)[.!]?$"),
    zh_re(r"^(?P<x>.+?)[，,]\s*(?:而)?不是\s*(?P<wrong>.+?)[。！!]?$"),
)
_COPULA_LEAD_RE = en_re(
    r"^(?:it's|it is|it was|its|that's|that is|the answer is|rather|instead|是|其实是|应该是|实际上是)\s*"
)

_MAIN_FIELD: dict[MemoryType, str] = {
    MemoryType.tasks: "title",
    MemoryType.decisions: "decision",
    MemoryType.preferences: "value",
    MemoryType.goals: "goal",
    MemoryType.events: "title",
    MemoryType.profile: "value",
    MemoryType.entities: "name",
}
_FIXED_FIELDS = frozenset(
    {"project", "status", "scope", "kind", "subject", "attribute", "polarity", "name", "date", "date_source"}
)


def _corrected_value(item: ActiveItem, wrong: str | None, right: str) -> dict[str, Any]:
    """The item's value with the denied part replaced by the correction."""
    value = dict(item.value)
    replaced = False
    if wrong:
        rx = re.compile(re.escape(wrong), re.I)
        for f, v in list(value.items()):
            if isinstance(v, str) and f not in _FIXED_FIELDS and rx.search(v):
                value[f] = rx.sub(right, v)
                replaced = True
    if not replaced:
        old_choice = value.get("choice")
        if isinstance(old_choice, str) and old_choice:
            value["choice"] = right
            dec = str(value.get("decision", ""))
            value["decision"] = dec.replace(old_choice, right) if old_choice in dec else right
        else:
            value[_MAIN_FIELD.get(item.type, "value")] = right
    return value


def retraction(sent: Sentence, nxt: Sentence | None, st: State) -> tuple[list[Candidate], bool] | None:
    """A correction in ``sent`` (or ``sent`` + the next sentence): (candidates, consumed next?) or None."""
    for rule in RETRACTION_MARKERS:
        m = rule.pattern.match(sent.text)
        if not m:
            continue
        x = clean(group(m, "x"))
        x_start = sent.start + (m.start("x") if x else 0)
        wrong = clean(group(m, "wrong")) or None
        pre = group(m, "pre")
        consumed = False
        if not x and nxt is not None:  # "No, that's wrong. It's Berlin."
            x, x_start, consumed = clean(nxt.text), nxt.start, True
        for rx in _NOT_TAIL_RES:
            tm = rx.match(x)
            if tm and wrong is None:
                x, wrong = clean(tm.group("x")), clean(tm.group("wrong"))
                break
        strong = rule.params.get("strength") == "strong" or wrong is not None
        clause = f"{pre}{x}" if pre else x
        inner = apply_rules(clause, x_start, st) if clause else []
        if clause and not inner:
            inner = apply_rules(_COPULA_LEAD_RE.sub("", clause), x_start, st, CORRECTION_RULES)
        items = st.ctx.items()
        active_keys = {i.key: i for i in items}

        target: ActiveItem | None = None
        chosen: Candidate | None = None
        how = ""
        for c in inner:  # 1. the corrected fact has the key of a known item
            if c.key in active_keys:
                target, chosen, how = active_keys[c.key], c, "same key"
                break
        if target is None and wrong:  # 2. the denied value appears in a known item
            target = best_match(wrong, items, min_overlap=0.5)
            how = "denied value matched"
        if target is None:  # 3. the corrected fact is about the same thing as a known item
            for c in inner:
                tail = c.key.rsplit(":", 1)[-1]
                same = [i for i in items if i.type == c.type and i.key.rsplit(":", 1)[-1] == tail]
                target = (
                    same[-1] if same else best_match(c.text, [i for i in items if i.type == c.type], min_overlap=0.6)
                )
                if target is not None:
                    chosen, how = c, "same topic"
                    break
        if target is None and strong and not inner and items:  # 4. "no, that's wrong" about what was just said
            target, how = items[-1], "most recent item"
        if target is None and not strong:
            return None  # a weak marker that corrects nothing: an ordinary sentence
        if target is not None and chosen is None and inner:
            chosen = next((c for c in inner if c.type == target.type), None)

        if chosen is not None:
            cand = chosen
            if target is not None and target.type == cand.type:
                cand.key = target.key  # the corrected fact replaces the denied one under its key
                if "project" in target.value:
                    cand.value["project"] = target.value["project"]
                    cand.text = render(cand.type, cand.value)
        elif target is not None:
            right = _COPULA_LEAD_RE.sub("", x).strip() or x
            if not right:
                return [], consumed
            value = _corrected_value(target, wrong, right)
            cand = Candidate.rendered(
                target.type, target.key, value, role=st.role, span=(x_start, x_start + len(x)), reason=rule.name
            )
        elif inner:
            cand = inner[0]
        else:
            return [], consumed  # a correction of nothing we know, with no new fact in it
        cand.retracts = True
        cand.corrects = (target.type, target.key) if target is not None else None
        cand.wrong = wrong
        cand.hedged = False
        cand.reason = (
            f"{rule.name} ({how or 'no known item'}) > {cand.reason}"
            if cand.reason != rule.name
            else f"{rule.name} ({how})"
        )
        extra = [c for c in inner if c is not cand]
        return [cand, *extra], consumed
    return None
