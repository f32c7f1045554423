"""The extraction rule tables: English and Chinese rows merged per family, in priority order.

The rows live in en.toml and zh.toml (param sets they share in shared.toml), loaded once at import.
Each family's English rows come before its Chinese ones (the assistant's guesses about the user first of
all preferences); both run on every message, so mixed text works and each rule matches its own language.
"""

from __future__ import annotations

from graphbrain.commit.rules.table import ALL_ROLES, Family, Rule, load_rows, table
from graphbrain.nlp.chars import HAN_CLASS
from graphbrain.nlp.chinese import ZH_OCCUPATIONS

# Fragments the patterns share with code elsewhere.
_en, _zh = load_rows(("en.toml", "zh.toml"), {"han_class": HAN_CLASS, "occupations_zh": ZH_OCCUPATIONS})

STATUS_RULES = table("status", _en["status"] + _zh["status"])
DECISION_RULES = table("decision", _en["decision"] + _zh["decision"])
GOAL_RULES = table("goal", _en["goal"] + _zh["goal"])
EVENT_RULES = table("event", _en["event"] + _zh["event"])
PREFERENCE_RULES = table(
    "preference", _en["preference_guess"] + _zh["preference_guess"] + _en["preference"] + _zh["preference"]
)
PROFILE_RULES = table("profile", _en["profile"] + _zh["profile"])
TASK_RULES = table("task", _en["task"] + _zh["task"])
RETRACTION_MARKERS = table("retraction", _en["retraction"] + _zh["retraction"])
# Inside a correction, "use X for Y" / "用 X 做 Y" is a decision even without "we decided".
CORRECTION_RULES = table("decision", _en["correction"] + _zh["correction"])

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
