"""Brain: the public face of graphbrain.

    with Brain.from_config("brain.yml") as brain:
        brain.commit_turn("s1", {...})
        package = brain.compose_context("s1", "what did we decide?")

A Brain holds the config, one store and the lazily loaded models (each loaded once per process).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cached_property
from types import TracebackType
from typing import TYPE_CHECKING, Any

from graphbrain.config import BrainConfig, load_config
from graphbrain.contracts import CommitResult, ContextPackage, EvidencePack, RetrievalPlan, validate_namespace
from graphbrain.store import CypherResult, SchemaReport, Store, open_store

if TYPE_CHECKING:
    from graphbrain.commit.pipeline import CommitPipeline
    from graphbrain.compose.composer import Composer
    from graphbrain.embedding import Embedder
    from graphbrain.journal import Journal
    from graphbrain.retrieve.executor import Executor
    from graphbrain.store.upgrade import Progress, UpgradeReport


class Brain:
    def __init__(self, config: BrainConfig, store: Store) -> None:
        self.config = config
        self.store = store

    # ------------------------------------------------------------ construction
    @classmethod
    def from_config(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        overrides: dict[str, Any] | None = None,
        check_schema: bool = True,
    ) -> Brain:
        """Load brain.yml (or defaults), connect, and check that the schema is current."""
        config = load_config(path, overrides=overrides)
        store = open_store(config.storage)
        brain = cls(config, store)
        if check_schema:
            try:
                brain.check_schema()
            except BaseException:
                store.close()
                raise
            brain._replay_at_startup()
        return brain

    def _replay_at_startup(self) -> None:
        """Pending journaled turns are written as soon as the graph answers again."""
        from pathlib import Path

        from graphbrain.errors import StoreUnavailable

        if not self.config.storage.journal or not (Path(self.config.storage.data_dir) / "journal.sqlite3").exists():
            return
        if self.journal.status()["pending"]:
            with contextlib.suppress(StoreUnavailable):  # still away: the next commit_turn tries again
                self.replay_journal()

    def check_schema(self) -> None:
        """SchemaError unless the graph is at this graphbrain's version (a new embedded one is created)."""
        from graphbrain.store.schema_check import check_schema

        check_schema(self.store, self.init_schema)

    def init_schema(self, *, batch: int | None = None, progress: Progress | None = None) -> SchemaReport:
        """Create every constraint and index (idempotent), wait until they are ONLINE, and run every pending
        upgrade step (graphbrain/store/upgrade.py), so an older graph is brought up to date in place."""
        report = self.upgrade(batch=batch, progress=progress)
        assert report.schema is not None
        return report.schema

    def upgrade(self, *, batch: int | None = None, progress: Progress | None = None) -> UpgradeReport:
        """``graphbrain upgrade``: the schema, then every pending step in batches (resumable)."""
        from graphbrain.store.upgrade import DEFAULT_BATCH, UpgradeModels, upgrade

        emb = self.config.embedding
        return upgrade(
            self.store,
            emb.dimension,
            english_dimension=emb.english.dimension,
            batch=batch or DEFAULT_BATCH,
            progress=progress,
            models=UpgradeModels(english=lambda: self.english_embedder),
        )

    @cached_property
    def embedder(self) -> Embedder:
        return load_embedder(self.config)

    @cached_property
    def english_embedder(self) -> Embedder | None:
        """The second model, for English text (``embedding.english``); None when it is off."""
        return load_english_embedder(self.config)

    def warm_up(self, *, freeze: bool | None = None) -> float:
        """Load the embedding models, both language pipelines and the commit pipeline now rather than at the
        first turn; returns seconds. ``freeze`` (default: when this process is graphbrain's own) then keeps
        what they loaded out of the collector's full passes, a pause of ~100 ms a turn otherwise
        (``graphbrain.heap``)."""
        from graphbrain import heap
        from graphbrain.nlp import entity_candidates, keywords

        t0 = time.perf_counter()
        self.embedder.embed(["warm-up"])
        if (english := self.english_embedder) is not None:  # English and mixed turns embed with it too
            english.embed(["warm-up"])
        entity_candidates("Warm up: Ada Lovelace met Charles Babbage in London.", "en", cfg=self.config.nlp)
        entity_candidates("预热中文分词：北京的陈静在 Neo4j 团队。", "zh", cfg=self.config.nlp)
        keywords("预热关键词：北京的数据迁移。", cfg=self.config.nlp)  # jieba's IDF table: ~170 ms at first use
        self.commit_pipeline  # noqa: B018  built (and its modules imported) now, not inside the first turn
        if heap.owned() if freeze is None else freeze:
            heap.freeze()
        return time.perf_counter() - t0

    def _models(self) -> tuple[Callable[[], Embedder], Callable[[], Embedder | None]]:
        """The two model factories every pipeline takes: a model is loaded when a text is embedded."""
        return (lambda: self.embedder), (lambda: self.english_embedder)

    @property
    def namespace(self) -> str:
        return self.config.namespace

    def _ns(self, namespace: str | None) -> str:
        # Every verb's namespace= is a tenant name, spelt as brain.yml and the HTTP header spell it.
        return validate_namespace(namespace) if namespace is not None else self.config.namespace

    # ------------------------------------------------------------ the product
    def commit_turn(self, session_id: str, turn_events: Any) -> CommitResult:
        """Record a turn as truth and distil it into typed memory (one transaction).

        With ``storage.journal`` on (the default) the turn is journaled first: when Neo4j cannot be
        reached the result is ``status="pending"`` ("accepted, pending") and the turn is written later.
        """
        pipeline = self.commit_pipeline
        if not self.config.storage.journal:
            return pipeline.commit(session_id, turn_events)
        from graphbrain.commit.durable import DurableCommitter

        return DurableCommitter(pipeline, self.journal, self.config.namespace).commit(session_id, turn_events)

    @cached_property
    def commit_pipeline(self) -> CommitPipeline:
        """One pipeline per Brain: its per-namespace caches (the entity ruler's lexicon, the candidate
        names) are read once a minute, not on every commit."""
        from graphbrain.commit.pipeline import CommitPipeline

        return CommitPipeline(self.config, self.store, *self._models())

    @cached_property
    def journal(self) -> Journal:
        from graphbrain.journal import Journal

        storage = self.config.storage
        return Journal.in_data_dir(storage.data_dir, target=self.store.target, max_mb=storage.journal_max_mb)

    def journal_if_on(self) -> Journal | None:
        """The journal when brain.yml keeps one (``storage.journal``), else None (and no file is made)."""
        return self.journal if self.config.storage.journal else None

    def replay_journal(self) -> list[CommitResult]:
        """Write every pending journaled turn, in order (raises StoreUnavailable if Neo4j is still away)."""
        from graphbrain.commit.durable import DurableCommitter

        return DurableCommitter(self.commit_pipeline, self.journal, self.config.namespace).replay()

    def journal_status(self) -> dict[str, Any]:
        """Counts by status and the pending turns (namespace, session, turn id, attempts, last error)."""
        pending = self.journal.pending()
        return {
            **self.journal.status(),
            "path": str(self.journal.path),
            "target": self.journal.target,
            "pending_elsewhere_by_target": self.journal.pending_elsewhere(),
            "pending_turns": [
                {
                    "id": e.id,
                    "namespace": e.namespace,
                    "session_id": e.session_id,
                    "turn_id": e.turn_id,
                    "attempts": e.attempts,
                    "last_error": e.last_error,
                }
                for e in pending
            ],
        }

    def reindex(self, *, namespace: str | None = None) -> dict[str, Any]:
        """Fill embeddings that an embedding failure left out."""
        from graphbrain.reindex import reindex_missing

        return reindex_missing(self.store, self.embedder, self._ns(namespace))

    def retrieve(self, plan: RetrievalPlan | dict[str, Any] | str, *, namespace: str | None = None) -> EvidencePack:
        """Execute a RetrievalPlan over memory, turns and resources; returns an EvidencePack."""
        return self._executor().retrieve(plan, namespace=self._ns(namespace))

    def _executor(self) -> Executor:
        from graphbrain.retrieve.executor import Executor

        return Executor(self.config, self.store, *self._models())

    def compose_context(
        self,
        session_id: str,
        user_message: str,
        agent_state: dict[str, Any] | None = None,
        *,
        namespace: str | None = None,
        now: datetime | None = None,
    ) -> ContextPackage:
        """Plan, retrieve, fuse and compose the slot-ordered ContextPackage for the next model call.

        ``now`` (default: the current time) is the moment the question is asked: what "last week" means
        and which turns are recent, so that a history can be replayed and evaluated as of its own dates.
        """
        return self.composer().compose(
            session_id, user_message, agent_state, namespace=self._ns(namespace), now=_aware(now)
        )

    def composer(self) -> Composer:
        """The Composer behind compose_context, over this brain's store, journal and models."""
        from graphbrain.compose.composer import Composer

        return Composer(self.config, self.store, self.journal_if_on, self._executor())

    def ingest(self, source: Any, **options: Any) -> Any:
        """Add a file, directory, URL, raw text or memory snapshot to the resource library."""
        from graphbrain.resources.ingest import Ingestor

        options["namespace"] = self._ns(options.get("namespace"))
        return Ingestor(self.config, self.store, *self._models()).ingest(source, **options)

    # ------------------------------------------------------------ lifecycle
    def close(self) -> None:
        if "journal" in self.__dict__:
            self.journal.close()
        self.store.close()

    def __enter__(self) -> Brain:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ---- admin and exploration
    # Thin wrappers over graphbrain.admin (and the Ingestor for remove_document): the CLI, HTTP and MCP
    # surfaces call these; the namespace defaults to the config's on every one.
    def list_memory(
        self,
        *,
        types: list[str] | str | None = None,
        status: str = "active",
        key_prefix: str | None = None,
        session_id: str | None = None,
        limit: int = 50,
        offset: int = 0,
        namespace: str | None = None,
    ) -> list[dict[str, Any]]:
        """Memory items, newest first, by type / status ('all' for every status) / key prefix / session."""
        from graphbrain.admin.memory import list_memory

        return list_memory(
            self.store,
            self._ns(namespace),
            types=types,
            status=status,
            key_prefix=key_prefix,
            session_id=session_id,
            limit=limit,
            offset=offset,
        )

    def show_memory(self, item: str, *, namespace: str | None = None) -> dict[str, Any]:
        """One item (id or key) with its history, provenance and mentions; NotFoundError if none."""
        from graphbrain.admin.memory import show_memory

        return show_memory(self.store, self._ns(namespace), item)

    def forget(
        self,
        *,
        item_id: str | None = None,
        key: str | None = None,
        session_id: str | None = None,
        whole_namespace: bool = False,
        namespace: str | None = None,
    ) -> dict[str, Any]:
        """Remove an item (every version of its key), a session or the whole namespace; returns counts."""
        from graphbrain.admin.memory import forget

        ns = self._ns(namespace)
        try:
            return forget(
                self.store, ns, item_id=item_id, key=key, session_id=session_id, whole_namespace=whole_namespace
            )
        finally:
            # A forgotten entity must not be found again by name from this process's cached lexicon.
            if "commit_pipeline" in self.__dict__:
                self.commit_pipeline.drop_caches(ns)

    def entity(self, name: str, *, namespace: str | None = None) -> dict[str, Any]:
        """An entity by name or alias with its neighbourhood and timeline; NotFoundError if none."""
        from graphbrain.admin.entity import entity_view

        return entity_view(self.store, self._ns(namespace), name)

    def export(
        self, fmt: str = "graphml", path: str | os.PathLike[str] | None = None, *, namespace: str | None = None
    ) -> str | dict[str, Any]:
        """The namespace's memory graph as GraphML or node-link JSON (written to ``path`` when given)."""
        from graphbrain.admin.export import export_graph

        return export_graph(self.store, self._ns(namespace), fmt, path)

    def cypher(
        self,
        text: str,
        params: dict[str, Any] | None = None,
        *,
        write: bool = False,
        row_cap: int = 1000,
        namespace: str | None = None,
    ) -> CypherResult:
        """Run your own Cypher: a READ transaction unless ``write``; ``$namespace`` is always set."""
        from graphbrain.admin.cypher_console import MAX_TIMEOUT_S, run_cypher

        return run_cypher(
            self.store,
            self._ns(namespace),
            text,
            params,
            write=write,
            row_cap=row_cap,
            timeout_s=min(self.config.storage.neo4j.query_timeout_s, MAX_TIMEOUT_S),
        )

    def get_commit_trace(self, commit_id: str, *, namespace: str | None = None) -> dict[str, Any] | None:
        """What one commit_turn wrote and why (its CommitResult), or None."""
        from graphbrain.admin.traces import get_commit_trace

        return get_commit_trace(self.store, self._ns(namespace), commit_id)

    def get_context_trace(self, context_id: str, *, namespace: str | None = None) -> dict[str, Any] | None:
        """What one compose_context planned, chose and dropped, or None."""
        from graphbrain.admin.traces import get_context_trace

        return get_context_trace(self.store, self._ns(namespace), context_id)

    def prune_traces(
        self, *, older_than_days: float | None = None, keep_last: int | None = None, namespace: str | None = None
    ) -> dict[str, Any]:
        """Delete old commit / context traces, keeping the ``keep_last`` newest of each kind."""
        from graphbrain.admin.traces import prune_traces

        return prune_traces(self.store, self._ns(namespace), older_than_days=older_than_days, keep_last=keep_last)

    def remove_document(self, document: str, *, namespace: str | None = None) -> dict[str, Any]:
        """Remove a document (id, source URI, URL or path) from the resource library; returns what went."""
        from graphbrain.resources.ingest import Ingestor

        ingestor = Ingestor(self.config, self.store, *self._models())
        return ingestor.remove(document, namespace=self._ns(namespace)).model_dump(mode="json")


def load_embedder(config: BrainConfig) -> Embedder:
    """The config's embedding model (get_embedder loads each model once per process)."""
    from graphbrain.embedding import get_embedder

    return get_embedder(config.embedding)


def load_english_embedder(config: BrainConfig) -> Embedder | None:
    """The config's English model (``embedding.english``); None when it is off."""
    from graphbrain.embedding import get_embedder

    cfg = config.embedding.english_model()
    return get_embedder(cfg) if cfg is not None else None


def _aware(now: datetime | None) -> datetime | None:
    """A naive ``now`` is read as UTC (as every time graphbrain stores)."""
    if now is None or now.tzinfo is not None:
        return now
    return now.replace(tzinfo=UTC)
