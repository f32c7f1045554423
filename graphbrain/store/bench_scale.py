"""The scale bench's Neo4j-only store work: the backend check and one bulk batch's write transaction.

The scale bench measures against Neo4j's bare index procedures and loads through its ``UNWIND`` Cypher
(``cypher/bench/bulk_*``); the embedded backend's figures come from ``bench locomo --backends`` and
``bench load``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from graphbrain.errors import GraphbrainError

if TYPE_CHECKING:
    from graphbrain.store import Store, Tx

__all__ = ["require_neo4j", "write_bulk_batch"]


def require_neo4j(store: Store) -> None:
    """Raise, saying what to run instead, unless ``store`` is Neo4j."""
    if store.backend != "neo4j":
        raise GraphbrainError(
            f"bench scale runs on Neo4j only (this config uses the {store.backend} backend): set "
            "NEO4J_URI or storage.neo4j.uri; for the embedded backend use `graphbrain bench locomo FILE "
            "--backends neo4j,embedded` or `graphbrain bench load`"
        )


def write_bulk_batch(store: Store, namespace: str, rows: Mapping[str, Any]) -> None:
    """One batch of ``graphbrain.bench.bulk`` rows in one write transaction, parents before children."""

    def work(tx: Tx) -> None:
        p = {"namespace": namespace}
        tx.run("bench/bulk_turns", {**p, "sessions": rows["sessions"], "turns": rows["turns"]})
        if rows["next"]:
            tx.run("bench/bulk_next", {"pairs": rows["next"]})
        if rows["refs"]:
            tx.run("bench/bulk_refs", {**p, "refs": rows["refs"]})
        if rows["retire"]:
            tx.run("bench/bulk_retire", {"items": rows["retire"]})
        if rows["items"]:
            tx.run("bench/bulk_memory", {**p, "items": rows["items"], "keys": rows["keys"]})
        if rows["links"]:
            tx.run("bench/bulk_links", {"links": rows["links"]})
        tx.run(
            "bench/bulk_entities",
            {
                **p,
                "entities": rows["entities"],
                "updates": rows["entity_updates"],
                "message_mentions": rows["message_mentions"],
                "turn_mentions": rows["turn_mentions"],
                "memory_mentions": rows["memory_mentions"],
                "related": rows["related"],
            },
        )

    store.write(work)
