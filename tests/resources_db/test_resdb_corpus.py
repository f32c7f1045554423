"""The seed corpus in the graph: documents, sections, chunks, offsets, pages, labels, indexes, re-ingest."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphbrain import Brain
from graphbrain.ids import stable_id
from graphbrain.resources import parse_file
from graphbrain.resources.ingest import Ingestor
from graphbrain.resources.sources import document_id_for, file_uri

Cy = Callable[..., list[dict[str, Any]]]
SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "docs"
SEED_FILES = sorted(p.name for p in SEEDS.iterdir())


def _ingest_seeds(ingestor: Ingestor, brain: Brain) -> Any:
    return ingestor.ingest(SEEDS, namespace=brain.namespace, tags=["seed", "docs"], topics=["graphbrain"])


def test_seed_corpus_documents_sections_chunks(brain: Brain, ingestor: Ingestor, cy: Cy) -> None:
    result = _ingest_seeds(ingestor, brain)
    assert result.kind == "directory"
    assert result.counts == {"created": len(SEED_FILES), "updated": 0, "unchanged": 0, "failed": 0}
    assert [d.source.rsplit("/", 1)[-1] for d in result.documents] == SEED_FILES  # sorted walk order

    rows = cy("MATCH (d:Document {namespace: $ns}) RETURN count(d) AS n")
    assert rows[0]["n"] == len(SEED_FILES)
    for name in SEED_FILES:
        parsed = parse_file(SEEDS / name)
        doc_id = document_id_for(brain.namespace, file_uri(SEEDS / name))
        doc = cy("MATCH (d:Document {id: $id}) RETURN d {.*} AS d", id=doc_id)[0]["d"]
        assert doc["namespace"] == brain.namespace
        assert doc["source_uri"] == file_uri(SEEDS / name) and doc["source_type"] == "file"
        assert doc["content_hash"] == parsed.content_hash and doc["format"] == parsed.format
        assert doc["title"] == parsed.title and doc["language"] == parsed.language
        assert doc["section_count"] == len(parsed.sections) and doc["chunk_count"] == len(parsed.chunks)

        sections = cy(
            "MATCH (:Document {id: $id})-[:HAS_SECTION]->(s:Section) RETURN s {.*} AS s ORDER BY s.index",
            id=doc_id,
        )
        assert [s["s"]["section_id"] for s in sections] == [s.section_id for s in parsed.sections]
        assert [s["s"]["title"] for s in sections] == [s.title for s in parsed.sections]
        for row, ps in zip(sections, parsed.sections, strict=True):
            s = row["s"]
            assert (s["offset_start"], s["offset_end"]) == (ps.offset_start, ps.offset_end)
            assert s["text"] == parsed.text[s["offset_start"] : s["offset_end"]]
            assert s["l0"] == ps.l0 and s["l1"] == ps.l1 and s["heading_path"] == ps.heading_path
            assert s["document_id"] == doc_id and s["id"] == stable_id("sec", brain.namespace, doc_id, ps.section_id)

        chunks = cy(
            "MATCH (:Document {id: $id})-[:HAS_SECTION]->(s:Section)-[:HAS_CHUNK]->(c:Chunk) "
            "RETURN c {.*} AS c, s.section_id AS sid ORDER BY c.chunk_index",
            id=doc_id,
        )
        assert [c["c"]["chunk_index"] for c in chunks] == list(range(len(parsed.chunks)))
        for row, pc in zip(chunks, parsed.chunks, strict=True):
            c = row["c"]
            # Offsets index the normalised document text; EvidencePack metadata uses them verbatim.
            assert parsed.text[c["offset_start"] : c["offset_end"]] == c["text"] == pc.text
            assert c["section_id"] == row["sid"] == parsed.sections[pc.section_index].section_id
            assert c["section_title"] == pc.section_title and c["content_hash"] == pc.content_hash
            assert c.get("page") == pc.page
            # The document fields retrieval filters on, copied.
            assert c["title"] == doc["title"] and c["source_uri"] == doc["source_uri"]
            assert c["source_type"] == "file" and c["language"] == doc["language"]
            assert c["updated_at"] == doc["updated_at"]
            assert len(c["embedding"]) == brain.config.embedding.dimension


def test_pdf_pages_and_section_titles(brain: Brain, ingestor: Ingestor, cy: Cy) -> None:
    _ingest_seeds(ingestor, brain)
    pdf = document_id_for(brain.namespace, file_uri(SEEDS / "api-guide.pdf"))
    pages = cy(
        "MATCH (c:Chunk {namespace: $ns, document_id: $id}) RETURN c.page AS page ORDER BY c.chunk_index",
        id=pdf,
    )
    assert [r["page"] for r in pages] == [1, 2, 3]
    sec_pages = cy("MATCH (:Document {id: $id})-[:HAS_SECTION]->(s) RETURN collect(s.page) AS p", id=pdf)
    assert sorted(sec_pages[0]["p"]) == [1, 2, 3]
    # Pages are for PDFs only.
    md = document_id_for(brain.namespace, file_uri(SEEDS / "design-memory-store.md"))
    assert cy("MATCH (c:Chunk {namespace: $ns, document_id: $id}) WHERE c.page IS NOT NULL RETURN c", id=md) == []

    titles = cy("MATCH (:Document {id: $id})-[:HAS_SECTION]->(s) RETURN collect(s.title) AS t", id=md)[0]["t"]
    assert {"Goals", "Storage engine", "Vector index", "Full-text index", "Fusion with RRF"} <= set(titles)
    zh = document_id_for(brain.namespace, file_uri(SEEDS / "检索设计.md"))
    zh_titles = cy("MATCH (:Document {id: $id})-[:HAS_SECTION]->(s) RETURN collect(s.title) AS t", id=zh)[0]["t"]
    assert {"检索计划", "混合检索", "向量索引", "重排"} <= set(zh_titles)
    zh_doc = cy("MATCH (d:Document {id: $id}) RETURN d.language AS l, d.title AS t", id=zh)[0]
    assert zh_doc == {"l": "zh", "t": "检索设计"}


def test_tags_and_topics(brain: Brain, ingestor: Ingestor, cy: Cy) -> None:
    _ingest_seeds(ingestor, brain)
    tags = cy("MATCH (t:Tag {namespace: $ns}) RETURN t.id AS id, t.name AS name ORDER BY name")
    assert tags == [
        {"id": stable_id("tag", brain.namespace, "docs"), "name": "docs"},
        {"id": stable_id("tag", brain.namespace, "seed"), "name": "seed"},
    ]
    topics = cy("MATCH (t:Topic {namespace: $ns}) RETURN t.id AS id, t.name AS name")
    assert topics == [{"id": stable_id("topic", brain.namespace, "graphbrain"), "name": "graphbrain"}]
    edges = cy(
        "MATCH (d:Document {namespace: $ns}) "
        "RETURN d.id AS id, size([(d)-[:TAGGED]->(:Tag) | 1]) AS tags, "
        "size([(d)-[:IN_TOPIC]->(:Topic) | 1]) AS topics"
    )
    assert len(edges) == len(SEED_FILES)
    assert all(e["tags"] == 2 and e["topics"] == 1 for e in edges)


def test_fulltext_in_both_languages_and_vector_search(
    brain: Brain, ingestor: Ingestor, chunk_fulltext: Cy, chunk_vector: Cy
) -> None:
    _ingest_seeds(ingestor, brain)

    def fulltext(q: str) -> list[str]:
        rows = chunk_fulltext(q, "node.source_uri AS uri")
        return [r["uri"].rsplit("/", 1)[-1] for r in rows]

    assert "design-memory-store.md" in fulltext("pgvector")
    assert "runbook.txt" in fulltext("escalation")
    assert fulltext("向量索引")[0] in ("检索设计.md", "mixed-notes.md")
    assert "检索设计.md" in fulltext("重排模型")
    assert "mixed-notes.md" in fulltext("jieba")
    # Section titles are indexed with the text.
    assert "design-memory-store.md" in fulltext('"Fusion with RRF"')

    vec = brain.embedder.embed_one("How are vector search and full-text results merged?")
    hits = chunk_vector(vec, 50, "node.source_uri AS uri, node.text AS text, score")
    assert hits, "the vector index finds the chunks"
    assert any("RRF" in h["text"] or "融合" in h["text"] for h in hits[:5])
    # Cross-lingual: a Chinese question finds an answer (the multilingual model aligns the languages).
    zh = brain.embedder.embed_one("切块时在哪里断开？")
    zh_hits = chunk_vector(zh, 20, "node.text AS text")
    assert any("切" in h["text"] for h in zh_hits[:5])


def test_reingest_unchanged_directory_is_a_noop(brain: Brain, ingestor: Ingestor, cy: Cy) -> None:
    first = _ingest_seeds(ingestor, brain)
    snapshot = "MATCH (n {namespace: $ns}) RETURN labels(n)[0] AS l, n.id AS id, n.updated_at AS at ORDER BY id"
    before = cy(snapshot)
    counts = cy("MATCH (n {namespace: $ns}) RETURN count(n) AS n")[0]["n"]

    seen: list[tuple[int, int, int]] = []
    again = ingestor.ingest(
        SEEDS,
        namespace=brain.namespace,
        tags=["seed", "docs"],
        topics=["graphbrain"],
        progress=lambda done, total, chunks: seen.append((done, total, chunks)),
    )
    assert again.counts["unchanged"] == len(SEED_FILES) and again.chunks_written == 0
    assert [d.document_id for d in again.documents] == [d.document_id for d in first.documents]
    assert again.sections == first.sections and again.chunks == first.chunks
    assert all(d.embed_ms == 0 and d.write_ms == 0 for d in again.documents)
    assert cy(snapshot) == before  # same nodes, same ids, nothing rewritten (updated_at untouched)
    assert cy("MATCH (n {namespace: $ns}) RETURN count(n) AS n")[0]["n"] == counts
    # Progress: once before the first file, then after each, with the running chunk count.
    assert seen[0] == (0, len(SEED_FILES), 0)
    assert [s[0] for s in seen[1:]] == list(range(1, len(SEED_FILES) + 1))
    assert seen[-1] == (len(SEED_FILES), len(SEED_FILES), first.chunks)

    # Without tags given, a re-ingest keeps the document's labels (and is still a no-op).
    plain = ingestor.ingest(SEEDS, namespace=brain.namespace)
    assert plain.counts["unchanged"] == len(SEED_FILES)
    assert cy("MATCH (:Document {namespace: $ns})-[r:TAGGED]->() RETURN count(r) AS n")[0]["n"] == 2 * len(SEED_FILES)


def test_glob_filter_and_result_shape(brain: Brain, ingestor: Ingestor) -> None:
    result = ingestor.ingest(SEEDS, namespace=brain.namespace, glob="*.md")
    names = sorted(d.source.rsplit("/", 1)[-1] for d in result.documents)
    assert names == sorted(n for n in SEED_FILES if n.endswith(".md"))
    dumped = result.model_dump()
    assert dumped["document_ids"] == result.document_ids and dumped["document_id"] == result.document_ids[0]
    assert dumped["counts"]["created"] == len(names)
    assert result.took_ms > 0 and result.embed_ms > 0


def _two_files(tmp_path: Path) -> Path:
    """a.md names Quillfeather often enough to create its Entity node; b.md names it once, so it only links
    to a node that exists by then."""
    (tmp_path / "a.md").write_text(
        "# Quillfeather\n\nQuillfeather is the ledger service our team runs. Quillfeather stores the invoices.\n"
    )
    (tmp_path / "b.md").write_text("# Billing\n\nEvery invoice goes through Quillfeather before it is paid.\n")
    return tmp_path


def _linked(cy: Cy, doc_id: str) -> list[str]:
    return [
        r["name"]
        for r in cy(
            "MATCH (:Chunk {namespace: $ns, document_id: $id})-[:MENTIONS]->(e:Entity) RETURN DISTINCT e.name AS name",
            id=doc_id,
        )
    ]


def test_directory_ingest_links_a_file_to_what_the_file_before_it_created(
    brain: Brain, ingestor: Ingestor, cy: Cy, tmp_path: Path
) -> None:
    # The next file is prepared while the last one's write runs: it must still see that write's entities,
    # as a file-by-file ingest would.
    root = _two_files(tmp_path)
    result = ingestor.ingest(root, namespace=brain.namespace)
    assert result.counts["created"] == 2
    a_id, b_id = (document_id_for(brain.namespace, file_uri(root / n)) for n in ("a.md", "b.md"))
    assert _linked(cy, a_id) == ["Quillfeather"]
    assert _linked(cy, b_id) == ["Quillfeather"]
    entity = cy("MATCH (e:Entity {namespace: $ns, name: 'Quillfeather'}) RETURN e.embedding AS v")
    assert len(entity) == 1 and len(entity[0]["v"]) == brain.config.embedding.dimension


def test_a_failed_write_in_a_directory_is_that_files_failure_and_the_next_file_does_not_count_on_it(
    brain: Brain, ingestor: Ingestor, cy: Cy, tmp_path: Path, monkeypatch: Any
) -> None:
    from graphbrain.errors import StoreError

    root = _two_files(tmp_path)
    a_id, b_id = (document_id_for(brain.namespace, file_uri(root / n)) for n in ("a.md", "b.md"))
    real_finish = ingestor.finish

    def finish(pending: Any) -> Any:
        if pending.document_id == a_id:
            raise StoreError("disk full (test)")
        return real_finish(pending)

    monkeypatch.setattr(ingestor, "finish", finish)
    result = ingestor.ingest(root, namespace=brain.namespace)
    by_name = {d.source.rsplit("/", 1)[-1]: d for d in result.documents}
    assert by_name["a.md"].status == "failed" and "disk full" in (by_name["a.md"].error or "")
    assert by_name["b.md"].status == "created"
    # b.md was prepared again without a.md's entities: its one mention links to nothing, creates nothing.
    assert _linked(cy, b_id) == []
    assert cy("MATCH (e:Entity {namespace: $ns, name: 'Quillfeather'}) RETURN e") == []
    assert cy("MATCH (d:Document {namespace: $ns}) RETURN count(d) AS n") == [{"n": 1}]


def test_code_is_searched_for_names_by_shape_not_by_the_prose_pipeline(
    brain: Brain, ingestor: Ingestor, cy: Cy, tmp_path: Path, monkeypatch: Any
) -> None:
    # spaCy's English models are trained on prose; on source code they cost most of an ingest's own time
    # and find what the identifiers' shapes already say. Prose documents still go through them.
    import graphbrain.nlp.pipelines as pipelines

    parsed: list[str] = []
    parse_many = pipelines.parse_many

    def recording(texts: list[str], lang: Any, cfg: Any = None, batch_size: int = 32) -> Any:
        parsed.extend(texts)
        return parse_many(texts, lang, cfg, batch_size)

    monkeypatch.setattr(pipelines, "parse_many", recording)
    code = tmp_path / "ledger_sync.py"
    code.write_text(
        '"""Syncs the ledger with Quillfeather over https://ledger.example.org/api."""\n\n\n'
        "class LedgerSync:\n"
        '    """Pushes entries to QuillfeatherClient; see docs/ledger.md."""\n\n'
        "    def push_entries(self, entries):\n"
        "        return QuillfeatherClient().send(entries)\n",
        encoding="utf-8",
    )
    prose = tmp_path / "notes.md"
    prose.write_text("# Notes\n\nMarta Quillfeather reviewed the ledger design in Lisbon.\n", encoding="utf-8")
    result = ingestor.ingest(tmp_path, namespace=brain.namespace)
    assert result.counts["created"] == 2
    assert parsed and all("class LedgerSync" not in t for t in parsed)
    assert any("Marta Quillfeather" in t for t in parsed)
    code_id = document_id_for(brain.namespace, file_uri(code))
    names = {
        r["c"]
        for r in cy(
            "MATCH (:Chunk {namespace: $ns, document_id: $id})-[:MENTIONS]->(e:Entity) RETURN e.canonical AS c",
            id=code_id,
        )
    }
    # QuillfeatherClient is said twice (a name said once links only to a node that exists), the rest by shape.
    assert {"quillfeatherclient", "https://ledger.example.org/api", "docs/ledger.md"} <= names
