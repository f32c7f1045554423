"""Brain: the public face of graphbrain.

    with Brain.from_config("brain.yml") as brain:
        brain.commit_turn("s1", {...})
        package = brain.compose_context("s1", "what did we decide?")

A Brain holds the config, one store and the lazily loaded models (each loaded once per process).
"""

from __future__ import annotations

import os
from functools import cached_property
from types import TracebackType
from typing import TYPE_CHECKING, Any

from graphbrain.config import BrainConfig, load_config
from graphbrain.contracts import CommitResult, ContextPackage, EvidencePack, RetrievalPlan
from graphbrain.errors import SchemaError, StoreError
from graphbrain.store import SCHEMA_VERSION, SchemaReport, Store, open_store

if TYPE_CHECKING:
    from graphbrain.embedding import Embedder


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
        return brain

    def check_schema(self) -> None:
        try:
            version = self.store.schema_version()
        except StoreError:
            raise
        if version is None:
            raise SchemaError("the database has no graphbrain schema: run `graphbrain init`")
        if version < SCHEMA_VERSION:
            raise SchemaError(
                f"the database schema is version {version}, this graphbrain needs {SCHEMA_VERSION}: "
                "run `graphbrain init`"
            )

    def init_schema(self) -> SchemaReport:
        """Create every constraint and index (idempotent) and wait until they are ONLINE."""
        return self.store.ensure_schema(self.config.embedding.dimension)

    @cached_property
    def embedder(self) -> Embedder:
        from graphbrain.embedding import get_embedder

        return get_embedder(self.config.embedding)

    @property
    def namespace(self) -> str:
        return self.config.namespace

    def _ns(self, namespace: str | None) -> str:
        return namespace or self.config.namespace

    # ------------------------------------------------------------ the product
    def commit_turn(self, session_id: str, turn_events: Any) -> CommitResult:
        """Record a turn as truth and distil it into typed memory (one transaction)."""
        from graphbrain.commit.pipeline import CommitPipeline

        return CommitPipeline(self.config, self.store, lambda: self.embedder).commit(session_id, turn_events)

    def retrieve(
        self, plan: RetrievalPlan | dict[str, Any] | str, *, namespace: str | None = None
    ) -> EvidencePack:
        """Execute a RetrievalPlan over memory, turns and resources; returns an EvidencePack."""
        from graphbrain.retrieve.executor import Executor

        return Executor(self.config, self.store, lambda: self.embedder).retrieve(
            plan, namespace=self._ns(namespace)
        )

    def compose_context(
        self,
        session_id: str,
        user_message: str,
        agent_state: dict[str, Any] | None = None,
        *,
        namespace: str | None = None,
    ) -> ContextPackage:
        """Plan, retrieve, fuse and compose the slot-ordered ContextPackage for the next model call."""
        from graphbrain.compose.composer import Composer

        return Composer(self).compose(session_id, user_message, agent_state, namespace=self._ns(namespace))

    def ingest(self, source: Any, **options: Any) -> Any:
        """Add a file, directory, URL, raw text or memory snapshot to the resource library."""
        from graphbrain.resources.ingest import Ingestor

        options.setdefault("namespace", self.config.namespace)
        return Ingestor(self.config, self.store, lambda: self.embedder).ingest(source, **options)

    # ------------------------------------------------------------ lifecycle
    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Brain:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
