"""The extraction rule tables: English and Chinese rows merged per family, in priority order.

Each family's English rows come before its Chinese ones (the assistant's guesses about the user first of
all preferences); both run on every message, so mixed text works and each rule matches its own language.
"""

from __future__ import annotations

from graphbrain.commit.rules import en, zh
from graphbrain.commit.rules.table import ALL_ROLES, Family, Rule, table

STATUS_RULES = table("status", en.STATUS + zh.STATUS)
DECISION_RULES = table("decision", en.DECISION + zh.DECISION)
GOAL_RULES = table("goal", en.GOAL + zh.GOAL)
EVENT_RULES = table("event", en.EVENT + zh.EVENT)
PREFERENCE_RULES = table("preference", en.PREFERENCE_GUESS + zh.PREFERENCE_GUESS + en.PREFERENCE + zh.PREFERENCE)
PROFILE_RULES = table("profile", en.PROFILE + zh.PROFILE)
TASK_RULES = table("task", en.TASK + zh.TASK)
RETRACTION_MARKERS = table("retraction", en.RETRACTION + zh.RETRACTION)
# Inside a correction, "use X for Y" / "用 X 做 Y" is a decision even without "we decided".
CORRECTION_RULES = table("decision", en.CORRECTION + zh.CORRECTION)

# The order a clause is tried in: the first rule to match a span claims it, so one clause yields one candidate.
RULES: tuple[Rule, ...] = (
    STATUS_RULES + DECISION_RULES + GOAL_RULES + EVENT_RULES + PREFERENCE_RULES + PROFILE_RULES + TASK_RULES
)

__all__ = [
    "ALL_ROLES",
    "CORRECTION_RULES",
    "DECISION_RULES",
    "EVENT_RULES",
    "GOAL_RULES",
    "PREFERENCE_RULES",
    "PROFILE_RULES",
    "RETRACTION_MARKERS",
    "RULES",
    "STATUS_RULES",
    "TASK_RULES",
    "Family",
    "Rule",
]
