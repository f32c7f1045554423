"""What an extraction rule is: a pattern with named groups, the family that builds it, static params."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

Family = Literal["status", "decision", "goal", "event", "preference", "profile", "task", "retraction"]

ALL_ROLES: frozenset[str] = frozenset({"user", "assistant", "tool", "system"})


@dataclass(frozen=True)
class Rule:
    """One extraction rule: a pattern with named groups, the family that builds it, static params."""

    name: str
    family: Family
    pattern: re.Pattern[str]
    params: Mapping[str, str] = field(default_factory=dict)
    roles: frozenset[str] = ALL_ROLES


def en_re(pattern: str) -> re.Pattern[str]:
    """An English pattern: case-insensitive, and "'" also matches the typographic apostrophe."""
    return re.compile(pattern.replace("'", "['’]"), re.I)


def zh_re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


# A table row: (name, params, pattern). The name's prefix ("en." / "zh.") picks the compiler; the
# params "roles" (comma-separated) limits the rule to some roles, every other param goes to the builder.
Row = tuple[str, dict[str, str], str]


def table(family: Family, rows: Sequence[Row]) -> tuple[Rule, ...]:
    """The rules of one family, compiled, in the order of ``rows`` (the first to match a span claims it)."""
    rules: list[Rule] = []
    for name, params, pattern in rows:
        compiled = zh_re(pattern) if name.startswith("zh.") else en_re(pattern)
        builder_params = {k: v for k, v in params.items() if k != "roles"}
        roles = frozenset(params["roles"].split(",")) if "roles" in params else ALL_ROLES
        rules.append(Rule(name, family, compiled, builder_params, roles=roles))
    return tuple(rules)


# The params rows share.
BLOCKED = {"status": "blocked"}
DONE = {"status": "done"}
DOING = {"status": "doing"}
USE = {"use": "1"}
POS = {"polarity": "positive"}
NEG = {"polarity": "negative"}
# Retraction markers. Strong ones correct something even when nothing else in the sentence says what;
# weak ones ("actually …", "其实…") only count when the sentence corrects a known item or says "not Y".
STRONG = {"strength": "strong"}
WEAK = {"strength": "weak"}
