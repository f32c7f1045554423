"""Export a namespace's memory graph for other tools (Gephi, yEd, Cytoscape, networkx itself).

    export_graph(store, "acme", "graphml", "acme.graphml")      # written with networkx.write_graphml
    data = export_graph(store, "acme", "json")                  # networkx node-link data

The graph is a ``networkx.MultiDiGraph``: every Memory node of the namespace (entities included) keyed by
its id, with its properties, ``labels`` ("Memory:Decision") and a display ``label``; edges with their
``type`` (SUPERSEDES, VERSION_OF, RETRACTS, MENTIONS, RELATED_TO) and properties, each with an id of its
own (``TYPE:source->target``: GraphML edge ids are unique). With ``include_sessions`` the Session and
Turn nodes come too, with HAS_TURN, NEXT, the turns' MENTIONS and the items' DERIVED_FROM edges.
What only the storage needs stays out: embeddings, the pre-tokenised full-text copies (``*_fts``), the
``aliases_text`` index field, the ``active_key`` constraint field and bookkeeping labels.

GraphML holds only strings, numbers and booleans, so dates become ISO strings, lists and maps JSON
strings, nulls are dropped, characters XML 1.0 forbids are removed, and an attribute that has numbers of
both kinds (or numbers and strings) across nodes is written with one type.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, time
from os import PathLike, fspath
from pathlib import Path
from typing import Any, Literal

import networkx as nx

from graphbrain.admin.memory import require_namespace
from graphbrain.errors import InputError
from graphbrain.store import Row, Store

__all__ = ["EXPORT_PAGE", "ExportFormat", "build_graph", "export_graph", "graphml_value"]

ExportFormat = Literal["graphml", "json"]
EXPORT_PAGE = 1000  # nodes per query (keyset paging on id)

_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# Edges kept only when their target is exported too (DERIVED_FROM points at turns).
_SESSION_EDGES = frozenset({"DERIVED_FROM"})
# Storage internals (index copies, constraint keys, vectors): not part of what a user's graph says.
_INTERNAL = frozenset({"embedding", "active_key", "aliases_text"})
_INTERNAL_LABELS = frozenset({"FtsPending", "Active"})


def graphml_value(value: Any) -> str | int | float | bool | None:
    """A property value as GraphML can hold it (None: leave the attribute out)."""
    if value is None:
        return None
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return _XML_FORBIDDEN.sub("", value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return _XML_FORBIDDEN.sub("", json.dumps(value, ensure_ascii=False, default=str, sort_keys=True))


def _attrs(props: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in props.items():
        if k in _INTERNAL or k.endswith("_fts"):
            continue
        safe = graphml_value(v)
        if safe is not None:
            out[k] = safe
    return out


def _display(labels: list[str], props: dict[str, Any]) -> str:
    if "Turn" in labels:
        text = f"{props.get('session_id')}#{props.get('seq')}"
    elif "Session" in labels:
        text = str(props.get("session_id") or props.get("id"))
    else:
        text = str(props.get("name") or props.get("key") or props.get("id"))
    return _XML_FORBIDDEN.sub("", text)


def _pages(store: Store, query: str, namespace: str) -> Iterator[Row]:
    after = ""
    while True:
        rows = store.run(query, {"namespace": namespace, "after": after, "page": EXPORT_PAGE})
        yield from rows
        if len(rows) < EXPORT_PAGE:
            return
        after = rows[-1]["id"]


def build_graph(store: Store, namespace: str, *, include_sessions: bool = False) -> nx.MultiDiGraph:
    """The namespace's memory graph (and, optionally, its sessions and turns) as a MultiDiGraph."""
    require_namespace(namespace)
    g = nx.MultiDiGraph(namespace=namespace, exported_at=datetime.now(UTC).isoformat())
    edges: list[dict[str, Any]] = []
    queries = ["explore/export_memory"]
    if include_sessions:
        queries += ["explore/export_sessions", "explore/export_turns"]
    for query in queries:
        for row in _pages(store, query, namespace):
            labels = sorted(
                (lab for lab in row["labels"] if lab not in _INTERNAL_LABELS), key=lambda lab: (lab != "Memory", lab)
            )
            props = row["props"]
            g.add_node(row["id"], **_attrs(props), labels=":".join(labels), label=_display(labels, props))
            edges.extend(row["edges"])
    for e in edges:
        if e["type"] in _SESSION_EDGES and not include_sessions:
            continue
        # Both ends must be exported nodes: networkx would otherwise invent attribute-less ones.
        if e["source"] in g and e["target"] in g:
            key, n = f"{e['type']}:{e['source']}->{e['target']}", 1
            while g.has_edge(e["source"], e["target"], key):
                n += 1
                key = f"{e['type']}:{e['source']}->{e['target']}#{n}"
            g.add_edge(e["source"], e["target"], key=key, type=e["type"], **_attrs(e.get("props") or {}))
    _unify_types(g)
    return g


def _unify_types(g: nx.MultiDiGraph) -> None:
    """One type per attribute name (GraphML declares a key's type once): ints with floats become floats,
    anything mixed with strings becomes strings."""
    for items in (
        [d for _, d in g.nodes(data=True)],
        [d for _, _, d in g.edges(data=True)],
    ):
        kinds: dict[str, set[type]] = {}
        for d in items:
            for k, v in d.items():
                kinds.setdefault(k, set()).add(bool if isinstance(v, bool) else type(v))
        for k, ts in kinds.items():
            if len(ts) < 2:
                continue
            to_float = ts <= {int, float}
            for d in items:
                if k in d:
                    d[k] = float(d[k]) if to_float else str(d[k])


def export_graph(
    store: Store,
    namespace: str,
    fmt: ExportFormat | str = "graphml",
    path: str | PathLike[str] | None = None,
    *,
    include_sessions: bool = False,
) -> str | dict[str, Any]:
    """Export the namespace's graph as GraphML or node-link JSON.

    With ``path`` the file is written and its path returned; without, GraphML comes back as a string and
    JSON as the node-link dict.
    """
    if fmt not in ("graphml", "json"):
        raise InputError(f"format: {fmt!r} is not graphml or json")
    g = build_graph(store, namespace, include_sessions=include_sessions)
    if fmt == "json":
        data: dict[str, Any] = nx.node_link_data(g, edges="edges")
        if path is None:
            return data
        Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        return fspath(path)
    if path is None:
        buf = io.BytesIO()
        nx.write_graphml(g, buf)
        return buf.getvalue().decode("utf-8")
    nx.write_graphml(g, fspath(path))
    return fspath(path)
