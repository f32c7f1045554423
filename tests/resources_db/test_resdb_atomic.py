"""A document ingest that fails half-way, on both backends.

A new document leaves nothing behind (Neo4j rolls back; embedded runs cypher/undo/ingest from the
pre-image). A re-ingest that fails keeps the old version on Neo4j; on embedded the old content was
already replaced, so the document is marked stale and the next ingest rewrites it whole. Either way the
next ingest gives exactly what a clean ingest gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from graph_snapshot import fail_writes_after, snapshot

from graphbrain import Brain
from graphbrain.errors import StoreError
from graphbrain.resources.ingest import Ingestor

DOC_V1 = """# Field guide

## Animals

The zebrastripe marker appears only in the first version. Alice Smith watched the zebras near Nairobi
with Bob Jones, who wrote the notes.

## Plants

Baobab trees store water in their trunks; Alice Smith measured one near Arusha. The method is at
https://example.org/baobab-survey and the data in surveys/baobab.csv.
"""
DOC_V2 = DOC_V1.replace("zebrastripe marker appears only in the first", "quokkasmile marker appears only in the second")
WRITES = [
    "resources/upsert_document",
    "resources/write_sections",
    "resources/write_chunks",
    "resources/write_labels",
    "resources/write_entities",
]


def _ingest(brain: Brain, path: Path) -> Any:
    ingestor = Ingestor(brain.config, brain.store, lambda: brain.embedder)
    return ingestor.ingest(path, namespace=brain.namespace, tags=["field"], topics=["nature"]).documents[0]


def _ingest_fails(brain: Brain, path: Path) -> None:
    """A single file's ingest raises the store's error (a directory's would report it per file)."""
    with pytest.raises(StoreError, match="injected"):
        _ingest(brain, path)


def _content(brain: Brain) -> dict[str, Any]:
    """What an ingest leaves, in terms that do not depend on the namespace."""

    def rows(q: str) -> list[Any]:
        return [tuple(r.values()) for r in brain.store.cypher(q, {"ns": brain.namespace}, row_cap=10_000).rows]

    return {
        "chunks": rows("MATCH (c:Chunk {namespace: $ns}) RETURN c.text AS t ORDER BY t"),
        "sections": rows("MATCH (s:Section {namespace: $ns}) RETURN s.title AS t ORDER BY t"),
        "documents": rows("MATCH (d:Document {namespace: $ns}) RETURN d.content_hash AS h, d.chunk_count AS n"),
        "entities": rows(
            "MATCH (e:Entity {namespace: $ns}) RETURN e.canonical AS c, e.mention_count AS n, e.aliases AS a ORDER BY c"
        ),
        "labels": rows(
            "MATCH (d:Document {namespace: $ns})-[r]->(l) WHERE l:Tag OR l:Topic RETURN l.name AS n ORDER BY n"
        ),
    }


@pytest.mark.parametrize("target", WRITES)
def test_a_new_document_failing_half_way_leaves_nothing(
    brain: Brain, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, target: str
) -> None:
    # Known entities too, so their mention counts and aliases must come back.
    said = "Alice Smith sent https://example.org/baobab-survey again; see https://example.org/baobab-survey."
    brain.commit_turn("s1", {"turn_id": "t1", "messages": [{"role": "user", "content": said}]})
    known = "MATCH (e:Entity {namespace: $ns}) RETURN e.canonical AS c"
    assert any("baobab-survey" in r["c"] for r in brain.store.cypher(known, {"ns": brain.namespace}).rows)
    before = snapshot(brain.store, brain.namespace)
    path = tmp_path / "guide.md"
    path.write_text(DOC_V1, encoding="utf-8")

    reached = fail_writes_after(monkeypatch, brain.store, target)
    _ingest_fails(brain, path)
    assert reached[-1] == target, f"the ingest never ran {target} (ran {reached})"
    assert snapshot(brain.store, brain.namespace) == before

    monkeypatch.undo()
    assert _ingest(brain, path).status == "created"


@pytest.mark.parametrize("target", ["resources/write_sections", "resources/write_entities"])
def test_a_failed_reingest_is_repaired_by_the_next_ingest(
    brain_factory: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, target: str
) -> None:
    path = tmp_path / "guide.md"
    path.write_text(DOC_V1, encoding="utf-8")
    clean, broken = brain_factory(), brain_factory()
    for b in (clean, broken):
        assert _ingest(b, path).status == "created"
    path.write_text(DOC_V2, encoding="utf-8")
    assert _ingest(clean, path).status == "updated"

    fail_writes_after(monkeypatch, broken.store, target)
    _ingest_fails(broken, path)
    monkeypatch.undo()
    again = _ingest(broken, path)
    assert again.status == "updated" and again.changed == "content"
    assert _content(broken) == _content(clean)
