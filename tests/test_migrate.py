"""graphbrain migrate: a seeded namespace goes embedded → Neo4j → embedded and comes back the same —
equal counts per label and edge type, the same semantic retrieval on sample plans, each hop."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.config import load_config
from graphbrain.errors import StoreError
from graphbrain.store.base import Store
from graphbrain.store.migrate import (
    IDENTICAL_MODES,
    SAMPLE_MODES,
    count_edges,
    count_labels,
    migrate,
    sample_plan_runner,
)
from graphbrain.store.neo4j_store import Neo4jStore

ROOT = Path(__file__).resolve().parents[1]

TURNS = [
    "We decided to use Neo4j for the memory graph. TODO: write the migration guide.",
    "我更喜欢用中文写文档。Alice 负责 graphbrain 的检索模块。",
    "Alice says the FalkorDB backend ships next week; remember that the demo runs offline.",
]


def _delete(store: Store, ns: str) -> None:
    store.cypher("MATCH (n) WHERE n.namespace = $ns DETACH DELETE n", {"ns": ns}, write=True)


@pytest.fixture()
def seeded(embedded_session_store: Store, embedded_data_dir: Path) -> Any:
    from graphbrain.store.falkordb_store import FalkorStore

    cfg = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.backend": "embedded",
            "storage.data_dir": str(embedded_data_dir),
            "storage.journal": False,
            "namespace": f"mig{uuid.uuid4().hex[:8]}",
        },
    )
    brain = Brain(cfg, FalkorStore(cfg.storage))
    for i, text in enumerate(TURNS):
        brain.commit_turn(
            "s1",
            {
                "turn_id": f"t{i}",
                "messages": [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}],
            },
        )
    brain.ingest(str(ROOT / "seeds" / "docs" / "design-memory-store.md"))
    yield brain
    _delete(brain.store, brain.namespace)
    brain.close()


def test_round_trip_embedded_neo4j_embedded(seeded: Brain, neo4j_uri: str, schema_ready: None) -> None:
    ns = seeded.namespace
    neo = Neo4jStore(load_config(ROOT / "brain.yml", overrides={"storage.neo4j.uri": neo4j_uri}).storage.neo4j)
    try:
        _delete(neo, ns)
        texts = [str(r["text"]) for r in seeded.store.run("migrate/sample_texts", {"ns": ns, "n": 6})]
        verify = sample_plan_runner(seeded.config, lambda: seeded.embedder, ns, texts)
        original = count_labels(seeded.store, ns), count_edges(seeded.store, ns)
        assert original[0].get("Turn") == 3 and original[0].get("Chunk", 0) > 0 and original[0].get("Entity", 0) > 0

        there = migrate(seeded.store, neo, ns, verify_plans=verify)
        assert there.counts_match, there.summary()
        assert there.retrieval_matches and len(there.plans) == len(SAMPLE_MODES) * len(texts), there.summary()
        for mode in IDENTICAL_MODES:  # identical, and not by being empty
            assert any(p.source_ids for p in there.plans if p.mode == mode), there.summary()

        # The destination must be empty: a second copy is refused, nothing doubled.
        with pytest.raises(StoreError, match="already holds"):
            migrate(seeded.store, neo, ns)

        _delete(seeded.store, ns)
        back = migrate(neo, seeded.store, ns, verify_plans=verify)
        assert back.ok, back.summary()
        assert (count_labels(seeded.store, ns), count_edges(seeded.store, ns)) == original

        # And the product works on the copy: a new turn commits with the next sequence number.
        r = seeded.commit_turn("s1", {"turn_id": "t9", "messages": [{"role": "user", "content": "TODO: ship it."}]})
        assert r.status == "committed" and r.seq == 4
    finally:
        _delete(neo, ns)
        neo.close()


def test_render_refuses_anything_but_identifiers(seeded: Brain) -> None:
    q = seeded.store.queries
    assert "MATCH (n:Memory)" in q.render("migrate/page_nodes", label="Memory")
    assert "CREATE (n:Memory:Decision)" in q.render("migrate/write_nodes", labels="Memory:Decision")
    for bad in ("Memory) DETACH DELETE n //", "Memory`", "", "1abc", "Memory:", "a b"):
        with pytest.raises(ValueError, match="not a plain identifier"):
            q.render("migrate/page_nodes", label=bad)
