"""The builders: per rule family, turning a rule's match into Candidates with stable keys."""

from __future__ import annotations

from graphbrain.commit.builders.base import Builder, State
from graphbrain.commit.builders.decisions import build_decision, build_goal
from graphbrain.commit.builders.events import build_event
from graphbrain.commit.builders.preferences import build_preference
from graphbrain.commit.builders.profile import build_profile
from graphbrain.commit.builders.tasks import build_status, build_task

BUILDERS: dict[str, Builder] = {
    "status": build_status,
    "task": build_task,
    "decision": build_decision,
    "goal": build_goal,
    "event": build_event,
    "preference": build_preference,
    "profile": build_profile,
}

__all__ = ["BUILDERS", "Builder", "State"]
