"""The full-text indexes are global (one per label for every namespace): a neighbour tenant with many
hits for the same words must not push this namespace's hits out of exact or relational recall."""

from __future__ import annotations

from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.retrieve import Executor

QUERY = "rewrite the zeta cache layer"


def decisions(n: int, offset: int = 0) -> dict[str, Any]:
    return {
        "messages": [{"role": "user", "content": "ok"}],
        "items": [
            {
                "type": "decisions",
                "key": f"decision:zeta:cache{i + offset}",
                "source": "tool",
                "value": {"topic": f"cache{i + offset}", "decision": QUERY, "project": "zeta"},
            }
            for i in range(n)
        ],
    }


@pytest.mark.parametrize("mode", ["relational", "exact"])
def test_a_crowded_neighbour_does_not_hide_this_tenants_hits(brain_factory: Any, mode: str) -> None:
    mine: Brain = brain_factory()
    crowd: Brain = brain_factory()
    for k in range(3):  # 120 items with the very words, more than any first raw k
        crowd.commit_turn("s", {"turn_id": f"c{k}", **decisions(40, 40 * k)})
    mine.commit_turn("s", {"turn_id": "m1", **decisions(1, 999)})
    ours = mine.store.cypher(
        "MATCH (m:Memory {namespace: $ns, type: 'decisions'}) RETURN m.id AS id", {"ns": mine.namespace}
    ).rows[0]["id"]

    pack = Executor(mine.config, mine.store, lambda: mine.embedder).retrieve(
        {"version": "0.1", "queries": [{"text": QUERY, "mode": mode}]}, namespace=mine.namespace
    )
    assert f"memory:{ours}" in [e.id for e in pack.evidences], pack.warnings
    assert all(e.id.startswith(("memory:", "turn:")) for e in pack.evidences)
