"""The storage boundary: the only thing domain code knows about the database.

Domain code calls queries by name (``store.run("memory/active_by_keys", {...})``) and groups writes in
``store.write(fn)``, where ``fn(tx)`` runs named queries on one transaction that commits as a whole
(retried on transient errors, so ``fn`` must be safe to re-run). No Cypher strings outside ``cypher/``,
no driver types outside ``store/``: rows come back as plain dicts of Python values.

A backend without multi-statement transactions (the embedded one) cannot roll ``fn`` back; a write that
must be all or nothing there passes an :class:`Undo`, which such a backend uses to take back what ``fn``
applied. Backends with real transactions ignore it.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from graphbrain.config import ENGLISH_DIMENSION
from graphbrain.errors import InputError, SchemaError
from graphbrain.store.queries import QueryLibrary
from graphbrain.store.upgrade import OLDEST_VERSION, STEPS

T = TypeVar("T")
Row = dict[str, Any]

# The version of the last upgrade step (graphbrain/store/upgrade.py: a schema change is one entry there);
# Brain.from_config refuses to run against an older schema and says what to run.
SCHEMA_VERSION = STEPS[-1].version


def collected(result: list[Row]) -> list[Row]:
    """The rows of a query that returns them collected in one record (``RETURN collect({...}) AS rows``).

    A query that may return hundreds of rows does so: the Neo4j driver decodes each record on its own
    (~25 µs each, the larger part of a walk's or a hydration's time), one record with a list in one go."""
    return list(result[0]["rows"]) if result else []


class Tx(Protocol):
    """One open transaction: run named queries inside it."""

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> list[Row]: ...


@dataclass(frozen=True)
class Undo:
    """How to take a write back where the database cannot roll it back.

    Under the write lock and before the write, the store runs the read query ``capture`` with ``params``
    (one row: the pre-image of everything the write may change). If the write then fails, it runs the
    statements of ``apply`` in order with ``params`` plus each captured column as ``before_<column>``.
    Every statement must be idempotent (set captured values, delete what the write created), because a
    store that crashes half-way through applies the whole undo again when it next opens.
    """

    capture: str
    apply: str
    params: Mapping[str, Any]


@dataclass
class SchemaReport:
    version: int
    statements: int
    indexes: list[Row] = field(default_factory=list)


@dataclass
class CypherResult:
    columns: list[str]
    rows: list[Row]
    truncated: bool = False


class Store(ABC):
    backend: str = "abstract"
    queries: QueryLibrary  # the named Cypher of this backend's dialect
    dimension_fix: str = "drop it or fix the config"  # what to do about a vector index of the wrong size
    unreachable_fix: str = "see the error above"  # what `graphbrain doctor` says when the database is silent
    # Whether the store applies its schema on first use (then a graph without one is no problem yet).
    schema_on_first_use: bool = False

    def supported_server(self, info: Row) -> bool:
        """Whether the server :meth:`server_info` describes is one graphbrain runs on."""
        return True

    def retries(self) -> int:
        """How many times this thread's transactions were re-run after a transient error (a deadlock, a
        leader switch) since the store opened: what ``bench load`` counts per commit. 0 where the backend
        does not retry."""
        return 0

    @property
    def target(self) -> str:
        """Which database this store writes to (backend and address, no credentials): journaled turns
        carry it, so a replay writes them only into the database they were meant for."""
        return self.backend

    @abstractmethod
    def run(self, name: str, params: Mapping[str, Any] | None = None, *, write: bool = False) -> list[Row]:
        """Run one named query in its own (retried) transaction."""

    @abstractmethod
    def write(self, fn: Callable[[Tx], T], *, undo: Undo | None = None) -> T:
        """Run ``fn`` in one write transaction: all or nothing, retried on transient errors. ``undo``
        serves backends without multi-statement rollback (see :class:`Undo`)."""

    @abstractmethod
    def read(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn`` in one read transaction."""

    def cypher(
        self,
        text: str,
        params: Mapping[str, Any] | None = None,
        *,
        write: bool = False,
        row_cap: int = 1000,
        timeout_s: float | None = None,
    ) -> CypherResult:
        """Run a user's own Cypher (read-only unless ``write``), at most ``row_cap`` rows, timed out after
        ``timeout_s`` (the backend's query timeout when None). After a write, the ``Active`` label of every
        memory item follows its status again (``admin/settle_active_label``), as graphbrain's own writes keep it."""
        if row_cap < 1:
            raise InputError(f"row_cap must be at least 1, got {row_cap}")
        result = self._cypher(text, params or {}, write, row_cap, timeout_s)
        if write:
            self.run("admin/settle_active_label", write=True)
        return result

    @abstractmethod
    def _cypher(
        self, text: str, params: Mapping[str, Any], write: bool, row_cap: int, timeout_s: float | None
    ) -> CypherResult:
        """The backend's half of :meth:`cypher` (arguments checked)."""

    @abstractmethod
    def ensure_schema(self, dimension: int, english_dimension: int = ENGLISH_DIMENSION) -> SchemaReport:
        """Create constraints and indexes; idempotent; waits for ONLINE. The recorded version is left as it
        is (upgrade steps move it, graphbrain/store/upgrade.py); a graph without a record gets one:
        ``SCHEMA_VERSION`` when it is empty, the oldest version when it holds data.

        ``dimension`` sizes the main model's vector indexes, ``english_dimension`` the English model's
        (``*_embedding_en``).
        """

    def _record_version(self, dimension: int, english_dimension: int = ENGLISH_DIMENSION) -> int:
        """The schema-version record after the schema statements ran (see ensure_schema)."""
        version = self.schema_version()
        if version is None:
            version = OLDEST_VERSION if self.holds_data() else SCHEMA_VERSION
        self.run(
            "schema/set_version",
            {"version": version, "dimension": dimension, "english_dimension": english_dimension},
            write=True,
        )
        return version

    def holds_data(self) -> bool:
        """Whether any graphbrain node is in the graph."""
        return bool(self.run("schema/has_data"))

    def _check_vector_dimensions(self, dimension: int, english_dimension: int = ENGLISH_DIMENSION) -> None:
        """Refuse to run with a vector index whose size is not the configured one."""
        for idx in self.index_status():
            dim = idx.get("dimension")
            english = "embedding_en" in (idx.get("properties") or [])
            want, key = (
                (english_dimension, "embedding.english.dimension") if english else (dimension, "embedding.dimension")
            )
            if idx.get("type") == "VECTOR" and dim is not None and int(dim) != want:
                raise SchemaError(
                    f"vector index {idx['name']} has dimension {dim} but {key} is {want}; {self.dimension_fix}"
                )

    # How often wait_for_indexes looks again when the backend cannot wait for indexes itself.
    index_poll_s = 0.2

    def wait_for_indexes(self, timeout_s: float = 120.0) -> None:
        """Return once every index (and constraint) is ONLINE; SchemaError names a failed or late one."""
        deadline = time.monotonic() + timeout_s
        while True:
            states = self._schema_states()
            failed = [i["name"] for i in states if i.get("state") == "FAILED"]
            if failed:
                raise SchemaError(f"indexes failed to build: {', '.join(failed)}")
            if all(i.get("state") == "ONLINE" for i in states):
                return
            remaining = deadline - time.monotonic()
            if remaining < 0:
                pending = [i["name"] for i in states if i.get("state") != "ONLINE"]
                raise SchemaError(f"indexes not ONLINE after {timeout_s:.0f}s: {', '.join(pending)}")
            self._await_indexes(remaining)

    def _schema_states(self) -> list[Row]:
        """Name and state of everything wait_for_indexes waits for."""
        return self.index_status()

    def _await_indexes(self, remaining_s: float) -> None:
        """Block until the indexes may have moved on (at most ``remaining_s``): a short sleep by default."""
        time.sleep(min(self.index_poll_s, remaining_s))

    @abstractmethod
    def schema_version(self) -> int | None:
        """The schema version recorded in the database, or None when there is none."""

    @abstractmethod
    def index_status(self) -> list[Row]:
        """Name, type, state and population of every index."""

    @abstractmethod
    def server_info(self) -> Row:
        """Server name, version and edition."""

    @abstractmethod
    def ping(self) -> bool:
        """True when the database answers."""

    @abstractmethod
    def drop_all_data(self) -> None:
        """Delete every node (tests and `forget --all-namespaces`); the schema stays."""

    @abstractmethod
    def close(self) -> None: ...
