"""What an extraction rule is, and how the rule rows in the .toml data files become compiled rules."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal

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


_FRAGMENT = re.compile(r"\$\{(\w+)\}")


def _data(filename: str) -> dict[str, Any]:
    with resources.files(__package__).joinpath(filename).open("rb") as f:
        return tomllib.load(f)


def _joined(text: str | list[str]) -> str:
    """A pattern or fragment: one string, or a list of pieces (kept short for reading) to join."""
    return text if isinstance(text, str) else "".join(text)


def load_rows(filenames: Sequence[str], fragments: Mapping[str, str]) -> list[dict[str, tuple[Row, ...]]]:
    """The rows of each data file, per family, in file order.

    A pattern (or fragment) is a string or a list of strings to join. A row's ``shared`` names a param set
    in shared.toml, its ``params`` are merged after; ``${name}`` in a pattern inserts a fragment: from
    ``fragments`` or any file's ``[fragments]`` table.
    """
    shared: dict[str, dict[str, str]] = _data("shared.toml")["params"]
    files = [_data(name) for name in filenames]
    frags = dict(fragments)
    for data in files:
        frags.update({name: _joined(text) for name, text in data.pop("fragments", {}).items()})
    tables: list[dict[str, tuple[Row, ...]]] = []
    for data in files:
        tables.append(
            {
                family: tuple(
                    (
                        row["name"],
                        {**(shared[row["shared"]] if "shared" in row else {}), **row.get("params", {})},
                        _FRAGMENT.sub(lambda m: frags[m[1]], _joined(row["pattern"])),
                    )
                    for row in rows
                )
                for family, rows in data.items()
            }
        )
    return tables
