"""Ingest into the resource library: parse a source, then write its Document / Section / Chunk nodes.

    Ingestor(config, store, embedder_factory).ingest(source, namespace=..., tags=..., topics=...)

What ``source`` is (checked in this order; raw text is never guessed from a string):

* ``source_type="manual"`` with a ``str``, a ``ManualText`` or a mapping ``{"text": ..., "title": ...,
  "format": ...}`` (a mapping or ``ManualText`` needs no ``source_type``): raw text, parsed as Markdown
  unless told otherwise. Its identity (``source_uri``) is ``source_uri=`` if given, else
  ``graphbrain://manual/<title>`` when there is a title (so an edited note updates the same document),
  else ``graphbrain://manual/<content hash>``.
* ``source_type="memory_snapshot"`` with a selection mapping (``{"types": ["decisions"], "key_prefix":
  "decision:graphbrain:", "status": ["active"], "limit": 500}``, or a ``MemorySnapshot``): the selected
  memory items of the namespace rendered as one Markdown document, ``graphbrain://memory_snapshot/...``.
* a ``str`` starting with ``http://`` or ``https://``: a URL, fetched by ``fetch.fetch_url``.
* any other ``str`` or path: a file or a directory that must exist (``file://`` URIs are accepted);
  a string that names no file is an error that says to pass ``source_type="manual"`` for raw text.

A document's id is ``stable_id("doc", namespace, source_uri)``. Re-ingesting it compares the stored
``content_hash`` (plus language, format and source type): unchanged content with unchanged fields writes
nothing; unchanged content with a new title / tags / topics / metadata updates only those; changed
content replaces every section and chunk (their index entries go with the nodes) in one transaction and
keeps the id. Tags and topics given replace the document's; none given keeps what it has.

Tags and topics are shared nodes ``Tag {id: stable_id("tag", namespace, name), namespace, name}`` (``Topic``
likewise, kind "topic"), names whitespace-collapsed with their case kept. A RetrievalPlan's ``tag_ids`` /
``topic_ids`` may hold either ids or names: a filter matches ``t.id IN $ids OR t.name IN $ids``.

The work is split: ``sources`` recognises and parses a source, ``snapshot`` renders memory items,
``writer`` writes a parsed document (``mentions`` picks its entities); this module runs one ingest call.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphbrain.contracts import SourceType, check_json, check_text
from graphbrain.errors import EmbeddingError, GraphbrainError, InputError, StoreError, StoreUnavailable
from graphbrain.resources.model import ParsedDocument
from graphbrain.resources.options import IngestOptions, elapsed_ms, label_rows
from graphbrain.resources.refs import normalise_url
from graphbrain.resources.results import DocumentResult, IngestResult, RemoveResult
from graphbrain.resources.sources import (
    MAX_SOURCE_URI_CHARS,
    MAX_TITLE_CHARS,
    ManualText,
    SourceKind,
    document_id_for,
    file_uri,
    is_url,
    parse_path,
    path_of,
    resolve_source,
)
from graphbrain.resources.walk import iter_files
from graphbrain.resources.writer import DocumentWriter, Existing, PendingWrite
from graphbrain.store import Row, Tx

__all__ = ["Ingestor", "ProgressCallback"]

log = logging.getLogger(__name__)

ProgressCallback = Callable[[int, int, int], None]  # (done_files, total_files, chunks_so_far)


class Ingestor(DocumentWriter):
    """Ingests a source (file, directory, URL, text, snapshot); see the module docstring for the rules."""

    # ------------------------------------------------------------------ public
    def ingest(
        self,
        source: Any,
        *,
        namespace: str,
        title: str | None = None,
        tags: Iterable[str] = (),
        topics: Iterable[str] = (),
        source_type: SourceType | None = None,
        language: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        glob: str = "**/*",
        progress: ProgressCallback | None = None,
        source_uri: str | None = None,
    ) -> IngestResult:
        """Ingest one source (see the module docstring); a directory reports each file's outcome.

        A single file, URL, text or snapshot that cannot be read raises InputError naming it; inside a
        directory such a file is reported as ``failed`` (with the reason) and the others go on.
        ``source_uri`` overrides the identity of a manual text. ``title`` does not apply to the files of
        a directory (each keeps its own); tags, topics, language and metadata apply to all of them.
        """
        t0 = time.perf_counter()
        if not namespace:
            raise InputError("namespace: required")
        if metadata is not None and not isinstance(metadata, Mapping):
            raise InputError("metadata: must be a mapping")
        # Text that cannot be encoded would fail in hashing, the parser or the driver: name it here.
        for name, value in (("title", title), ("language", language), ("source_uri", source_uri)):
            check_text(value, name)
        manual_title = source.get("title") if isinstance(source, Mapping) else getattr(source, "title", None)
        for name, value, limit in (
            ("title", title, MAX_TITLE_CHARS),
            ("source.title", manual_title, MAX_TITLE_CHARS),
            ("source_uri", source_uri, MAX_SOURCE_URI_CHARS),
        ):
            if isinstance(value, str) and len(value) > limit:
                reason = f"at most {limit} characters"
                raise InputError(f"{name}: {reason}", [{"field": name, "reason": reason}])
        check_json(dict(metadata or {}), "metadata")
        if isinstance(source, str):
            check_text(source, "source")
        elif isinstance(source, Mapping):
            check_json(dict(source), "source")
        elif isinstance(source, ManualText):
            for name, value in (("text", source.text), ("title", source.title), ("source_uri", source.source_uri)):
                check_text(value, f"source.{name}")
        opts = IngestOptions(
            namespace=namespace,
            title=title.strip() if title and title.strip() else None,
            tags=label_rows("tag", namespace, tags, "tags"),
            topics=label_rows("topic", namespace, topics, "topics"),
            language=language,
            metadata=dict(metadata or {}),
            source_type=source_type,
        )
        kind, label, docs = self._dispatch(source, opts, glob, progress, source_uri)
        embed_ms = round(sum(d.embed_ms for d in docs), 2)
        return IngestResult(
            namespace=namespace, source=label, kind=kind, documents=docs, took_ms=elapsed_ms(t0), embed_ms=embed_ms
        )

    def remove(self, document: str, *, namespace: str) -> RemoveResult:
        """Delete a document (by id, source URI, URL or file path) with its sections, chunks, tag / topic
        edges, the tags / topics and ingest-made entities nothing else uses. Unknown: ``removed=False``."""
        if not isinstance(document, str) or not document.strip():
            reason = "a document id, source URI, URL or path"
            raise InputError(f"document: {reason}", [{"field": "document", "reason": reason}])
        check_text(document, "document")
        refs = {document}
        try:
            if is_url(document):
                refs.add(normalise_url(document))
            elif not document.startswith(("doc_", "graphbrain://")):
                refs.add(file_uri(path_of(document)))
        except (OSError, ValueError, RuntimeError):
            pass  # not a readable URL or path ("~nobody/x", a NUL, too long): look it up as given
        rows = self.store.run("resources/find_documents", {"namespace": namespace, "refs": sorted(refs)})
        if not rows:
            return RemoveResult(namespace=namespace, document_id=None)
        doc_id = rows[0]["id"]

        def work(tx: Tx) -> RemoveResult:
            deleted = tx.run("resources/delete_content", {"document_id": doc_id, "namespace": namespace})
            # No row: another call removed it between the lookup and this transaction.
            content: Row = deleted[0] if deleted else {"entity_ids": [], "sections": 0, "chunks": 0}
            gone = tx.run("resources/delete_document", {"document_id": doc_id, "namespace": namespace})
            label_ids = gone[0]["label_ids"] if gone else []
            labels = tx.run("resources/delete_orphan_labels", {"ids": label_ids})[0] if label_ids else {}
            ents = (
                tx.run("resources/delete_orphan_entities", {"ids": content["entity_ids"]})[0]
                if content["entity_ids"]
                else {}
            )
            return RemoveResult(
                namespace=namespace,
                document_id=doc_id,
                source_uri=gone[0]["source_uri"] if gone else rows[0]["source_uri"],
                removed=bool(gone),
                sections=int(content["sections"]),
                chunks=int(content["chunks"]),
                labels_deleted=int(labels.get("deleted") or 0),
                entities_deleted=int(ents.get("deleted") or 0),
            )

        return self.store.write(work)

    def ingest_document(
        self,
        doc: ParsedDocument,
        *,
        namespace: str,
        tags: Iterable[str] = (),
        topics: Iterable[str] = (),
        metadata: Mapping[str, Any] | None = None,
    ) -> DocumentResult:
        """Write a document parsed elsewhere (``parse_text`` / ``parse_bytes`` with options of your own),
        with the same created / updated / unchanged rules as ``ingest``. ``metadata`` names the keys that
        count as the caller's (they should also be in ``doc.metadata``)."""
        opts = IngestOptions(
            namespace=namespace,
            title=doc.title,
            tags=label_rows("tag", namespace, tags, "tags"),
            topics=label_rows("topic", namespace, topics, "topics"),
            language=doc.language,
            metadata=dict(metadata or {}),
            source_type=doc.source_type,
        )
        doc_id = document_id_for(namespace, doc.source_uri)
        return self.finish(self.prepare(doc, opts, self.lookup([doc_id], namespace).get(doc_id), 0.0))

    # ------------------------------------------------------------------ dispatch
    def _dispatch(
        self,
        source: Any,
        opts: IngestOptions,
        glob: str,
        progress: ProgressCallback | None,
        source_uri: str | None,
    ) -> tuple[SourceKind, str, list[DocumentResult]]:
        found = resolve_source(source, opts, source_uri, self.store)
        if found.directory is not None:
            return found.kind, found.label, self._directory(found.directory, opts, glob, progress)
        assert found.parse is not None
        return found.kind, found.label, [self._single(found.parse, opts, progress)]

    # ------------------------------------------------------------------ one document / a directory
    def _single(
        self, parse: Callable[[], ParsedDocument], opts: IngestOptions, progress: ProgressCallback | None = None
    ) -> DocumentResult:
        """Parse and write one source; reading errors raise (the caller named exactly this source)."""
        t0 = time.perf_counter()
        doc = parse()
        parse_ms = elapsed_ms(t0)
        doc_id = document_id_for(opts.namespace, doc.source_uri)
        existing = self.lookup([doc_id], opts.namespace).get(doc_id)
        result = self.finish(self.prepare(doc, opts, existing, parse_ms))
        if progress:
            progress(1, 1, result.chunks)
        return result

    def _directory(
        self, root: Path, opts: IngestOptions, glob: str, progress: ProgressCallback | None
    ) -> list[DocumentResult]:
        """Each file in turn, with one write in flight: the next file is parsed, its entities found and its
        texts embedded (CPU) while the last file's transaction runs (mostly the database's time)."""
        files = list(iter_files(root, glob))
        total = len(files)
        ids = [document_id_for(opts.namespace, file_uri(p)) for p in files]
        existing = self.lookup(ids, opts.namespace)
        results: list[DocumentResult] = []
        chunks = 0
        if progress:
            progress(0, total, 0)

        def record(result: DocumentResult) -> None:
            nonlocal chunks
            results.append(result)
            chunks += result.chunks
            if progress:
                progress(len(results), total, chunks)

        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphbrain-ingest-write") as pool:
            inflight: _InFlight | None = None
            for path, doc_id in zip(files, ids, strict=True):
                pending = inflight.pending.entity_ids if inflight else ()
                step = self._prepare_file(path, doc_id, opts, existing.get(doc_id), pending)
                if inflight is not None:
                    done = self._landed(inflight)
                    if done.status == "failed" and pending and isinstance(step.prepared, PendingWrite):
                        # It counted on entities that failed write would have made: prepare it again.
                        step = self._prepare_file(path, doc_id, opts, existing.get(doc_id), ())
                    record(done)
                    inflight = None
                if isinstance(step.prepared, PendingWrite):
                    inflight = _InFlight(step, pool.submit(self.finish, step.prepared))
                else:
                    record(step.prepared)
            if inflight is not None:
                record(self._landed(inflight))
        return results

    def _prepare_file(
        self, path: Path, doc_id: str, opts: IngestOptions, existing: Existing | None, pending: Iterable[str]
    ) -> _Step:
        t0 = time.perf_counter()
        label = str(path)
        try:
            doc = parse_path(path, opts)
        except GraphbrainError as e:
            failed = DocumentResult(source=label, status="failed", error=str(e), took_ms=elapsed_ms(t0))
            return _Step(path, doc_id, None, failed)
        try:
            prepared = self.prepare(doc, opts, existing, elapsed_ms(t0), label=label, pending_entities=set(pending))
        except StoreUnavailable:
            raise  # every later file would fail the same way: stop and say so
        except (EmbeddingError, StoreError, InputError) as e:
            prepared = self._failed(path, doc_id, doc, e, t0)
        return _Step(path, doc_id, doc, prepared, t0)

    def _landed(self, inflight: _InFlight) -> DocumentResult:
        """The result of the write in flight, once it has finished; a failed write is that file's failure."""
        step = inflight.step
        try:
            return inflight.future.result()
        except StoreUnavailable:
            raise
        except (EmbeddingError, StoreError, InputError) as e:
            assert step.doc is not None
            return self._failed(step.path, step.doc_id, step.doc, e, step.t0)

    @staticmethod
    def _failed(path: Path, doc_id: str, doc: ParsedDocument, e: Exception, t0: float) -> DocumentResult:
        log.warning("ingest of %s failed: %s", path, e)
        return DocumentResult(
            source=str(path),
            status="failed",
            document_id=doc_id,
            source_uri=doc.source_uri,
            title=doc.title,
            format=doc.format,
            error=f"{path.name}: {e}",
            took_ms=elapsed_ms(t0),
        )


@dataclass(slots=True)
class _Step:
    """One file of a directory, parsed and prepared (or already a result: unchanged, or failed)."""

    path: Path
    doc_id: str
    doc: ParsedDocument | None
    prepared: DocumentResult | PendingWrite
    t0: float = 0.0


@dataclass(slots=True)
class _InFlight:
    step: _Step
    future: Future[DocumentResult]

    @property
    def pending(self) -> PendingWrite:
        assert isinstance(self.step.prepared, PendingWrite)
        return self.step.prepared
