"""Change, field updates, removal, failures and the raw-text rule, against the real Neo4j."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.errors import InputError
from graphbrain.ids import stable_id
from graphbrain.resources.ingest import Ingestor
from graphbrain.resources.sources import ManualText, document_id_for, file_uri

Cy = Callable[..., list[dict[str, Any]]]

DOC_V1 = """# Field guide

## Animals

The zebrastripe marker appears only in the first version of this section. It is long enough to be a
proper paragraph about animals that live on the savanna and are easy to recognise.

## Plants

Baobab trees store water in their trunks. This section does not change between the two versions, so its
chunk keeps its id and its vector.
"""

DOC_V2 = DOC_V1.replace("zebrastripe marker appears only in the first", "quokkasmile marker appears only in the second")


def _fulltext(chunk_fulltext: Cy, q: str) -> list[dict[str, Any]]:
    return chunk_fulltext(q, "node.id AS id, node.document_id AS doc")


def _chunks(cy: Cy, doc_id: str) -> list[dict[str, Any]]:
    return cy(
        "MATCH (c:Chunk {namespace: $ns, document_id: $id}) RETURN c.id AS id, c.text AS text ORDER BY c.chunk_index",
        id=doc_id,
    )


def test_changed_file_replaces_chunks_and_keeps_the_document_id(
    brain: Brain, ingestor: Ingestor, cy: Cy, chunk_fulltext: Cy, tmp_path: Path
) -> None:
    path = tmp_path / "guide.md"
    path.write_text(DOC_V1, encoding="utf-8")
    first = ingestor.ingest(path, namespace=brain.namespace, tags=["field"])
    assert first.kind == "file" and first.documents[0].status == "created"
    doc_id = first.document_id
    assert doc_id and doc_id == document_id_for(brain.namespace, file_uri(path))
    old_chunks = _chunks(cy, doc_id)
    assert _fulltext(chunk_fulltext, "zebrastripe")

    path.write_text(DOC_V2, encoding="utf-8")
    second = ingestor.ingest(path, namespace=brain.namespace)
    d = second.documents[0]
    assert (d.status, d.changed, second.document_id) == ("updated", "content", doc_id)
    assert d.chunks == d.chunks_written == len(_chunks(cy, doc_id))

    # The old text is gone from the graph and from the full-text index; the new text is in both.
    assert _fulltext(chunk_fulltext, "zebrastripe") == []
    assert [h["doc"] for h in _fulltext(chunk_fulltext, "quokkasmile")] == [doc_id]
    new_chunks = _chunks(cy, doc_id)
    changed = [c for c in old_chunks if "zebrastripe" in c["text"]]
    assert changed and not {c["id"] for c in changed} & {c["id"] for c in new_chunks}
    # The untouched sections keep their chunk ids and vectors (no model call for them).
    kept = [c for c in old_chunks if "zebrastripe" not in c["text"]]
    assert any("Baobab" in c["text"] for c in kept) and {c["id"] for c in kept} <= {c["id"] for c in new_chunks}
    assert d.reused_embeddings == len(kept) and d.embedded == d.chunks - len(kept)
    # One document, no stray sections or chunks, tags kept (none were given this time).
    assert cy("MATCH (d:Document {namespace: $ns}) RETURN count(d) AS n")[0]["n"] == 1
    assert cy("MATCH (s:Section {namespace: $ns}) RETURN count(s) AS n")[0]["n"] == d.sections
    assert cy("MATCH (c:Chunk {namespace: $ns}) RETURN count(c) AS n")[0]["n"] == d.chunks
    assert cy("MATCH (:Document {id: $id})-[:TAGGED]->(t:Tag) RETURN t.name AS n", id=doc_id) == [{"n": "field"}]
    assert all(
        len(r["e"]) == brain.config.embedding.dimension
        for r in cy("MATCH (c:Chunk {namespace: $ns}) RETURN c.embedding AS e")
    )


def test_same_content_new_labels_updates_only_the_fields(
    brain: Brain, ingestor: Ingestor, cy: Cy, tmp_path: Path
) -> None:
    path = tmp_path / "guide.md"
    path.write_text(DOC_V1, encoding="utf-8")
    doc_id = ingestor.ingest(path, namespace=brain.namespace, tags=["old-tag"], topics=["nature"]).document_id
    assert doc_id
    chunks = _chunks(cy, doc_id)

    again = ingestor.ingest(path, namespace=brain.namespace, tags=["new-tag"], title="Savanna guide")
    d = again.documents[0]
    assert (d.status, d.changed, d.chunks_written, d.embedded) == ("updated", "fields", 0, 0)
    assert _chunks(cy, doc_id) == chunks  # nothing re-chunked
    assert cy("MATCH (:Document {id: $id})-[:TAGGED]->(t) RETURN t.name AS n", id=doc_id) == [{"n": "new-tag"}]
    assert cy("MATCH (t:Tag {name: 'old-tag'}) RETURN t") == []  # orphaned: deleted
    assert cy("MATCH (:Document {id: $id})-[:IN_TOPIC]->(t) RETURN t.name AS n", id=doc_id) == [{"n": "nature"}]
    titles = cy("MATCH (c:Chunk {namespace: $ns}) RETURN DISTINCT c.title AS t")
    assert titles == [{"t": "Savanna guide"}]  # chunks copy the new title

    # Caller metadata counts; an identical call is then a no-op.
    meta = ingestor.ingest(path, namespace=brain.namespace, title="Savanna guide", metadata={"team": "biology"})
    assert meta.documents[0].changed == "fields"
    same = ingestor.ingest(path, namespace=brain.namespace, title="Savanna guide", metadata={"team": "biology"})
    assert same.documents[0].status == "unchanged"
    stored = cy("MATCH (d:Document {id: $id}) RETURN d.metadata_json AS m", id=doc_id)[0]["m"]
    assert '"team": "biology"' in stored


def test_remove_deletes_document_sections_chunks_and_orphans(
    brain: Brain, ingestor: Ingestor, cy: Cy, chunk_fulltext: Cy, tmp_path: Path
) -> None:
    a = tmp_path / "a.md"
    a.write_text("# Alpha\n\nAlpha notes cite https://alpha.example.org/spec for the wire format.\n", encoding="utf-8")
    b = tmp_path / "b.md"
    b.write_text("# Beta\n\nBeta notes are about something else entirely.\n", encoding="utf-8")
    doc_a = ingestor.ingest(a, namespace=brain.namespace, tags=["shared", "only-a"], topics=["t-a"]).document_id
    doc_b = ingestor.ingest(b, namespace=brain.namespace, tags=["shared"]).document_id
    assert doc_a and doc_b
    url_entity = cy("MATCH (:Chunk {document_id: $id})-[:MENTIONS]->(e:Entity) RETURN e.id AS id", id=doc_a)
    assert url_entity, "the URL in the chunk became an entity"

    removed = ingestor.remove(doc_a, namespace=brain.namespace)
    assert removed.removed and removed.document_id == doc_a
    assert (removed.sections, removed.chunks) == (1, 1)
    assert removed.labels_deleted == 2  # only-a and t-a; shared stays
    assert removed.entities_deleted == 2  # the URL, and Alpha: said twice, what a.md is about; orphans now
    for label in ("Document", "Section", "Chunk"):
        n = cy(f"MATCH (n:{label}) WHERE n.id = $id OR n.document_id = $id RETURN count(n) AS n", id=doc_a)
        assert n[0]["n"] == 0, label
    assert cy("MATCH (t:Tag) RETURN t.name AS n") == [{"n": "shared"}]
    assert cy("MATCH (t:Topic) RETURN t") == []
    assert cy("MATCH (e:Entity {id: $id}) RETURN e", id=url_entity[0]["id"]) == []
    assert _fulltext(chunk_fulltext, "Alpha") == []
    assert cy("MATCH (d:Document {namespace: $ns}) RETURN d.id AS id") == [{"id": doc_b}]

    # By path (or source URI) works too; an unknown document is reported, not an error.
    by_path = ingestor.remove(str(b), namespace=brain.namespace)
    assert by_path.removed and by_path.document_id == doc_b and by_path.labels_deleted == 1
    assert ingestor.remove(str(b), namespace=brain.namespace).removed is False
    assert cy("MATCH (n {namespace: $ns}) RETURN count(n) AS n")[0]["n"] == 0


def test_a_file_that_cannot_be_parsed_is_reported_and_the_rest_continue(
    brain: Brain, ingestor: Ingestor, tmp_path: Path
) -> None:
    (tmp_path / "good.md").write_text("# Good\n\nA readable note.\n", encoding="utf-8")
    (tmp_path / "broken.pdf").write_bytes(b"this is not a PDF at all")
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    (tmp_path / "later.txt").write_text("Plain text after the broken files.\n", encoding="utf-8")
    result = ingestor.ingest(tmp_path, namespace=brain.namespace)
    by_name = {Path(d.source).name: d for d in result.documents}
    assert result.counts == {"created": 2, "updated": 0, "unchanged": 0, "failed": 2}
    assert by_name["good.md"].status == by_name["later.txt"].status == "created"
    for name in ("broken.pdf", "photo.png"):
        assert by_name[name].status == "failed"
        assert name in (by_name[name].error or "")
    assert {Path(d.source).name for d in result.failed} == {"broken.pdf", "photo.png"}

    # Resumable: the good files are skipped as unchanged, the bad ones are reported again.
    again = ingestor.ingest(tmp_path, namespace=brain.namespace)
    assert again.counts == {"created": 0, "updated": 0, "unchanged": 2, "failed": 2}

    # A single unreadable source raises, naming the file.
    with pytest.raises(InputError, match="broken.pdf"):
        ingestor.ingest(tmp_path / "broken.pdf", namespace=brain.namespace)


def test_raw_text_needs_an_explicit_form(brain: Brain, ingestor: Ingestor, cy: Cy) -> None:
    # A string that names no file is never taken for text: the error says how to pass text.
    with pytest.raises(InputError, match="source_type='manual'"):
        ingestor.ingest("notes/does-not-exist.md", namespace=brain.namespace)

    note = "# Conventions\n\nWe review every pull request within a day."
    res = ingestor.ingest(note, namespace=brain.namespace, source_type="manual", title="Team conventions")
    d = res.documents[0]
    assert (res.kind, d.status, d.source_uri) == (
        "manual",
        "created",
        "graphbrain://manual/Team%20conventions",
    )
    doc = cy("MATCH (d:Document {id: $id}) RETURN d.source_type AS st, d.title AS t", id=res.document_id)
    assert doc == [{"st": "manual", "t": "Team conventions"}]

    # The title is the identity of a note: edited text updates the same document.
    edited = ingestor.ingest(
        note + " Two approvals are needed.",
        namespace=brain.namespace,
        source_type="manual",
        title="Team conventions",
    )
    assert (edited.documents[0].status, edited.document_id) == ("updated", res.document_id)

    # The mapping and ManualText forms need no source_type; without a title the content hash names it.
    m = ingestor.ingest({"text": "Plain words here.", "format": "text"}, namespace=brain.namespace)
    assert m.kind == "manual" and (m.documents[0].source_uri or "").startswith("graphbrain://manual/")
    mt = ingestor.ingest(ManualText("Some *markdown*.", title="MT"), namespace=brain.namespace)
    assert mt.documents[0].source_uri == "graphbrain://manual/MT"
    with pytest.raises(InputError):
        ingestor.ingest("   ", namespace=brain.namespace, source_type="manual")
    with pytest.raises(InputError, match="URL"):
        ingestor.ingest("not-a-url", namespace=brain.namespace, source_type="url")


def test_brain_ingest_passes_the_namespace(brain: Brain, cy: Cy) -> None:
    res = brain.ingest("Brain-level note about tapirs.", source_type="manual", title="tapirs", tags=["animals"])
    assert res.namespace == brain.namespace
    tag = cy("MATCH (t:Tag {namespace: $ns}) RETURN t.id AS id")
    assert tag == [{"id": stable_id("tag", brain.namespace, "animals")}]
