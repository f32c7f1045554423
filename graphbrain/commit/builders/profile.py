"""Profile builder: a fact about the user (or the agent): name, occupation, employer, location…"""

from __future__ import annotations

import re

from graphbrain.commit import keys
from graphbrain.commit.builders.base import State, group, make, span_of
from graphbrain.commit.candidate import Candidate
from graphbrain.commit.phrase import (
    ZH_CLAUSE_SEP_RE,
    clean,
)
from graphbrain.commit.rules import Rule
from graphbrain.commit.rules.table import en_re
from graphbrain.contracts import MemoryType
from graphbrain.nlp import pipelines
from graphbrain.nlp.stopwords import STOP_WORDS

_ZH_OTHER_SUBJECT_RE = re.compile(r"^\s*(?:你|您|他|她|它|我们|咱们|你们|他们|她们)")
_EN_SUBJECT_I_RE = en_re(r"\bi(?:'m|'ve| am| have|\b)")
_TRAILING_TIME_RE = en_re(
    r"\s+(?:(?:last|this|next)\s+(?:year|month|week|summer|winter|spring|fall)|in\s+\d{4}|recently|a while ago"
    r"|\w+\s+(?:years?|months?)\s+ago)\s*$"
)


def _zh_carried_me(before: str) -> bool:
    """The nearest earlier clause that names a subject names 我 (a subject carried into this clause)."""
    for part in reversed(ZH_CLAUSE_SEP_RE.split(before)[:-1]):
        if part.strip().startswith("我") and not part.strip().startswith(("我们", "我的")):
            return True
        if _ZH_OTHER_SUBJECT_RE.match(part):
            return False
    return False


def build_profile(
    rule: Rule, m: re.Match[str], clause: str, offset: int, st: State
) -> Candidate | list[Candidate] | None:
    carried = not m.group().startswith("我")
    if rule.name.startswith("zh.") and carried and not _zh_carried_me(clause[: m.start()] + "，"):
        return None
    if rule.params.get("check") == "en_me" and not _EN_SUBJECT_I_RE.search(clause[: m.end()]):
        return None
    x = _TRAILING_TIME_RE.sub("", clean(group(m, "x")))
    x = " ".join(x.split()[:6])
    if not x or x.lower() in STOP_WORDS:
        return None
    if rule.params.get("check") == "zh_person":
        flags = [f for w, f in pipelines.posseg(x) if w.strip()]
        if flags != ["nr"]:
            return None
    subject = rule.params.get("subject", "user")
    attribute = rule.params["attribute"]
    value = {"subject": subject, "attribute": attribute, "value": x}
    span = span_of(m, offset)
    cand = make(st, rule, MemoryType.profile, keys.profile_key(subject, attribute), value, span)
    also, y = rule.params.get("also"), clean(group(m, "y"))
    if not also or not y:
        return cand
    second = {"subject": subject, "attribute": also, "value": y}
    return [cand, make(st, rule, MemoryType.profile, keys.profile_key(subject, also), second, span)]
