"""What every bench run does around a brain: clear a namespace, count it, time its models."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from graphbrain.bench.ingest_bench import TimedEmbedder

if TYPE_CHECKING:
    from graphbrain.brain import Brain
    from graphbrain.store import Store

__all__ = ["delete_namespace", "namespace_counts", "namespace_shapes", "timed_embedder"]

DELETE_BATCH = 10_000


def delete_namespace(store: Store, namespace: str, batch: int = DELETE_BATCH) -> int:
    """Delete every node of ``namespace``: relationships first, then nodes, ``batch`` per transaction.

    Returns the number of nodes deleted.
    """

    def drain(query: str) -> int:
        total = 0
        while True:
            rows = store.run(query, {"namespace": namespace, "batch": batch}, write=True)
            deleted = int(rows[0]["deleted"]) if rows else 0
            total += deleted
            if deleted < batch:
                return total

    drain("bench/delete_namespace_edges")
    return drain("bench/delete_namespace")


def namespace_counts(store: Store, namespace: str) -> dict[str, int]:
    rows = store.run("bench/namespace_counts", {"namespace": namespace})
    return {k: int(v) for k, v in (rows[0] if rows else {}).items()}


def namespace_shapes(store: Store, namespace: str) -> dict[str, dict[str, list[str]]]:
    """The property keys of ``namespace``'s nodes per label and of its relationships per type, each the
    union over every node (relationship) that has it: ``{"nodes": {label: keys}, "edges": {type: keys}}``."""
    nodes: dict[str, set[str]] = {}
    for row in store.run("bench/node_shapes", {"namespace": namespace}):
        for label in row["labels"]:
            keys = nodes.setdefault(label, set())
            for key_set in row["key_sets"]:
                keys.update(key_set)
    edges: dict[str, set[str]] = {}
    for row in store.run("bench/edge_shapes", {"namespace": namespace}):
        keys = edges.setdefault(row["type"], set())
        for key_set in row["key_sets"]:
            keys.update(key_set)
    return {
        "nodes": {label: sorted(keys) for label, keys in sorted(nodes.items())},
        "edges": {kind: sorted(keys) for kind, keys in sorted(edges.items())},
    }


@contextmanager
def timed_embedder(brain: Brain) -> Iterator[TimedEmbedder]:
    """Route every call of ``brain``'s embedding models (commit, retrieve, compose) through one timer.

    ``Brain.embedder`` and ``Brain.english_embedder`` are cached properties, so timers take their places
    in the instance dictionary, sharing one clock; they forward to the same loaded models.
    """
    state = vars(brain)
    saved = {name: (name in state, state.get(name)) for name in ("embedder", "english_embedder")}
    timed = TimedEmbedder(brain.embedder)
    state["embedder"] = timed
    english = brain.english_embedder
    if english is not None:
        state["english_embedder"] = TimedEmbedder(english, clock=timed)
    try:
        yield timed
    finally:
        for name, (had, previous) in saved.items():
            if had:
                state[name] = previous
            else:
                state.pop(name, None)
