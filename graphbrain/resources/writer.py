"""The graph writer of the resource library: one parsed document into Document / Section / Chunk nodes.

One transaction per document, a fixed number of UNWIND statements (sections, chunks, labels, entity
mentions), and one embedder call per document for all its new chunk texts and new entity names.

A write is two steps: ``prepare`` (entity detection and the models: the CPU work) gives a ``PendingWrite``
or, for an unchanged document, the result at once; ``finish`` runs its transaction. A directory ingest
prepares the next file while the last one's transaction runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphbrain.errors import EmbeddingError
from graphbrain.ids import stable_id
from graphbrain.resources.mentions import EntityPlan, entity_plans
from graphbrain.resources.model import ParsedDocument
from graphbrain.resources.options import IngestOptions, elapsed_ms, to_json
from graphbrain.resources.results import DocumentResult
from graphbrain.resources.sources import document_id_for
from graphbrain.store import Row, Tx, Undo
from graphbrain.store.json_props import loads_object
from graphbrain.store.writer import EmbeddingWriter

__all__ = ["DocumentWriter", "Existing", "PendingWrite"]

MAX_EMBED_CHARS = 2000  # chunks are ~1,200 characters; the cap only guards odd inputs
LOOKUP_BATCH = 500  # documents per existing-state query in a directory ingest


@dataclass(slots=True)
class Existing:
    id: str
    content_hash: str | None
    title: str | None
    language: str | None
    source_type: str | None
    format: str | None
    metadata: dict[str, Any]
    tags: list[str]
    topics: list[str]
    sections: int
    chunks: int
    entities: int

    @classmethod
    def from_row(cls, r: Row) -> Existing:
        return cls(
            id=r["id"],
            content_hash=r.get("content_hash"),
            title=r.get("title"),
            language=r.get("language"),
            source_type=r.get("source_type"),
            format=r.get("format"),
            metadata=loads_object(r.get("metadata_json")),
            tags=list(r.get("tags") or []),
            topics=list(r.get("topics") or []),
            sections=int(r.get("section_count") or 0),
            chunks=int(r.get("chunk_count") or 0),
            entities=int(r.get("entities") or 0),
        )


@dataclass(slots=True)
class PendingWrite:
    """A prepared document write: its transaction, how to take it back (embedded) and the result it makes."""

    document_id: str
    work: Callable[[Tx], Any]
    undo: Undo | None
    result: Callable[[Any, float], DocumentResult]  # (what ``work`` returned, write ms) -> the result
    entity_ids: list[str] = field(default_factory=list)  # the Entity nodes the write creates or touches


def _embed_text(section_title: str, text: str) -> str:
    # A chunk after the first of its section has lost its heading; the title gives the vector that context.
    if section_title and section_title not in text[: len(section_title) + 200]:
        text = f"{section_title}\n{text}"
    return text[:MAX_EMBED_CHARS]


class DocumentWriter(EmbeddingWriter):
    """Writes parsed documents: created, updated (content or fields) or unchanged against what is stored."""

    def lookup(self, ids: Sequence[str], namespace: str) -> dict[str, Existing]:
        out: dict[str, Existing] = {}
        for start in range(0, len(ids), LOOKUP_BATCH):
            batch = list(ids[start : start + LOOKUP_BATCH])
            for row in self.store.run("resources/existing_documents", {"ids": batch, "namespace": namespace}):
                out[row["id"]] = Existing.from_row(row)
        return out

    # ------------------------------------------------------------------ the write
    def finish(self, pending: PendingWrite | DocumentResult) -> DocumentResult:
        """Run a prepared write's transaction (a result already made, unchanged, passes through)."""
        if isinstance(pending, DocumentResult):
            return pending
        w0 = time.perf_counter()
        out = self.store.write(pending.work, undo=pending.undo)
        return pending.result(out, elapsed_ms(w0))

    def prepare(
        self,
        doc: ParsedDocument,
        opts: IngestOptions,
        existing: Existing | None,
        parse_ms: float,
        *,
        label: str | None = None,
        pending_entities: Collection[str] = (),
    ) -> DocumentResult | PendingWrite:
        """Everything before the transaction. ``pending_entities``: ids of Entity nodes that a write still
        running will have made, so this document links to them as if they were stored already."""
        t0 = time.perf_counter() - parse_ms / 1000  # took_ms covers the parse that came before
        ns = opts.namespace
        doc_id = document_id_for(ns, doc.source_uri)
        base = {
            "source": label or doc.source_uri,
            "document_id": doc_id,
            "source_uri": doc.source_uri,
            "title": doc.title,
            "format": doc.format,
            "language": doc.language,
            "parse_ms": parse_ms,
        }
        same_content = existing is not None and (
            existing.content_hash == doc.content_hash
            and existing.language == doc.language
            and existing.format == doc.format
            and existing.source_type == doc.source_type
        )
        if existing is not None and same_content:
            if not self._fields_changed(existing, doc, opts):
                return DocumentResult(
                    **base,
                    status="unchanged",
                    sections=existing.sections,
                    chunks=existing.chunks,
                    entities=existing.entities,
                    took_ms=elapsed_ms(t0),
                )
            same = existing
            return PendingWrite(
                document_id=doc_id,
                work=lambda tx: self._write_fields(tx, doc_id, doc, opts, same),
                undo=None,
                result=lambda _out, write_ms: DocumentResult(
                    **base,
                    status="updated",
                    changed="fields",
                    sections=same.sections,
                    chunks=same.chunks,
                    entities=same.entities,
                    write_ms=write_ms,
                    took_ms=elapsed_ms(t0),
                ),
            )

        sections, chunks = self._rows(doc, ns, doc_id)
        n0 = time.perf_counter()
        plans = entity_plans(doc, ns, chunks, self.config.nlp)
        entities_ms = elapsed_ms(n0)
        ids = [p.id for p in plans.values()]
        known = self._known_entities(ids) | {i for i in ids if i in pending_entities}
        entities = [p for p in plans.values() if p.creates or p.id in known]
        new_entities = [p for p in entities if p.id not in known]

        # Vectors: kept for chunks whose embedded text did not change, one model call for the rest plus the
        # names of entities this document creates (the commit pipeline embeds entity names the same way).
        reused = self._reusable_vectors(ns, doc_id) if existing is not None else {}
        todo: list[int] = []
        english_todo: list[int] = []
        english = self._english_factory() if doc.language in ("en", "mixed") else None
        for i, c in enumerate(chunks):
            vec, vec_en = reused.get((c["content_hash"], c["section_title"]), (None, None))
            c["embedding_en"] = vec_en
            if vec is not None:
                c["embedding"] = vec
            else:
                todo.append(i)
            if english is not None and vec_en is None:
                english_todo.append(i)
        texts = [_embed_text(chunks[i]["section_title"], chunks[i]["text"]) for i in todo]
        texts += [p.name for p in new_entities]
        e0 = time.perf_counter()
        vectors = self._embed(texts) if texts else []
        embed_ms = elapsed_ms(e0) if texts else 0.0
        for i, vec in zip(todo, vectors[: len(todo)], strict=True):
            chunks[i]["embedding"] = vec
        if english is not None and english_todo:
            # The English model too (embedding.english): an English question searches its index first.
            english_texts = [_embed_text(chunks[i]["section_title"], chunks[i]["text"]) for i in english_todo]
            for i, vec in zip(english_todo, english.embed(english_texts), strict=True):
                chunks[i]["embedding_en"] = list(vec)
        entity_vectors = {p.id: v for p, v in zip(new_entities, vectors[len(todo) :], strict=True)}

        entity_rows = [self._entity_row(ns, p, entity_vectors.get(p.id)) for p in entities]
        document_row = {
            "id": doc_id,
            "title": doc.title,
            "source_uri": doc.source_uri,
            "source_type": doc.source_type,
            "format": doc.format,
            "language": doc.language,
            "content_hash": doc.content_hash,
            "metadata_json": to_json(self._metadata(doc)),
            "section_count": len(sections),
            "chunk_count": len(chunks),
        }

        def work(tx: Tx) -> bool:
            now = datetime.now(UTC)
            row = tx.run("resources/upsert_document", {"document": document_row, "namespace": ns, "now": now})[0]
            orphans: list[str] = []
            if not row["created"]:
                orphans = tx.run("resources/delete_content", {"document_id": doc_id, "namespace": ns})[0]["entity_ids"]
            common = {"document_id": doc_id, "namespace": ns}
            tx.run("resources/write_sections", {**common, "sections": sections})
            tx.run(
                "resources/write_chunks",
                {
                    **common,
                    "chunks": chunks,
                    "title": doc.title,
                    "source_uri": doc.source_uri,
                    "source_type": doc.source_type,
                    "language": doc.language,
                    "now": now,
                },
            )
            if opts.tags or opts.topics:
                self._run_labels(tx, doc_id, opts)
            if entity_rows:
                tx.run(
                    "resources/write_entities",
                    {"namespace": ns, "source_uri": doc.source_uri, "now": now, "entities": entity_rows},
                )
            if orphans:
                tx.run("resources/delete_orphan_entities", {"ids": orphans})
            return bool(row["created"])

        # Where the database cannot roll a failed write back (embedded), this says how to take it back.
        undo = Undo(
            capture="undo/ingest_capture",
            apply="undo/ingest",
            params={
                "document_id": doc_id,
                "namespace": ns,
                "entity_ids": [r["id"] for r in entity_rows],
                "label_ids": [t["id"] for t in opts.tags + opts.topics],
            },
        )
        embedded = len(texts)

        def result(created: Any, write_ms: float) -> DocumentResult:
            return DocumentResult(
                **base,
                status="created" if created else "updated",
                changed=None if created else "content",
                sections=len(sections),
                chunks=len(chunks),
                chunks_written=len(chunks),
                entities=len(entity_rows),
                embedded=embedded,
                reused_embeddings=len(chunks) - len(todo),
                embed_ms=embed_ms,
                entities_ms=entities_ms,
                write_ms=write_ms,
                took_ms=elapsed_ms(t0),
            )

        return PendingWrite(
            document_id=doc_id, work=work, undo=undo, result=result, entity_ids=[r["id"] for r in entity_rows]
        )

    # ------------------------------------------------------------------ pieces of the write
    @staticmethod
    def _metadata(doc: ParsedDocument) -> dict[str, Any]:
        return {**doc.metadata, "mime": doc.mime, "keywords": doc.keywords}

    @staticmethod
    def _fields_changed(existing: Existing, doc: ParsedDocument, opts: IngestOptions) -> bool:
        """Same content: did a document-level field change? The title is the given one or the content's;
        tags, topics and metadata count only when given."""
        if existing.title != doc.title:
            return True
        if opts.tags and {t["name"] for t in opts.tags} != set(existing.tags):
            return True
        if opts.topics and {t["name"] for t in opts.topics} != set(existing.topics):
            return True
        # Only the caller's metadata keys: a touched file (new mtime, same text) stays a no-op.
        return any(to_json(existing.metadata.get(k)) != to_json(v) for k, v in opts.metadata.items())

    def _write_fields(self, tx: Tx, doc_id: str, doc: ParsedDocument, opts: IngestOptions, existing: Existing) -> None:
        metadata = {**existing.metadata, **opts.metadata}
        tx.run(
            "resources/update_document_fields",
            {
                "document_id": doc_id,
                "namespace": opts.namespace,
                "title": doc.title,
                "metadata_json": to_json(metadata),
                "now": datetime.now(UTC),
            },
        )
        if opts.tags or opts.topics:
            self._run_labels(tx, doc_id, opts)

    @staticmethod
    def _run_labels(tx: Tx, doc_id: str, opts: IngestOptions) -> None:
        tx.run(
            "resources/write_labels",
            {
                "document_id": doc_id,
                "namespace": opts.namespace,
                "tags": opts.tags,
                "topics": opts.topics,
                "replace_tags": bool(opts.tags),
                "replace_topics": bool(opts.topics),
            },
        )

    @staticmethod
    def _rows(doc: ParsedDocument, ns: str, doc_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        sections: list[dict[str, Any]] = []
        chunks: list[dict[str, Any]] = []
        for s in doc.sections:
            section_node_id = stable_id("sec", ns, doc_id, s.section_id)
            sections.append(
                {
                    "id": section_node_id,
                    "section_id": s.section_id,
                    "index": s.index,
                    "title": s.title,
                    "heading_path": s.heading_path,
                    "level": s.level,
                    "page": s.page,
                    "l0": s.l0,
                    "l1": s.l1,
                    "text": s.text,
                    "offset_start": s.offset_start,
                    "offset_end": s.offset_end,
                }
            )
            for c in s.chunks:
                chunks.append(
                    {
                        # The text hash is part of the id: a chunk whose text changed is a new node.
                        "id": stable_id("chunk", ns, doc_id, c.chunk_index, c.content_hash),
                        "section_node_id": section_node_id,
                        "section_id": s.section_id,
                        "chunk_index": c.chunk_index,
                        "text": c.text,
                        "offset_start": c.offset_start,
                        "offset_end": c.offset_end,
                        "page": c.page,
                        "section_title": c.section_title,
                        "content_hash": c.content_hash,
                        "embedding": None,
                        "_language": s.language or doc.language,  # for entity detection only
                    }
                )
        return sections, chunks

    def _known_entities(self, ids: list[str]) -> set[str]:
        if not ids:
            return set()
        return {r["id"] for r in self.store.run("resources/existing_entities", {"ids": ids})}

    def _entity_row(self, ns: str, p: EntityPlan, vector: list[float] | None) -> dict[str, Any]:
        return {
            "id": p.id,
            "key": p.key,
            "lock_id": f"{ns}|{p.key}",  # active_key, as conversation memory sets it
            "kind": p.kind,
            "canonical": p.canonical,
            "name": p.name,
            "count": p.count,
            "confidence": self.config.policies.retention.confidence.tool_derived,
            "value_json": to_json({"name": p.name, "kind": p.kind, "canonical": p.canonical}),
            "embedding": vector,
            "mentions": list(p.mentions.values()),
        }

    def _reusable_vectors(self, ns: str, doc_id: str) -> dict[tuple[str, str], tuple[Any, Any]]:
        """(content hash, section title) → (main vector, English vector or None) of the current chunks."""
        rows = self.store.run("resources/chunk_embeddings", {"namespace": ns, "document_id": doc_id})
        dim = self.config.embedding.dimension
        dim_en = self.config.embedding.english.dimension
        return {
            (r["content_hash"], r["section_title"]): (
                r["embedding"],
                r["embedding_en"] if r.get("embedding_en") and len(r["embedding_en"]) == dim_en else None,
            )
            for r in rows
            if r.get("embedding") and len(r["embedding"]) == dim
        }

    def _embed(self, texts: list[str]) -> list[list[float]]:
        vectors = self._embedder_factory().embed([t if t.strip() else " " for t in texts])
        if len(vectors) != len(texts):
            raise EmbeddingError(f"the embedder returned {len(vectors)} vectors for {len(texts)} texts")
        return [list(v) for v in vectors]
