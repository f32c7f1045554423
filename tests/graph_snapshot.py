"""Test helpers for all-or-nothing writes: a full snapshot of a namespace, and a write failing on cue."""

from __future__ import annotations

from typing import Any

import pytest

from graphbrain.errors import StoreError
from graphbrain.store import Store


def _norm(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    if isinstance(value, float):
        return round(value, 5)
    return value


def snapshot(store: Store, namespace: str) -> tuple[list[str], list[str]]:
    """Every node and relationship of the namespace with all its labels and properties, sorted."""
    params = {"ns": namespace}
    nodes = store.cypher(
        "MATCH (n {namespace: $ns}) RETURN labels(n) AS labels, properties(n) AS props", params, row_cap=100_000
    ).rows
    edges = store.cypher(
        "MATCH (a {namespace: $ns})-[r]->(b) RETURN a.id AS a, type(r) AS t, properties(r) AS props, b.id AS b",
        params,
        row_cap=100_000,
    ).rows
    node_list = sorted(repr((sorted(r["labels"]), _norm(r["props"]))) for r in nodes)
    edge_list = sorted(repr((r["a"], r["t"], _norm(r["props"]), r["b"])) for r in edges)
    return node_list, edge_list


class FailingTx:
    """A transaction that raises right after running the named statement (its effects are applied)."""

    def __init__(self, tx: Any, target: str, reached: list[str], error: type[Exception]) -> None:
        self.tx, self.target, self.reached, self.error = tx, target, reached, error

    def run(self, name: str, params: Any = None) -> Any:
        rows = self.tx.run(name, params)
        self.reached.append(name)
        if name == self.target:
            raise self.error(f"injected failure after {name}")
        return rows


def fail_writes_after(
    monkeypatch: pytest.MonkeyPatch, store: Store, target: str, error: type[Exception] = StoreError
) -> list[str]:
    """Make ``store.write`` fail right after ``target`` runs; returns the statements reached, in order."""
    reached: list[str] = []
    real = store.write

    def write(fn: Any, **kwargs: Any) -> Any:
        return real(lambda tx: fn(FailingTx(tx, target, reached, error)), **kwargs)

    monkeypatch.setattr(store, "write", write)
    return reached
