"""Preference builder: a lasting way the user wants things (and each further clause naming another)."""

from __future__ import annotations

import re
from typing import Any

from graphbrain.commit import keys
from graphbrain.commit.builders.base import State, group, make, span_of
from graphbrain.commit.candidate import Candidate
from graphbrain.commit.phrase import (
    clean,
    meaningful,
)
from graphbrain.commit.rules import Rule
from graphbrain.commit.rules.table import en_re, zh_re
from graphbrain.contracts import MemoryType
from graphbrain.nlp.chars import has_cjk

_OVER_RES: tuple[re.Pattern[str], ...] = (
    en_re(r"^(?P<x>.+?)\s+(?:over|rather than|instead of|to)\s+(?P<y>.+)$"),
    zh_re(r"^(?P<x>.+?)\s*[，,]?\s*(?:而不是|不要|而非|胜过|比)\s*(?P<y>.+)$"),
)
# A request for this once is not a lasting preference.
_ONE_OFF_RE = en_re(
    r"\b(?:this time|for now|just this once|for this (?:one|answer|reply|task)|today|right now)\b"
    r"|这次|这一次|这回|暂时|今天|先这样"
)


# Where a preference statement goes on to the next one: "tabs over spaces, and please use type hints",
# "中文，简洁一点" (each clause naming another known dimension is a preference of its own).
_PREF_CLAUSE_RE = re.compile(r"\s*[，,；;]\s*(?:and\s+|but\s+|also\s+|并且|而且|还有)?|\s+and\s+(?=please\b)", re.I)
_NEGATED_RE = en_re(r"^(?:please\s+)?(?:don't|do not|never|no\b|不要|别|不用|不许|不能)")


def build_preference(
    rule: Rule, m: re.Match[str], clause: str, offset: int, st: State
) -> Candidate | list[Candidate] | None:
    x = clean(group(m, "x"))
    polarity = "negative" if rule.params.get("polarity") == "negative" or group(m, "neg") else "positive"
    about = clean(group(m, "about"))  # "以后 commit message 都用英文写": the rule is about commit messages
    parts = [p for p in _PREF_CLAUSE_RE.split(x) if p.strip()]
    x, rest = (clean(parts[0]), parts[1:]) if parts else (x, [])
    over: str | None = None
    for rx in _OVER_RES:
        om = rx.match(x)
        if om and not (rx is _OVER_RES[0] and rule.name == "en.pref.like"):
            x, over = clean(om.group("x")), clean(om.group("y"))
            break
    if not meaningful(x):
        return None
    activity = clean(group(m, "act"))  # "以后都按 PEP 8 来写代码": the rule is about 写代码
    facet = keys.pref_facet(f"{about} {x} {over or ''} {activity}")
    if facet is None and rule.params.get("check") == "facet":
        return None  # "I use this function": only a known dimension (an editor, a format) is a preference
    if facet:
        scope, name = facet
    else:
        topic = activity or x
        scope = keys.infer_pref_scope(f"{about} {x} {activity}")
        name = " ".join(topic.split()[:4]) if not has_cjk(topic) else topic[:12]
    value: dict[str, Any] = {
        "scope": scope,
        "name": keys.topic_slug(name, 40),
        "value": x,
        "polarity": polarity,
    }
    if over:
        value["over"] = over
    if activity:
        value["activity"] = activity
    span = span_of(m, offset)
    stable = _ONE_OFF_RE.search(clause) is None
    cand = make(st, rule, MemoryType.preferences, keys.pref_key(scope, name), value, span)
    cand.stable = stable
    out = [cand]
    for part in rest:  # a later clause that names another known dimension
        part = clean(part)
        more = keys.pref_facet(part)
        if not part or more is None or more == (scope, name) or any(c.key == keys.pref_key(*more) for c in out):
            continue
        negated = _NEGATED_RE.match(part) is not None
        extra = {
            "scope": more[0],
            "name": keys.topic_slug(more[1], 40),
            "value": _NEGATED_RE.sub("", part).strip() or part,
            "polarity": ("positive" if polarity == "negative" else "negative") if negated else polarity,
        }
        c = make(st, rule, MemoryType.preferences, keys.pref_key(*more), extra, span, f"{rule.name}: next clause")
        c.stable = stable
        out.append(c)
    return out if len(out) > 1 else cand
