"""Event builder: a release, an incident, a milestone or a meeting, dated by the text or the turn."""

from __future__ import annotations

import re
from typing import Any, Literal

from graphbrain.commit import keys
from graphbrain.commit.builders.base import State, group, make, span_of
from graphbrain.commit.candidate import Candidate
from graphbrain.commit.phrase import (
    VERSION_RE,
    clean,
    lang_of,
    meaningful,
    strip_when,
)
from graphbrain.commit.rules import Rule
from graphbrain.contracts import MemoryType
from graphbrain.nlp import dates

EventKind = Literal["release", "incident", "milestone", "meeting"]


def build_event(rule: Rule, m: re.Match[str], clause: str, offset: int, st: State) -> Candidate | None:
    kind: EventKind = rule.params["kind"]  # type: ignore[assignment]
    x = clean(group(m, "x"))
    zh = lang_of(clause) == "zh"
    if kind == "release":
        ver = VERSION_RE.search(x) or VERSION_RE.search(clause)
        if not x and not ver:
            return None
        # The key names the version only, so "released v1.2" and "v1.2 发布了" are one event.
        x = strip_when(x) if x else x
        slug = f"release {ver.group().lower()}" if ver else f"release {x}"
        title = (f"发布 {x}" if zh else f"release {x}") if x else slug
    elif kind == "meeting":
        x = strip_when(x)
        if not meaningful(x):
            return None
        slug = f"meeting {x}"
        title = f"和{x}开会" if zh else f"meeting with {x}"
    else:
        title = x or clause
        slug = f"{kind} {' '.join(title.split()[:6])}"
    explicit = (
        dates.resolve_date(clause, st.ctx.now, "past")
        if kind != "release" or not ver
        else dates.resolve_date(clause.replace(ver.group(), " "), st.ctx.now, "past")
    )
    when = explicit or (st.ctx.now.date() if st.ctx.now else None)
    project = st.project_for(clause)
    value: dict[str, Any] = {"kind": kind, "title": title, "project": project}
    if when:
        value["date"] = when.isoformat()
        value["date_source"] = "text" if explicit else "turn"
    span = span_of(m, offset)
    return make(st, rule, MemoryType.events, keys.event_key(project, when, keys.topic_slug(slug)), value, span)
