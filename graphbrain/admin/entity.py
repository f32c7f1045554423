"""Entity exploration: one entity, its aliases, its neighbourhood and its timeline.

    view = entity_view(store, "acme", "Neo4j")
    view["entity"]["aliases"], view["related"], view["tasks"], view["turns"], view["timeline"]

A name resolves by its canonical form (tried for every entity kind: "acme/graphbrain" is a repo, "Neo4j"
a product), then by display name or alias, then through the ``entity_names`` full-text index (Chinese
phrases, partial names). Everything read stays inside the namespace: the same name in another tenant
is another entity and never shows.
"""

from __future__ import annotations

from typing import Any, get_args

from graphbrain.admin.memory import NotFoundError, check_ref, require_namespace, with_value
from graphbrain.errors import InputError
from graphbrain.nlp import EntityKind, canonicalize
from graphbrain.retrieve.base import lucene_query
from graphbrain.store import Store

__all__ = ["MAX_NEIGHBOURS", "MAX_TIMELINE", "entity_view", "resolve_entity"]

MAX_NEIGHBOURS = 200
MAX_TIMELINE = 1000
_KINDS: tuple[str, ...] = get_args(EntityKind)


def _names(name: str) -> list[str]:
    forms = {canonicalize(name, kind) for kind in _KINDS} | {name.strip().casefold()}
    return sorted(f for f in forms if f)


def resolve_entity(store: Store, namespace: str, name: str, *, limit: int = 10) -> list[dict[str, Any]]:
    """The entities a name may mean, best first (``via``: canonical / id / alias / fulltext)."""
    require_namespace(namespace)
    raw = check_ref(name, "name")
    assert raw is not None
    rows = store.run(
        "explore/find_entity",
        {"namespace": namespace, "names": _names(raw), "raw": raw, "fts": lucene_query(raw), "limit": limit * 4},
    )
    seen: set[str] = set()
    out: list[dict[str, Any]] = []
    for r in rows:  # one entity may match several ways; its best way comes first
        if r["id"] not in seen:
            seen.add(r["id"])
            out.append(r)
    return out[:limit]


def entity_view(
    store: Store, namespace: str, name: str, *, limit: int = 25, timeline_limit: int = 100
) -> dict[str, Any]:
    """The entity a name resolves to, with its neighbourhood and timeline.

    Returns ``entity`` (name, kind, canonical, aliases, counts, dates), ``matched_by``, ``other_matches``
    (other entities the name may mean), ``related`` (RELATED_TO entities with weights), ``tasks`` and
    ``decisions`` that mention it (the current version of each key), ``turns`` and ``documents`` it appears
    in (with dates) and ``timeline`` (mentions, oldest first). Raises NotFoundError when nothing matches.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_NEIGHBOURS:
        raise InputError(f"limit: an integer from 1 to {MAX_NEIGHBOURS}")
    if (
        isinstance(timeline_limit, bool)
        or not isinstance(timeline_limit, int)
        or not 1 <= timeline_limit <= MAX_TIMELINE
    ):
        raise InputError(f"timeline_limit: an integer from 1 to {MAX_TIMELINE}")
    matches = resolve_entity(store, namespace, name, limit=6)
    if not matches:
        raise NotFoundError(f"no entity named {name!r} in namespace {namespace!r}")
    best = matches[0]
    rows = store.run(
        "explore/entity_view",
        {"namespace": namespace, "entity_id": best["id"], "limit": limit, "timeline_limit": timeline_limit},
    )
    if not rows:  # forgotten between the two reads
        raise NotFoundError(f"no entity named {name!r} in namespace {namespace!r}")
    row = rows[0]
    items = [with_value(i) for i in row["items"]]
    return {
        "query": name,
        "matched_by": best["via"],
        "entity": {**row["entity"], "aliases": list(row["entity"].get("aliases") or [])},
        "other_matches": [
            {k: m[k] for k in ("id", "key", "name", "kind", "mention_count", "via")} for m in matches[1:]
        ],
        "related": row["related"],
        "tasks": [i for i in items if i["type"] == "tasks"],
        "decisions": [i for i in items if i["type"] == "decisions"],
        "turns": row["turns"],
        "documents": row["documents"],
        "timeline": row["timeline"],
    }
