"""The Neo4j implementation of the store boundary.

Driver errors are mapped once, here: unreachable → StoreUnavailable, a write in a READ transaction →
ReadOnlyViolation, anything else → StoreError. Managed transactions (``execute_read``/``execute_write``)
retry transient errors with the driver's back-off; every transaction has a timeout. The driver's
"will be retried" warnings go to the debug log (a retried deadlock is routine under concurrent writers,
not something for the user's terminal); ``retries()`` counts them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase, unit_of_work
from neo4j import exceptions as nx

from graphbrain.config import Neo4jConfig
from graphbrain.errors import ConstraintViolation, ReadOnlyViolation, StoreError, StoreUnavailable
from graphbrain.store.base import ENGLISH_DIMENSION, CypherResult, Row, SchemaReport, Store, Tx, Undo
from graphbrain.store.queries import QueryLibrary

T = TypeVar("T")

SCHEMA_FILES = ("schema/constraints", "schema/indexes")
# Neo4j's zone offsets (java.time.ZoneOffset) span ±18:00 in whole seconds; Python's span ±23:59:59.999999.
MAX_OFFSET = timedelta(hours=18)


class _RetriesToDebug(logging.Filter):
    """The driver logs each retried transaction as a WARNING; it is routine, so it becomes a DEBUG record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.WARNING and "will be retried" in record.getMessage():
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        return True


_DRIVER_LOG = logging.getLogger("neo4j.session")  # where the driver logs its retries
if not any(isinstance(f, _RetriesToDebug) for f in _DRIVER_LOG.filters):
    _DRIVER_LOG.addFilter(_RetriesToDebug())


def to_param(value: Any) -> Any:
    """Python values → what Neo4j can hold: an aware datetime whose offset Neo4j cannot represent (beyond
    ±18:00, or a fraction of a second) goes in as the same instant in UTC; a Bolt RUN carrying one
    fails on the server as "Request.InvalidFormat: No such statement"."""
    if isinstance(value, datetime):
        offset = value.utcoffset()
        if offset is not None and (abs(offset) > MAX_OFFSET or offset.microseconds):
            return value.astimezone(UTC)
        return value
    if isinstance(value, Mapping):
        return {k: to_param(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if value and isinstance(value[0], (float, int, str)) and isinstance(value[-1], (float, int, str)):
            return value  # an embedding or a list of names: nothing to convert (skips a walk of the floats)
        return [to_param(v) for v in value]
    return value


_SCALARS = (str, int, float, bool, type(None))


def plain(value: Any) -> Any:
    """Driver values → plain Python (neo4j.time → datetime, nodes → dicts)."""
    # Scalars first: a retrieval returns thousands of them per call, and most rows hold nothing else.
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, dict):
        return {k: v if isinstance(v, _SCALARS) else plain(v) for k, v in value.items()}
    if isinstance(value, list):
        if value and isinstance(value[0], float) and isinstance(value[-1], float):
            return value  # an embedding: nothing to convert
        return [v if isinstance(v, _SCALARS) else plain(v) for v in value]
    if hasattr(value, "to_native"):
        return value.to_native()
    if isinstance(value, neo4j.graph.Node):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, neo4j.graph.Relationship):
        return {"type": value.type, **{k: plain(v) for k, v in value.items()}}
    if isinstance(value, neo4j.graph.Path):
        return [plain(n) for n in value.nodes]
    return value


def _map_error(e: Exception) -> StoreError:
    if isinstance(e, (nx.ServiceUnavailable, nx.SessionExpired)):
        return StoreUnavailable(f"Neo4j is unavailable: {e}")
    if isinstance(e, nx.AuthError):
        return StoreUnavailable(f"Neo4j refused the credentials (storage.neo4j.user/password): {e}")
    if isinstance(e, nx.ClientError) and (
        "write" in (e.code or "").lower() or "AccessMode" in (e.code or "") or "ForbiddenOnReadOnly" in str(e)
    ):
        # Each surface says its own way to write (the CLI's --write, HTTP's "write": true).
        return ReadOnlyViolation("this Cypher writes to the graph, but it ran in a read-only transaction")
    if isinstance(e, nx.TransientError):
        # A deadlock the driver's retries did not outlast, a database still starting: the same write
        # succeeds later, so a journaled turn must stay pending for replay, never be marked failed.
        return StoreUnavailable(f"Neo4j could not finish the transaction for now: {e.code}: {e.message}")
    if isinstance(e, nx.ConstraintError):
        return ConstraintViolation(f"{e.code}: {e.message}")
    if isinstance(e, nx.Neo4jError):
        return StoreError(f"{e.code}: {e.message}")
    return StoreError(str(e))


class _Tx:
    def __init__(self, tx: neo4j.ManagedTransaction, queries: QueryLibrary) -> None:
        self._tx = tx
        self._queries = queries

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        result = self._tx.run(self._queries.get(name), to_param(dict(params or {})))
        # The raw values, converted by ``plain``: Record.data() walks every value through the driver's
        # own transformer first, a quarter of a compose_context's time on rows of scalars.
        keys = result.keys()
        return [plain(dict(zip(keys, r, strict=True))) for r in result]


class Neo4jStore(Store):
    backend = "neo4j"
    dimension_fix = "drop it (graphbrain init --recreate-vector-indexes) or fix the config"
    unreachable_fix = "run `make neo4j-start`"

    def supported_server(self, info: Row) -> bool:
        return str(info.get("version", "?")).startswith("5.")  # the Cypher here is Neo4j 5's

    def __init__(self, cfg: Neo4jConfig, queries: QueryLibrary | None = None) -> None:
        self.cfg = cfg
        self.queries = queries or QueryLibrary(backend="neo4j")
        self._driver = GraphDatabase.driver(
            cfg.uri,
            auth=(cfg.user, cfg.password.get_secret_value()),
            connection_timeout=cfg.connection_timeout_s,
            connection_acquisition_timeout=cfg.connection_timeout_s,
            max_transaction_retry_time=cfg.max_retry_time_s,
            notifications_min_severity="OFF",
        )
        self._attempts = threading.local()  # per thread: a commit's retries are its own thread's
        # Every transaction here opens its own session; one bookmark manager chains them, so that on a
        # cluster (neo4j:// routing reads to followers) a read sees every write this process made before
        # it (a commit's pre-read, the next compose), not only those its follower has caught up with.
        self._bookmarks = GraphDatabase.bookmark_manager()

    @property
    def target(self) -> str:
        return f"neo4j {self.cfg.uri} database={self.cfg.database}"

    # ----------------------------------------------------------- transactions
    def _session(self, access: str) -> neo4j.Session:
        return self._driver.session(
            database=self.cfg.database, default_access_mode=access, bookmark_manager=self._bookmarks
        )

    def _execute(self, fn: Callable[[Tx], T], write: bool) -> T:
        timeout = self.cfg.query_timeout_s

        first = True

        @unit_of_work(timeout=timeout)
        def work(tx: neo4j.ManagedTransaction) -> T:
            nonlocal first
            if not first:  # the driver runs the function again after a transient error
                self._attempts.retries = self.retries() + 1
            first = False
            return fn(_Tx(tx, self.queries))

        try:
            with self._session(neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS) as s:
                return s.execute_write(work) if write else s.execute_read(work)
        except StoreError:
            raise
        except (nx.DriverError, nx.Neo4jError) as e:
            raise _map_error(e) from e

    def bookmarks(self) -> list[str]:
        """The bookmarks this store's next transaction waits for (the last write's, once there was one)."""
        return sorted(self._bookmarks.get_bookmarks())

    def retries(self) -> int:
        return int(getattr(self._attempts, "retries", 0))

    def write(self, fn: Callable[[Tx], T], *, undo: Undo | None = None) -> T:
        # A Neo4j transaction rolls back as a whole: no undo is needed.
        return self._execute(fn, write=True)

    def read(self, fn: Callable[[Tx], T]) -> T:
        return self._execute(fn, write=False)

    def run(self, name: str, params: Mapping[str, Any] | None = None, *, write: bool = False) -> list[Row]:
        return self._execute(lambda tx: tx.run(name, params), write=write)

    def _cypher(
        self, text: str, params: Mapping[str, Any], write: bool, row_cap: int, timeout_s: float | None
    ) -> CypherResult:
        timeout = timeout_s or self.cfg.query_timeout_s

        @unit_of_work(timeout=timeout)
        def work(tx: neo4j.ManagedTransaction) -> CypherResult:
            result = tx.run(text, to_param(dict(params)))
            columns = list(result.keys())
            rows: list[Row] = []
            truncated = False
            for rec in result:
                if len(rows) >= row_cap:
                    truncated = True
                    break
                rows.append(plain(rec.data()))
            result.consume()
            return CypherResult(columns=columns, rows=rows, truncated=truncated)

        try:
            with self._session(neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS) as s:
                return s.execute_write(work) if write else s.execute_read(work)
        except (nx.DriverError, nx.Neo4jError) as e:
            raise _map_error(e) from e

    # ----------------------------------------------------------- schema
    def ensure_schema(self, dimension: int, english_dimension: int = ENGLISH_DIMENSION) -> SchemaReport:
        statements: list[str] = []
        for name in SCHEMA_FILES:
            statements += self.queries.statements(name, dimension=dimension, english_dimension=english_dimension)
        try:
            with self._session(neo4j.WRITE_ACCESS) as s:
                for stmt in statements:
                    s.run(stmt).consume()
        except (nx.DriverError, nx.Neo4jError) as e:
            raise _map_error(e) from e
        self._check_vector_dimensions(dimension, english_dimension)
        version = self._record_version(dimension, english_dimension)
        self.wait_for_indexes()
        return SchemaReport(version=version, statements=len(statements), indexes=self.index_status())

    def _await_indexes(self, remaining_s: float) -> None:
        # Neo4j waits itself (db.awaitIndexes), within one transaction's timeout; it raises when an index
        # failed or time ran out, and wait_for_indexes then reads the states and says which.
        seconds = max(1, int(min(remaining_s, self.cfg.query_timeout_s - 1)))
        try:
            self.run("schema/await_indexes", {"timeout": seconds})
        except StoreError:
            time.sleep(min(self.index_poll_s, remaining_s))

    def schema_version(self) -> int | None:
        rows = self.run("schema/get_version")
        return int(rows[0]["version"]) if rows else None

    def index_status(self) -> list[Row]:
        return self.run("schema/index_status")

    def server_info(self) -> Row:
        rows = self.run("schema/server_info")
        return rows[0] if rows else {}

    def ping(self) -> bool:
        try:
            self._driver.verify_connectivity()
            return True
        except (nx.DriverError, nx.Neo4jError):
            return False

    def drop_all_data(self) -> None:
        """Delete every node (tests and `forget --all-namespaces`); schema stays."""
        self.run("admin/drop_all_data", write=True)

    def close(self) -> None:
        self._driver.close()
