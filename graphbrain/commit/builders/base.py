"""What every builder shares: the per-message state, a match's groups and span, and making the Candidate."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphbrain.commit import keys
from graphbrain.commit.candidate import Candidate, ConfidenceClass, ExtractionContext, Role, confidence_class_of
from graphbrain.commit.rules import Rule
from graphbrain.contracts import MemoryType, TaskStatus


@dataclass
class State:
    """Per-message state shared by the builders."""

    text: str
    role: Role
    lang: str
    ctx: ExtractionContext
    message_project: str
    projects: set[str]

    @property
    def confidence_class(self) -> ConfidenceClass:
        return confidence_class_of(self.role)

    def project_for(self, sentence: str) -> str:
        return keys.infer_project(sentence, known=self.projects, default=self.message_project)


# A family's builder: (rule, match, clause, offset of the clause in the message, state) → candidates.
Builder = Callable[[Rule, "re.Match[str]", str, int, State], "Candidate | list[Candidate] | None"]


def group(m: re.Match[str], name: str) -> str:
    return (m.groupdict().get(name) or "").strip()


def span_of(m: re.Match[str], offset: int) -> tuple[int, int]:
    """The match's span in the message (``offset`` = where its clause starts)."""
    return (offset + m.start(), offset + m.end())


def make(
    st: State,
    rule: Rule,
    mtype: MemoryType,
    key: str,
    value: dict[str, Any],
    span: tuple[int, int],
    reason: str | None = None,
) -> Candidate:
    return Candidate.rendered(mtype, key, value, role=st.role, span=span, reason=reason or rule.name)


def task_value(
    title: str, status: TaskStatus, project: str, due: str | None, notes: str | None = None
) -> dict[str, Any]:
    value: dict[str, Any] = {"title": title, "status": status, "project": project}
    if due:
        value["due"] = due
    if notes:
        value["notes"] = notes
    return value
