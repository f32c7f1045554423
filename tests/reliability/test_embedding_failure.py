"""The embedding model failing: the turn is still stored, the missing vectors are recorded, and
``graphbrain reindex`` (Brain.reindex) fills them; compose_context keeps answering from full-text."""

from __future__ import annotations

from typing import Any

import pytest

from graphbrain import Brain


def _missing(brain: Brain) -> dict[str, int]:
    rows = brain.store.cypher(
        # Candidate entities have no vector by design (not memory until the gate promotes them).
        "MATCH (n {namespace: $ns}) WHERE (n:Memory OR n:Message) AND n.embedding IS NULL "
        "AND coalesce(n.status, '') <> 'candidate' "
        "RETURN CASE WHEN n:Message THEN 'Message' ELSE 'Memory' END AS label, count(n) AS n",
        {"ns": brain.namespace},
    ).rows
    return {r["label"]: int(r["n"]) for r in rows}


def _flagged(brain: Brain) -> int:
    return int(
        brain.store.cypher(
            "MATCH (n {namespace: $ns}) WHERE n.missing_embedding = true RETURN count(n) AS n", {"ns": brain.namespace}
        ).rows[0]["n"]
    )


TURN = {
    "turn_id": "t1",
    "messages": [
        {"role": "user", "content": "We decided to store vectors in Neo4j. TODO: 写一个 benchmark 脚本。"},
        {"role": "assistant", "content": "Noted."},
    ],
}


def test_model_failure_stores_the_turn_and_reindex_fills_it(brain: Brain, monkeypatch: pytest.MonkeyPatch) -> None:
    brain.embedder.embed(["load the model first"])

    def broken(self: Any, texts: list[str]) -> Any:
        raise RuntimeError("onnxruntime: session crashed")

    monkeypatch.setattr(type(brain.embedder), "_embed_batch", broken)
    r = brain.commit_turn("s1", TURN)
    assert r.status == "committed" and r.memory_written
    assert any("embedding failed" in w for w in r.warnings)
    missing = _missing(brain)
    assert missing.get("Message") == 2 and missing.get("Memory", 0) >= 2
    assert _flagged(brain) == sum(missing.values())  # recorded, so reindex knows what to fill

    # Still answering while the model is down: exact recall has no need of vectors.
    pkg = brain.compose_context("s2", "what did we decide about Neo4j?")
    assert any("Neo4j" in ev.snippet for ev in pkg.evidence)
    assert any("embedding" in w for w in pkg.debug.warnings)

    monkeypatch.undo()
    report = brain.reindex()
    assert report["total"] == sum(missing.values())
    assert _missing(brain) == {} and _flagged(brain) == 0
    assert brain.reindex()["total"] == 0  # nothing left to do

    hits = brain.retrieve(
        {"version": "1", "queries": [{"text": "where are the vectors kept", "mode": "semantic"}], "scope": ["memory"]}
    )
    assert any("Neo4j" in ev.snippet for ev in hits.evidences)


def test_model_that_cannot_load_still_stores_the_turn(brain: Brain, monkeypatch: pytest.MonkeyPatch) -> None:
    from graphbrain.errors import EmbeddingError

    def cannot_load() -> Any:
        raise EmbeddingError("embedding model missing: install use-multilingual")

    monkeypatch.setattr(type(brain), "embedder", property(lambda self: cannot_load()))
    r = brain.commit_turn("s1", TURN)
    assert r.status == "committed"
    assert any("embedding failed" in w for w in r.warnings)
    assert _missing(brain).get("Message") == 2
