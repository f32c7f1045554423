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

One transaction per document, a fixed number of UNWIND statements (sections, chunks, labels, entity
mentions), and one embedder call per document for all its new chunk texts and new entity names.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from os import PathLike, fspath
from pathlib import Path
from typing import Any, Literal, cast
from urllib.parse import quote, unquote, urlsplit

from graphbrain.config import BrainConfig
from graphbrain.contracts import KEY_PREFIX, MemoryType, SourceType, check_json, check_text
from graphbrain.embedding import Embedder
from graphbrain.errors import EmbeddingError, GraphbrainError, InputError, StoreError, StoreUnavailable
from graphbrain.ids import entity_id, stable_id
from graphbrain.nlp import EntityCandidate, english_docs, entity_candidates, has_cjk
from graphbrain.resources.fetch import fetch_url
from graphbrain.resources.model import ParsedDocument
from graphbrain.resources.parsers import parse_bytes, parse_file, parse_text
from graphbrain.resources.refs import normalise_url
from graphbrain.resources.results import DocumentResult, IngestResult, RemoveResult
from graphbrain.resources.walk import iter_files
from graphbrain.store import Row, Store, Tx, Undo

__all__ = [
    "MAX_MENTIONS_PER_CHUNK",
    "Ingestor",
    "ManualText",
    "MemorySnapshot",
    "ProgressCallback",
    "document_id_for",
    "file_uri",
    "render_memory_snapshot",
]

log = logging.getLogger(__name__)

ProgressCallback = Callable[[int, int, int], None]  # (done_files, total_files, chunks_so_far)
SourceKind = Literal["file", "directory", "url", "manual", "memory_snapshot"]

# A chunk names at most this many entities: a list of 200 package names is content, not 200 links.
MAX_MENTIONS_PER_CHUNK = 20
MAX_EMBED_CHARS = 2000  # chunks are ~1,200 characters; the cap only guards odd inputs
MAX_LABEL_CHARS = 256
# A title (like a ref's) and a source URI are bounded: the URI is a RANGE-indexed key (about 8 kB at most).
MAX_TITLE_CHARS = 1024
MAX_SOURCE_URI_CHARS = 4096
LOOKUP_BATCH = 500  # documents per existing-state query in a directory ingest
DEFAULT_SNAPSHOT_LIMIT = 500
# Shape-found entities (URLs, repos, paths) are real things on first sight, as the conversation entity gate
# also says; they may create Entity nodes. So do the names a document is about: a name said at least
# twice in it ("Atlas" in atlas.md). A name said once ("Goals", "Start", a person quoted in passing) only
# links to an Entity node that already exists: in a long document one mention is weaker evidence than in
# a conversation turn, where the entity gate also lets a subject or object through.
_CREATING_SIGNALS = frozenset({"url", "repo", "path"})
_DOC_FREQUENCY = 2
_SIGNAL_ORDER = {
    "url": 0, "repo": 1, "path": 2, "known": 3, "ner": 4, "compound": 5, "quoted": 6, "proper_noun": 7, "zh_noun": 8,
}  # fmt: skip


# ------------------------------------------------------------------------------------- source forms


@dataclass(frozen=True, slots=True)
class ManualText:
    """Raw text to ingest as a ``manual`` document (the explicit alternative to ``source_type="manual"``)."""

    text: str
    title: str | None = None
    format: str = "markdown"  # "markdown", "text", "html" or a code language
    source_uri: str | None = None


@dataclass(frozen=True, slots=True)
class MemorySnapshot:
    """A selection of the namespace's memory items to render and ingest as one document."""

    types: tuple[str, ...] | None = None  # memory types ("decisions", or "decision"); None: all but entities
    key_prefix: str | None = None
    status: tuple[str, ...] = ("active",)
    limit: int = DEFAULT_SNAPSHOT_LIMIT

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> MemorySnapshot:
        unknown = set(data) - {"types", "type", "key_prefix", "status", "statuses", "limit"}
        if unknown:
            raise InputError(f"memory_snapshot: unknown selection keys {sorted(unknown)}")
        raw_types = data.get("types", data.get("type"))
        types = None if raw_types is None else tuple(_memory_type(t) for t in _as_list(raw_types, "types"))
        status = tuple(_as_list(data.get("status", data.get("statuses", ["active"])), "status"))
        for s in status:
            if s not in ("active", "superseded", "retracted"):
                raise InputError(f"memory_snapshot: status {s!r} is not active / superseded / retracted")
        prefix = data.get("key_prefix")
        if prefix is not None and not isinstance(prefix, str):
            raise InputError("memory_snapshot: key_prefix must be a string")
        limit = data.get("limit", DEFAULT_SNAPSHOT_LIMIT)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 10_000:
            raise InputError("memory_snapshot: limit must be an integer from 1 to 10000")
        return cls(types=types, key_prefix=prefix or None, status=status, limit=limit)

    def describe(self) -> str:
        parts = [f"types={','.join(self.types) if self.types else 'all'}"]
        if self.key_prefix:
            parts.append(f"key_prefix={self.key_prefix}")
        parts.append(f"status={','.join(self.status)}")
        return " ".join(parts)

    def source_uri(self) -> str:
        # Stable per selection, so a later snapshot of the same selection updates the same document.
        types = ",".join(sorted(self.types)) if self.types else "all"
        prefix = quote(self.key_prefix or "", safe=":")
        return f"graphbrain://memory_snapshot/{types}/{prefix}?status={','.join(sorted(self.status))}"


def _as_list(value: Any, name: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable) and all(isinstance(v, str) for v in value):
        return list(value)
    raise InputError(f"memory_snapshot: {name} must be a string or a list of strings")


def _memory_type(name: str) -> str:
    for t in MemoryType:
        if name in (t.value, KEY_PREFIX[t]):
            return t.value
    raise InputError(f"memory_snapshot: unknown memory type {name!r} (one of {', '.join(t.value for t in MemoryType)})")


def file_uri(path: str | PathLike[str]) -> str:
    """The ``source_uri`` of a file: ``file://`` plus the resolved absolute path, not percent-encoded.

    Readable and prefix-filterable (``source_uri_prefix: ["file:///srv/docs/"]`` works for any script),
    and for absolute paths the same form ``resources.refs.normalise_ref_uri`` gives a file ref.
    """
    return "file://" + Path(path).resolve().as_posix()


def document_id_for(namespace: str, source_uri: str) -> str:
    return stable_id("doc", namespace, source_uri)


def _quoted_title(title: str) -> str:
    """The title as a URI segment; a very long one (CJK quotes to 9 bytes a character) as its start and
    a hash of all of it, so the URI stays under the index's key size."""
    quoted = quote(title, safe="")
    if len(quoted) <= MAX_SOURCE_URI_CHARS - 64:
        return quoted
    return quote(title[:100], safe="") + "~" + hashlib.sha256(title.encode("utf-8")).hexdigest()[:24]


def _is_url(s: str) -> bool:
    return s.lower().startswith(("http://", "https://"))


def _path_of(s: str) -> Path:
    if s.startswith("file://"):
        return Path(unquote(urlsplit(s).path))
    return Path(s).expanduser()


# ------------------------------------------------------------------------------------- internals


@dataclass(slots=True)
class _Options:
    namespace: str
    title: str | None
    tags: list[dict[str, str]]
    topics: list[dict[str, str]]
    language: str | None
    metadata: dict[str, Any]
    source_type: SourceType | None


@dataclass(slots=True)
class _Existing:
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
    def from_row(cls, r: Row) -> _Existing:
        return cls(
            id=r["id"],
            content_hash=r.get("content_hash"),
            title=r.get("title"),
            language=r.get("language"),
            source_type=r.get("source_type"),
            format=r.get("format"),
            metadata=_loads(r.get("metadata_json")),
            tags=list(r.get("tags") or []),
            topics=list(r.get("topics") or []),
            sections=int(r.get("section_count") or 0),
            chunks=int(r.get("chunk_count") or 0),
            entities=int(r.get("entities") or 0),
        )


@dataclass(slots=True)
class _EntityPlan:
    id: str
    key: str
    kind: str
    canonical: str
    name: str
    creates: bool  # found by shape: may create the node; otherwise it links only if the node exists
    count: int = 0
    mentions: dict[str, dict[str, Any]] = field(default_factory=dict)  # chunk id -> mention row


def _json(v: Any) -> str:
    # The same serialisation as the commit pipeline (value_json of an entity must compare equal).
    return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)


def _loads(s: str | None) -> dict[str, Any]:
    try:
        v = json.loads(s or "{}")
    except ValueError:
        return {}
    return v if isinstance(v, dict) else {}


def _labels(kind: str, namespace: str, names: Iterable[str] | str, what: str) -> list[dict[str, str]]:
    """Tag / Topic rows: whitespace-collapsed names (case kept), deduplicated, with their stable ids."""
    if isinstance(names, str):
        names = [names]
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for raw in names:
        if not isinstance(raw, str):
            raise InputError(f"{what}: every entry must be a string, not {type(raw).__name__}")
        check_text(raw, what)
        name = " ".join(raw.split())
        if not name or name in seen:
            continue
        if len(name) > MAX_LABEL_CHARS:
            raise InputError(f"{what}: {name[:40]!r}... is over {MAX_LABEL_CHARS} characters")
        seen.add(name)
        out.append({"id": stable_id(kind, namespace, name), "name": name})
    return out


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)


def _embed_text(section_title: str, text: str) -> str:
    # A chunk after the first of its section has lost its heading; the title gives the vector that context.
    if section_title and section_title not in text[: len(section_title) + 200]:
        text = f"{section_title}\n{text}"
    return text[:MAX_EMBED_CHARS]


def _times_said(text: str, name: str) -> int:
    """How often ``text`` says ``name`` as a word of its own ("alpha" in alpha.example.org is not Alpha)."""
    if has_cjk(name):
        return text.count(name)
    rx = rf"(?<![\w./-]){re.escape(name)}(?![\w/-]|\.\w)"
    return len(re.findall(rx, text, flags=re.IGNORECASE))


def _rank(c: EntityCandidate) -> tuple[int, int]:
    return (_SIGNAL_ORDER.get(c.signal, 9), c.start)


# ------------------------------------------------------------------------------------- the ingestor


class Ingestor:
    """Writes parsed documents into the graph; see the module docstring for the source rules."""

    def __init__(
        self,
        config: BrainConfig,
        store: Store,
        embedder_factory: Callable[[], Embedder],
        english_factory: Callable[[], Embedder | None] | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self._embedder_factory = embedder_factory
        self._english_factory = english_factory or (lambda: None)

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
        opts = _Options(
            namespace=namespace,
            title=title.strip() if title and title.strip() else None,
            tags=_labels("tag", namespace, tags, "tags"),
            topics=_labels("topic", namespace, topics, "topics"),
            language=language,
            metadata=dict(metadata or {}),
            source_type=source_type,
        )
        kind, label, docs = self._dispatch(source, opts, glob, progress, source_uri)
        embed_ms = round(sum(d.embed_ms for d in docs), 2)
        return IngestResult(
            namespace=namespace, source=label, kind=kind, documents=docs, took_ms=_ms(t0), embed_ms=embed_ms
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
            if _is_url(document):
                refs.add(normalise_url(document))
            elif not document.startswith(("doc_", "graphbrain://")):
                refs.add(file_uri(_path_of(document)))
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
        opts = _Options(
            namespace=namespace,
            title=doc.title,
            tags=_labels("tag", namespace, tags, "tags"),
            topics=_labels("topic", namespace, topics, "topics"),
            language=doc.language,
            metadata=dict(metadata or {}),
            source_type=doc.source_type,
        )
        doc_id = document_id_for(namespace, doc.source_uri)
        return self._write_document(doc, opts, self._lookup([doc_id], namespace).get(doc_id), 0.0)

    # ------------------------------------------------------------------ dispatch
    def _dispatch(
        self,
        source: Any,
        opts: _Options,
        glob: str,
        progress: ProgressCallback | None,
        source_uri: str | None,
    ) -> tuple[SourceKind, str, list[DocumentResult]]:
        st = opts.source_type
        if isinstance(source, ManualText) or (isinstance(source, Mapping) and "text" in source):
            text = source if isinstance(source, ManualText) else _manual_from_mapping(source)
            if source_uri and not text.source_uri:
                text = ManualText(text.text, title=text.title, format=text.format, source_uri=source_uri)
            return (
                "manual",
                self._manual_label(text),
                [self._single(lambda: self._parse_manual(text, opts), opts, progress)],
            )
        if st == "manual":
            if not isinstance(source, str):
                raise InputError(f"source: source_type 'manual' takes the text as a str, not {type(source).__name__}")
            manual = ManualText(source, title=opts.title, source_uri=source_uri)
            return (
                "manual",
                self._manual_label(manual),
                [self._single(lambda: self._parse_manual(manual, opts), opts, progress)],
            )
        if st == "memory_snapshot" or isinstance(source, MemorySnapshot):
            sel = source if isinstance(source, MemorySnapshot) else None
            if sel is None:
                if source is not None and not isinstance(source, Mapping):
                    raise InputError(
                        "source: a memory_snapshot takes a selection mapping such as "
                        "{'types': ['decisions'], 'key_prefix': 'decision:proj:'}"
                    )
                sel = MemorySnapshot.from_mapping(source or {})
            label = f"memory_snapshot:{sel.describe()}"
            return (
                "memory_snapshot",
                label,
                [self._single(lambda: self._parse_snapshot(sel, opts), opts, progress)],
            )
        if isinstance(source, Mapping):
            raise InputError(
                "source: a mapping is raw text ({'text': ...}) or, with source_type="
                "'memory_snapshot', a memory selection"
            )
        if not isinstance(source, (str, PathLike)):
            raise InputError(f"source: expected a path, a URL or text, not {type(source).__name__}")
        s = fspath(source)
        if isinstance(s, bytes):
            s = s.decode()
        if isinstance(source, str) and _is_url(s):
            if st not in (None, "url", "other"):
                raise InputError(f"source: {s} is a URL but source_type is {st!r}")
            return "url", s, [self._single(lambda: self._parse_url(s, opts), opts, progress)]
        if st == "url":
            raise InputError(f"source: source_type 'url' needs an http(s) URL, not {s!r}")
        if st not in (None, "file", "other"):
            raise InputError(f"source: source_type {st!r} does not apply to a file or directory")
        try:
            path = _path_of(s)
            is_dir, is_file = path.is_dir(), path.is_file()
        except (OSError, ValueError, RuntimeError):  # too long, a NUL, "~nobody/": text, surely
            is_dir = is_file = False
        if is_dir:
            return "directory", s, self._directory(path, opts, glob, progress)
        if is_file:
            return (
                "file",
                s,
                [self._single(lambda: self._parse_path(path, opts, title=opts.title), opts, progress)],
            )
        shown = s if len(s) <= 120 else s[:117] + "..."
        raise InputError(
            f"{shown!r}: no such file or directory (to ingest a string as text, pass source_type='manual')",
            [{"field": "source", "reason": "not found"}],
        )

    @staticmethod
    def _manual_label(text: ManualText) -> str:
        return f"manual:{text.title or text.source_uri or 'untitled'}"

    # ------------------------------------------------------------------ parsing, per source kind
    def _parse_path(self, path: Path, opts: _Options, *, title: str | None = None) -> ParsedDocument:
        try:
            return parse_file(
                path,
                title=title,
                source_uri=file_uri(path),
                source_type=opts.source_type or "file",
                language=opts.language,
                metadata=opts.metadata,
            )
        except GraphbrainError:
            raise
        except Exception as e:  # a parsing library's own failure on a strange file: name the file
            raise InputError(f"{path}: cannot be parsed ({type(e).__name__}: {e})") from e

    def _parse_url(self, url: str, opts: _Options) -> ParsedDocument:
        fetched = fetch_url(url)
        uri = normalise_url(url)
        meta = dict(opts.metadata)
        if fetched.final_url != url:
            meta.setdefault("final_url", fetched.final_url)
        try:
            return parse_bytes(
                fetched.data,
                fetched.content_type,
                uri,
                title=opts.title,
                source_type=opts.source_type or "url",
                language=opts.language,
                metadata=meta,
            )
        except GraphbrainError:
            raise
        except Exception as e:
            raise InputError(f"{url}: cannot be parsed ({type(e).__name__}: {e})") from e

    def _parse_manual(self, text: ManualText, opts: _Options) -> ParsedDocument:
        if not text.text.strip():
            raise InputError("manual text: there is no text to index")
        title = text.title or opts.title
        uri = text.source_uri or (f"graphbrain://manual/{_quoted_title(title)}" if title else None)
        return parse_text(
            text.text,
            title=title,
            fmt=text.format,
            source_uri=uri,
            source_type="manual",
            language=opts.language,
            metadata=opts.metadata,
        )

    def _parse_snapshot(self, sel: MemorySnapshot, opts: _Options) -> ParsedDocument:
        rows = self.store.run(
            "resources/snapshot_items",
            {
                "namespace": opts.namespace,
                "types": list(sel.types) if sel.types else None,
                "key_prefix": sel.key_prefix,
                "statuses": list(sel.status),
                "limit": sel.limit,
            },
        )
        if not rows:
            raise InputError(f"memory_snapshot: no memory items match {sel.describe()}")
        title = opts.title or f"Memory snapshot: {', '.join(sel.types) if sel.types else 'all types'}" + (
            f" ({sel.key_prefix})" if sel.key_prefix else ""
        )
        text = render_memory_snapshot(rows, title=title, selection=sel.describe())
        meta = {
            **opts.metadata,
            "selection": sel.describe(),
            "memory_item_ids": [r["id"] for r in rows],
        }
        return parse_text(
            text,
            title=title,
            fmt="markdown",
            source_uri=sel.source_uri(),
            source_type="memory_snapshot",
            language=opts.language,
            metadata=meta,
        )

    # ------------------------------------------------------------------ one document / a directory
    def _single(
        self, parse: Callable[[], ParsedDocument], opts: _Options, progress: ProgressCallback | None = None
    ) -> DocumentResult:
        """Parse and write one source; reading errors raise (the caller named exactly this source)."""
        t0 = time.perf_counter()
        doc = parse()
        parse_ms = _ms(t0)
        doc_id = document_id_for(opts.namespace, doc.source_uri)
        existing = self._lookup([doc_id], opts.namespace).get(doc_id)
        result = self._write_document(doc, opts, existing, parse_ms)
        if progress:
            progress(1, 1, result.chunks)
        return result

    def _directory(
        self, root: Path, opts: _Options, glob: str, progress: ProgressCallback | None
    ) -> list[DocumentResult]:
        files = list(iter_files(root, glob))
        total = len(files)
        ids = [document_id_for(opts.namespace, file_uri(p)) for p in files]
        existing = self._lookup(ids, opts.namespace)
        results: list[DocumentResult] = []
        chunks = 0
        if progress:
            progress(0, total, 0)
        for done, (path, doc_id) in enumerate(zip(files, ids, strict=True), start=1):
            result = self._file_in_directory(path, doc_id, opts, existing.get(doc_id))
            results.append(result)
            chunks += result.chunks
            if progress:
                progress(done, total, chunks)
        return results

    def _file_in_directory(self, path: Path, doc_id: str, opts: _Options, existing: _Existing | None) -> DocumentResult:
        t0 = time.perf_counter()
        label = str(path)
        try:
            doc = self._parse_path(path, opts)
        except GraphbrainError as e:
            return DocumentResult(source=label, status="failed", error=str(e), took_ms=_ms(t0))
        try:
            return self._write_document(doc, opts, existing, _ms(t0), label=label)
        except StoreUnavailable:
            raise  # every later file would fail the same way: stop and say so
        except (EmbeddingError, StoreError, InputError) as e:
            log.warning("ingest of %s failed: %s", path, e)
            return DocumentResult(
                source=label,
                status="failed",
                document_id=doc_id,
                source_uri=doc.source_uri,
                title=doc.title,
                format=doc.format,
                error=f"{path.name}: {e}",
                took_ms=_ms(t0),
            )

    def _lookup(self, ids: Sequence[str], namespace: str) -> dict[str, _Existing]:
        out: dict[str, _Existing] = {}
        for start in range(0, len(ids), LOOKUP_BATCH):
            batch = list(ids[start : start + LOOKUP_BATCH])
            for row in self.store.run("resources/existing_documents", {"ids": batch, "namespace": namespace}):
                out[row["id"]] = _Existing.from_row(row)
        return out

    # ------------------------------------------------------------------ the write
    def _write_document(
        self,
        doc: ParsedDocument,
        opts: _Options,
        existing: _Existing | None,
        parse_ms: float,
        *,
        label: str | None = None,
    ) -> DocumentResult:
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
                    took_ms=_ms(t0),
                )
            w0 = time.perf_counter()
            self.store.write(lambda tx: self._write_fields(tx, doc_id, doc, opts, existing))
            return DocumentResult(
                **base,
                status="updated",
                changed="fields",
                sections=existing.sections,
                chunks=existing.chunks,
                entities=existing.entities,
                write_ms=_ms(w0),
                took_ms=_ms(t0),
            )

        sections, chunks = self._rows(doc, ns, doc_id)
        n0 = time.perf_counter()
        plans = self._entity_plans(doc, ns, chunks)
        entities_ms = _ms(n0)
        known = self._known_entities([p.id for p in plans.values()])
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
        embed_ms = _ms(e0) if texts else 0.0
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
            "metadata_json": _json(self._metadata(doc)),
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
        w0 = time.perf_counter()
        created = self.store.write(work, undo=undo)
        return DocumentResult(
            **base,
            status="created" if created else "updated",
            changed=None if created else "content",
            sections=len(sections),
            chunks=len(chunks),
            chunks_written=len(chunks),
            entities=len(entity_rows),
            embedded=len(texts),
            reused_embeddings=len(chunks) - len(todo),
            embed_ms=embed_ms,
            entities_ms=entities_ms,
            write_ms=_ms(w0),
            took_ms=_ms(t0),
        )

    # ------------------------------------------------------------------ pieces of the write
    @staticmethod
    def _metadata(doc: ParsedDocument) -> dict[str, Any]:
        return {**doc.metadata, "mime": doc.mime, "keywords": doc.keywords}

    @staticmethod
    def _fields_changed(existing: _Existing, doc: ParsedDocument, opts: _Options) -> bool:
        """Same content: did a document-level field change? The title is the given one or the content's;
        tags, topics and metadata count only when given."""
        if existing.title != doc.title:
            return True
        if opts.tags and {t["name"] for t in opts.tags} != set(existing.tags):
            return True
        if opts.topics and {t["name"] for t in opts.topics} != set(existing.topics):
            return True
        # Only the caller's metadata keys: a touched file (new mtime, same text) stays a no-op.
        return any(_json(existing.metadata.get(k)) != _json(v) for k, v in opts.metadata.items())

    def _write_fields(self, tx: Tx, doc_id: str, doc: ParsedDocument, opts: _Options, existing: _Existing) -> None:
        metadata = {**existing.metadata, **opts.metadata}
        tx.run(
            "resources/update_document_fields",
            {
                "document_id": doc_id,
                "namespace": opts.namespace,
                "title": doc.title,
                "metadata_json": _json(metadata),
                "now": datetime.now(UTC),
            },
        )
        if opts.tags or opts.topics:
            self._run_labels(tx, doc_id, opts)

    @staticmethod
    def _run_labels(tx: Tx, doc_id: str, opts: _Options) -> None:
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

    def _entity_plans(self, doc: ParsedDocument, ns: str, chunks: list[dict[str, Any]]) -> dict[str, _EntityPlan]:
        plans: dict[str, _EntityPlan] = {}
        langs = [c.pop("_language") for c in chunks]
        try:
            # One batched spaCy pass over the English chunks instead of a model call per chunk.
            docs = english_docs([c["text"] for c in chunks], langs, self.config.nlp)
        except Exception as e:  # a language pipeline failing must not lose the document
            log.warning("entity detection failed on %s: %s", doc.source_uri, e)
            return plans
        for c, lang, en_doc in zip(chunks, langs, docs, strict=True):
            try:
                cands = entity_candidates(c["text"], lang, cfg=self.config.nlp, en_doc=en_doc)
            except Exception as e:  # a language pipeline failing must not lose the document
                log.warning("entity detection failed on %s chunk %s: %s", doc.source_uri, c["chunk_index"], e)
                continue
            picked = sorted((x for x in cands if x.signal in _SIGNAL_ORDER), key=_rank)[:MAX_MENTIONS_PER_CHUNK]
            for ec in picked:
                # The key and id the commit pipeline gives the same thing (commit/pipeline.py _entities).
                key = f"entity:{ec.kind}:{ec.canonical}"
                plan = plans.get(ec.canonical)
                if plan is None:
                    plan = _EntityPlan(
                        id=entity_id(ns, ec.canonical),
                        key=key,
                        kind=ec.kind,
                        canonical=ec.canonical,
                        name=ec.name,
                        creates=ec.signal in _CREATING_SIGNALS,
                    )
                    plans[ec.canonical] = plan
                plan.creates = plan.creates or ec.signal in _CREATING_SIGNALS
                # Candidates come one per name and chunk: how often the chunk says it is its own count.
                plan.count += max(1, _times_said(c["text"], ec.name))
                if plan.count >= _DOC_FREQUENCY and ec.signal != "quoted":
                    plan.creates = True
                m = plan.mentions.get(c["id"])
                if m is None:
                    plan.mentions[c["id"]] = {
                        "chunk_id": c["id"],
                        "count": 1,
                        "start": ec.start,
                        "end": ec.end,
                        "text": ec.name,
                    }
                else:
                    m["count"] += 1
        return plans

    def _known_entities(self, ids: list[str]) -> set[str]:
        if not ids:
            return set()
        return {r["id"] for r in self.store.run("resources/existing_entities", {"ids": ids})}

    def _entity_row(self, ns: str, p: _EntityPlan, vector: list[float] | None) -> dict[str, Any]:
        return {
            "id": p.id,
            "key": p.key,
            "lock_id": f"{ns}|{p.key}",  # active_key, as conversation memory sets it
            "kind": p.kind,
            "canonical": p.canonical,
            "name": p.name,
            "count": p.count,
            "confidence": self.config.policies.retention.confidence.tool_derived,
            "value_json": _json({"name": p.name, "kind": p.kind, "canonical": p.canonical}),
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


def _manual_from_mapping(data: Mapping[str, Any]) -> ManualText:
    unknown = set(data) - {"text", "title", "format", "source_uri"}
    if unknown:
        raise InputError(f"source: unknown keys {sorted(unknown)} for raw text (text, title, format, source_uri)")
    text = data.get("text")
    if not isinstance(text, str):
        raise InputError("source.text: must be a string")
    return ManualText(
        text=text,
        title=cast(str | None, data.get("title")),
        format=str(data.get("format") or "markdown"),
        source_uri=cast(str | None, data.get("source_uri")),
    )


# ------------------------------------------------------------------------------------- memory snapshot

_TYPE_HEADINGS = {t.value: t.value.capitalize() for t in MemoryType}


def render_memory_snapshot(items: Sequence[Mapping[str, Any]], *, title: str, selection: str = "") -> str:
    """Memory items as Markdown: one ``##`` per type, one ``###`` section per item (its key).

    Deterministic (no render time, items in the query's order), so unchanged memory renders to the same
    text and its re-ingest is a no-op.
    """
    lines = [f"# {title}", ""]
    lines.append(f"{len(items)} memory item(s)" + (f", selected by {selection}." if selection else "."))
    current: str | None = None
    for it in items:
        mtype = str(it.get("type") or "other")
        if mtype != current:
            lines += ["", f"## {_TYPE_HEADINGS.get(mtype, mtype.capitalize())}"]
            current = mtype
        key = str(it.get("key") or it.get("id"))
        text = str(it.get("text") or "")
        prefix = f"[{mtype}:{key}]"
        if text.startswith(prefix):
            text = text[len(prefix) :].strip()
        lines += ["", f"### {key}", ""]
        if text:
            lines += [text, ""]
        value = _loads(cast(str | None, it.get("value_json")))
        for k in sorted(value):
            v = value[k]
            if v in (None, "", [], {}) or (isinstance(v, str) and v == text):
                continue
            shown = v if isinstance(v, str) else _json(v)
            lines.append(f"- {k}: {shown}")
        facts = [f"status: {it.get('status') or 'active'}"]
        if it.get("confidence") is not None:
            facts.append(f"confidence: {float(it['confidence']):.2f}")
        if it.get("version") is not None:
            facts.append(f"version: {it['version']}")
        when = it.get("updated_at") or it.get("created_at")
        if isinstance(when, datetime):
            facts.append(f"updated: {when.date().isoformat()}")
        lines.append(f"- {'; '.join(facts)}")
    return "\n".join(lines) + "\n"
