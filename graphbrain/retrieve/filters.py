"""Which sides a query searches and the Cypher parameters of each, from the plan's filters.

Sides and filters. A query searches memory items (``memory``), turns (``turns``: Message nodes) and
resources (``resources``: Chunk nodes). Each filter applies to some sides only (``FILTER_SIDES``):

- ``document_ids``, ``tag_ids``, ``topic_ids`` (by id or name), ``source_type``, ``source_uri_prefix``:
  resources only. They are *restricting*: when given, the memory and turn sides are skipped, unless
  ``scope`` names them (then the filter is ignored there, and ``ignored_fields`` says so).
- ``types``, ``status``: memory only, restricting in the same way. ``status`` defaults to ``['active']``.
- ``session_ids``: memory (the item's source session) and turns; restricting (resources have no session).
- ``language``: turns and resources; a memory item has no language, so there it is ignored and named.
  ``zh`` or ``en`` also admits ``mixed`` text (detect_language's label for Chinese-English text).
- ``time_range``: all sides (resources: the document's ``updated_at``; memory: ``updated_at``; turns:
  the message's ``at``), bounds inclusive.
- ``scope`` (graphbrain extension): the sides to search, default all three (less any a restricting
  filter rules out).
- The namespace is always the caller's ``namespace`` argument; a plan ``namespace`` that differs is
  ignored and warned about. An empty filter list counts as not given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphbrain.contracts import Filters, PackExplain, Query
from graphbrain.retrieve.base import SIDES
from graphbrain.retrieve.candidate import Side

__all__ = [
    "DEFAULT_STATUS",
    "FILTER_SIDES",
    "RESTRICTING",
    "SCOPE_OF_SIDE",
    "SIDE_OF_SCOPE",
    "Report",
    "dedup",
    "resolve_sides",
    "scope_explain",
    "side_params",
]

# scope names (wire) <-> sides (internal)
SIDE_OF_SCOPE: dict[str, Side] = {"memory": "memory", "turns": "turn", "resources": "resource"}
SCOPE_OF_SIDE: dict[Side, str] = {v: k for k, v in SIDE_OF_SCOPE.items()}

_ALL: frozenset[Side] = frozenset(SIDES)
FILTER_SIDES: dict[str, frozenset[Side]] = {
    "document_ids": frozenset({"resource"}),
    "tag_ids": frozenset({"resource"}),
    "topic_ids": frozenset({"resource"}),
    "source_type": frozenset({"resource"}),
    "source_uri_prefix": frozenset({"resource"}),
    "language": frozenset({"turn", "resource"}),
    "time_range": _ALL,
    "types": frozenset({"memory"}),
    "status": frozenset({"memory"}),
    "session_ids": frozenset({"memory", "turn"}),
}
# Filters whose presence narrows the sides searched (a side that cannot honour them is skipped).
RESTRICTING = frozenset(FILTER_SIDES) - {"language", "time_range"}

# Why a filter does not apply to a side (for ignored_fields).
_NOT_ON_SIDE: dict[str, str] = {
    "document_ids": "applies to resources only",
    "tag_ids": "applies to resources only",
    "topic_ids": "applies to resources only",
    "source_type": "applies to resources only",
    "source_uri_prefix": "applies to resources only",
    "language": "memory items carry no language",
    "types": "applies to memory items only",
    "status": "applies to memory items only",
    "session_ids": "documents belong to no session",
}

DEFAULT_STATUS = ["active"]
# Language labels that also admit detect_language's "mixed" (Chinese-English) text.
_MIXED_ADMITS = frozenset({"zh", "en"})


def dedup(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _list_or_none(values: Sequence[Any] | None) -> list[Any] | None:
    """A filter list, or None when it is absent or empty (an empty list counts as not given)."""
    return list(values) if values else None


def _languages(values: Sequence[str] | None) -> list[str] | None:
    if not values:
        return None
    langs = [v.strip().lower() for v in values if v.strip()]
    if any(v in _MIXED_ADMITS for v in langs):
        langs.append("mixed")
    return dedup(langs) or None


@dataclass
class Report:
    """What explain and warnings will say, gathered while the plan runs."""

    ignored: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # filter name -> query index -> (value, sides, default?)
    applied: dict[str, dict[int, tuple[Any, set[Side], bool]]] = field(default_factory=dict)
    implied_scope: dict[int, tuple[list[Side], list[str]]] = field(default_factory=dict)

    def apply(self, name: str, query: int, value: Any, side: Side, default: bool = False) -> None:
        per_query = self.applied.setdefault(name, {})
        _, sides, _ = per_query.setdefault(query, (value, set(), default))
        sides.add(side)

    def filters_applied(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, per_query in self.applied.items():
            queries = sorted(per_query)
            values = [per_query[q][0] for q in queries]
            entry: dict[str, Any] = {
                "sides": sorted({SCOPE_OF_SIDE[s] for q in queries for s in per_query[q][1]}),
                "queries": queries,
            }
            if all(v == values[0] for v in values):
                entry["value"] = values[0]
            else:
                entry["value_by_query"] = {str(q): v for q, v in zip(queries, values, strict=True)}
            if all(per_query[q][2] for q in queries):
                entry["default"] = True
            out[name] = entry
        return out


def resolve_sides(
    index: int, query: Query, f: Filters, namespace: str, report: Report
) -> tuple[tuple[Side, ...], dict[Side, dict[str, Any]]]:
    """The sides one query searches and each side's Cypher parameters; records applied / ignored."""
    given = {
        name: value
        for name in FILTER_SIDES
        if (value := getattr(f, name)) is not None and not (isinstance(value, list) and not value)
    }

    def origin(name: str) -> str:
        own = query.filters is not None and getattr(query.filters, name) is not None
        return f"queries[{index}].filters.{name}" if own else f"global_filters.{name}"

    if f.scope:
        sides = {SIDE_OF_SCOPE[s] for s in f.scope}
        for side in sides:
            report.apply("scope", index, sorted(set(f.scope)), side)
    else:
        sides = set(SIDES)
        narrowing = [n for n in given if n in RESTRICTING]
        for name in narrowing:
            sides &= FILTER_SIDES[name]
        if narrowing and sides != set(SIDES):
            report.implied_scope[index] = ([s for s in SIDES if s in sides], narrowing)
        if not sides:
            report.warnings.append(
                f"queries[{index}]: the filters {', '.join(narrowing)} apply to no common side, so "
                "nothing was searched; name the side(s) to search in filters.scope"
            )
    ordered = tuple(s for s in SIDES if s in sides)
    for name in given:
        for side in ordered:
            if side not in FILTER_SIDES[name]:
                report.ignored.append(f"{origin(name)} ({SCOPE_OF_SIDE[side]}: {_NOT_ON_SIDE[name]})")

    params: dict[Side, dict[str, Any]] = {}
    for side in ordered:
        params[side] = side_params(index, side, f, given, namespace, report)
    return ordered, params


def side_params(
    index: int, side: Side, f: Filters, given: Mapping[str, Any], namespace: str, report: Report
) -> dict[str, Any]:
    """Every parameter a ``retrieve/*_<side>`` query takes; None turns a filter off."""
    on = {name for name in given if side in FILTER_SIDES[name]}
    for name in sorted(on):
        value = getattr(f, name)
        shown = value
        if name == "time_range":
            shown = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        elif name == "types":
            shown = [t.value for t in value]
        report.apply(name, index, shown, side)
    tr = f.time_range if "time_range" in on else None
    params: dict[str, Any] = {
        "namespace": namespace,
        "time_from": tr.from_ if tr else None,
        "time_to": tr.to if tr else None,
    }
    if side == "memory":
        statuses = _list_or_none(f.status) if "status" in on else None
        if statuses is None:
            statuses = list(DEFAULT_STATUS)
            report.apply("status", index, DEFAULT_STATUS, side, default=True)
        params |= {
            "types": [t.value for t in f.types] if "types" in on and f.types else None,
            "statuses": statuses,
            "session_ids": _list_or_none(f.session_ids) if "session_ids" in on else None,
        }
    elif side == "turn":
        params |= {
            "session_ids": _list_or_none(f.session_ids) if "session_ids" in on else None,
            "languages": _languages(f.language) if "language" in on else None,
        }
    else:
        params |= {
            "document_ids": _list_or_none(f.document_ids) if "document_ids" in on else None,
            "tag_ids": _list_or_none(f.tag_ids) if "tag_ids" in on else None,
            "topic_ids": _list_or_none(f.topic_ids) if "topic_ids" in on else None,
            "source_types": _list_or_none(f.source_type) if "source_type" in on else None,
            "uri_prefixes": _list_or_none(f.source_uri_prefix) if "source_uri_prefix" in on else None,
            "languages": _languages(f.language) if "language" in on else None,
        }
    return params


def scope_explain(report: Report, explain: PackExplain) -> None:
    """Report sides narrowed by restricting filters as an implied scope (so no skip goes unsaid)."""
    if not report.implied_scope:
        return
    implied = sorted(report.implied_scope.items())
    entry: dict[str, Any] = {
        "queries": [q for q, _ in implied],
        "value_by_query": {str(q): [SCOPE_OF_SIDE[s] for s in sides] for q, (sides, _) in implied},
        "implied_by": {str(q): names for q, (_, names) in implied},
    }
    if "scope" in explain.filters_applied:
        explain.filters_applied["scope"]["implied"] = entry
    else:
        explain.filters_applied["scope"] = {"implied": entry}
