"""The scale bench's store work: one bulk batch of ``graphbrain.bench.bulk`` rows in one write.

One ``UNWIND`` statement per kind of write (``cypher/bench/bulk_*``), parents before children, in one
write transaction (on the embedded backend: under the store's write lock, one statement at a time).
Where FalkorDB's dialect differs (vectors with ``vecf32()``, no ``datetime()``, full-text copies filled
after the statement for nodes marked ``FtsPending``) the ``.falkordb.cypher`` file says so; the rows
are the same for both backends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphbrain.store import Store, Tx

__all__ = ["write_bulk_batch"]

# (query, parameter name, row key) in write order: each child finds its parent already written.
_STEPS = (
    ("bench/bulk_sessions", "sessions", "sessions"),
    ("bench/bulk_turns", "turns", "turns"),
    ("bench/bulk_next", "pairs", "next"),
    ("bench/bulk_refs", "refs", "refs"),
    ("bench/bulk_retire", "items", "retire"),
    ("bench/bulk_keys", "keys", "keys"),
    ("bench/bulk_memory", "items", "items"),
    ("bench/bulk_links", "links", "links"),
    ("bench/bulk_entities", "entities", "entities"),
    ("bench/bulk_entity_counts", "updates", "entity_updates"),
    ("bench/bulk_message_mentions", "mentions", "message_mentions"),
    ("bench/bulk_turn_mentions", "mentions", "turn_mentions"),
    ("bench/bulk_memory_mentions", "mentions", "memory_mentions"),
    ("bench/bulk_related", "related", "related"),
)


def write_bulk_batch(store: Store, namespace: str, rows: Mapping[str, Any]) -> None:
    """One batch of ``graphbrain.bench.bulk`` rows in one write transaction, parents before children."""

    def work(tx: Tx) -> None:
        for query, param, key in _STEPS:
            if rows.get(key):
                tx.run(query, {"namespace": namespace, param: rows[key]})

    store.write(work)
