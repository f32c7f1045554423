"""A commit_turn that fails half-way leaves the graph exactly as it was, on both backends.

Neo4j rolls the write transaction back. The embedded backend has no multi-statement transactions, so
the pipeline hands the store an Undo (cypher/undo/): its pre-image of the session, key locks, active
items, entities, relations and refs is put back and what the turn created is deleted. The failure is
injected right after each write statement in turn, on a commit that supersedes a preference, updates
known entities and a known ref, creates new ones and writes a summary version and a trace.
"""

from __future__ import annotations

from typing import Any

import pytest
from graph_snapshot import fail_writes_after, snapshot

from graphbrain import Brain

T1 = {
    "turn_id": "t1",
    "messages": [
        {"role": "user", "content": "I prefer tabs for indentation. Alice Smith and Bob Jones work on Neo4j."},
        {"role": "assistant", "content": "Noted."},
    ],
    "refs": [{"type": "url", "uri": "https://neo4j.com/docs", "title": "Neo4j docs"}],
}
T2 = {
    "turn_id": "t2",
    "messages": [
        {
            "role": "user",
            "content": "Actually I prefer spaces for indentation. We decided to use Neo4j 5.26. "
            "Alice Smith and Bob Jones met Carol White in Berlin. TODO: write the parser. "
            "我们决定用 Neo4j 做记忆库。",
        },
        {
            "role": "assistant",
            "content": "Calling the search tool.",
            "tool_calls": [{"id": "c1", "name": "web_search", "args": {"q": "neo4j"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "status": "ok", "content": "3 hits"},
    ],
    "refs": [
        {"type": "url", "uri": "https://neo4j.com/docs", "title": "Neo4j documentation"},
        {"type": "url", "uri": "https://example.com/parser"},
    ],
}
FAIL_AFTER = [
    "commit/lock_session",
    "commit/lock_keys",
    "commit/write_turn",
    "commit/write_memory",
    "commit/write_entities",
    "commit/relate_entities",
    "commit/write_summary",
    "commit/write_trace",
]


@pytest.mark.parametrize("target", FAIL_AFTER)
def test_failure_after_any_statement_leaves_the_graph_as_it_was(
    brain_factory: Any, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    # Every turn triggers a summary, so the failing commit also writes a summary version.
    brain: Brain = brain_factory(**{"policies.retention.summarize_after_turns": 1})
    first = brain.commit_turn("s1", T1)
    assert first.status == "committed"
    before = snapshot(brain.store, brain.namespace)

    reached = fail_writes_after(monkeypatch, brain.store, target, RuntimeError)
    with pytest.raises(RuntimeError, match="injected"):
        brain.commit_turn("s1", T2)
    assert reached[-1] == target, f"the commit never ran {target} (ran {reached})"
    assert snapshot(brain.store, brain.namespace) == before

    monkeypatch.undo()
    second = brain.commit_turn("s1", T2)
    assert second.status == "committed" and second.seq == 2
    assert snapshot(brain.store, brain.namespace) != before
    prefs = brain.store.cypher(
        "MATCH (m:Memory {namespace: $ns, type: 'preferences', status: 'active'}) RETURN m.value_json AS v",
        {"ns": brain.namespace},
    ).rows
    assert len(prefs) == 1 and "spaces" in prefs[0]["v"]


def test_a_turn_another_writer_committed_first_survives_and_ours_is_a_duplicate(
    brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race the duplicate check cannot see (it reads before the write lock): our write fails on the
    Turn constraint, and taking it back must not take their turn with it."""
    assert brain.commit_turn("s1", T2).status == "committed"
    before = snapshot(brain.store, brain.namespace)
    real_read = brain.store.read

    def blind(fn: Any) -> Any:  # the pre-read as it was just before the other writer committed
        out = real_read(fn)
        return {**out, "dup": [], "state": [], "context": [], "entities": []} if out.get("dup") else out

    monkeypatch.setattr(brain.store, "read", blind)
    again = brain.commit_turn("s1", T2)
    monkeypatch.undo()
    assert again.status == "duplicate" and again.seq == 1
    assert snapshot(brain.store, brain.namespace) == before
