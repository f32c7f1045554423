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


def test_a_plans_second_search_of_a_crowded_index_skips_the_rung_the_first_one_climbed_past(
    brain_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first search of an index learns how few of its hits survive the namespace and filters; the next
    # search of the same index in the plan starts at the rung that share asks for, not at the bottom.
    mine: Brain = brain_factory()
    crowd: Brain = brain_factory()
    for k in range(3):
        crowd.commit_turn("s", {"turn_id": f"c{k}", **decisions(40, 40 * k)})
    mine.commit_turn("s", {"turn_id": "m1", **decisions(1, 999)})
    ours = mine.store.cypher(
        "MATCH (m:Memory {namespace: $ns, type: 'decisions'}) RETURN m.id AS id", {"ns": mine.namespace}
    ).rows[0]["id"]

    asked: list[tuple[str | None, int]] = []  # (model, k) of every memory vector search, in order

    class Recording:
        def __init__(self, tx: Any) -> None:
            self.tx = tx

        def run(self, name: str, params: Any = None) -> Any:
            if name == "retrieve/semantic_memory":
                asked.append((params.get("model"), params["k"]))
            return self.tx.run(name, params)

    real_read = mine.store.read
    monkeypatch.setattr(mine.store, "read", lambda work: real_read(lambda tx: work(Recording(tx))))
    plan = {
        "version": "0.1",
        "queries": [
            {"text": QUERY, "mode": "semantic"},
            {"text": "the zeta cache layer, rewritten", "mode": "semantic"},
        ],
        "budget": {"candidate_k": 10},  # a first raw k of 100: fewer than the neighbour's 120 items
    }
    pack = Executor(mine.config, mine.store, lambda: mine.embedder, lambda: mine.english_embedder).retrieve(
        plan, namespace=mine.namespace
    )
    assert f"memory:{ours}" in [e.id for e in pack.evidences], pack.warnings
    climbed = [
        ks
        for model in sorted({m or "" for m, _ in asked})
        if len(ks := [k for m, k in asked if (m or "") == model]) > 2
    ]
    assert climbed, asked
    for ks in climbed:
        # The first query climbs from its first k; the second skips that rung: it knows few hits survive.
        second = next(i for i in range(1, len(ks)) if ks[i] <= ks[i - 1])
        assert ks[0] < ks[second], asked
