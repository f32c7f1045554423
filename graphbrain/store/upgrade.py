"""In-place upgrades: an ordered registry of steps that bring an existing graph to the current schema.

    graphbrain init / graphbrain upgrade
        pending = steps above the recorded version
        → each pending step's ``before_schema`` queries (data a new constraint needs fixed first)
        → the schema (cypher/schema: constraints, indexes; idempotent)
        → each pending step's queries, in order; the recorded version becomes the step's version
          only once every query of the step has changed nothing more

A step names the schema version it brings the graph to, schema statements to run first (an index
whose definition changed is dropped), and a list of named queries
(``cypher/upgrade/<name>.cypher``, with ``.falkordb.cypher`` variants where the dialect differs). Each
query takes ``$batch`` and ``$namespace`` (null: every namespace), touches at most ``$batch`` nodes that
are not upgraded yet and returns one row ``changed``; it runs again until it changes 0. So a step killed
half-way is resumed by the next run (its version was not recorded), and a finished step costs one
empty batch per query. Data only Python can make (the analyzer's terms, a model's vectors) comes from
*fills*, functions run the same way until they change nothing. Adding a schema version is one entry in
:data:`STEPS` (plus its .cypher files): ``SCHEMA_VERSION`` is the last entry's version.

A restored backup of an older version gets the data steps above its version, scoped to its namespace
(:func:`run_data_steps`); the database's own version is not changed by that.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphbrain.config import ENGLISH_DIMENSION
from graphbrain.errors import SchemaError, StoreError

if TYPE_CHECKING:
    from graphbrain.embedding import Embedder
    from graphbrain.store.base import SchemaReport, Store

# A schema change that already took effect (a step resumed after it): dropped already, or added already.
_ALREADY = re.compile(r"not exist|no such|does not|unknown index|not found|already indexed", re.IGNORECASE)


@dataclass(frozen=True)
class UpgradeStep:
    """What brings a graph to schema ``version``: named queries run in batches until they change 0."""

    version: int
    description: str
    queries: tuple[str, ...] = ()
    # Queries that must run before cypher/schema is applied (e.g. duplicates a new constraint refuses).
    before_schema: tuple[str, ...] = ()
    # Schema statements run once before cypher/schema (an index whose definition changed is dropped
    # here and created anew by the schema); each must be safe to run again.
    schema_changes: tuple[str, ...] = ()
    # Data that needs Python (the analyzer, a model), as "module:function" run after ``queries``, each
    # like a query: ``fn(store, namespace=..., batch=..., models=...) -> changed``, again until 0.
    fills: tuple[str, ...] = ()


@dataclass(frozen=True)
class UpgradeModels:
    """The models a fill may need, loaded only when one asks (``graphbrain init`` on a current graph
    loads none)."""

    english: Callable[[], Embedder | None] = lambda: None


Fill = Callable[..., int]


# The registry, oldest first. Version 1 is the first release; a new version appends one entry here.
STEPS: tuple[UpgradeStep, ...] = (
    UpgradeStep(
        version=2,
        description="MemoryKey lock ids are unique (a constraint): duplicate lock nodes from before it are merged",
        before_schema=("upgrade/v2_merge_duplicate_key_locks",),
    ),
    UpgradeStep(
        version=3,
        description=(
            "relational recall: every message searchable by its speaker, day and the message before it "
            "(message_search replaces message_text), English vectors beside the multilingual ones, "
            "entities counting the turns that mention them"
        ),
        schema_changes=("upgrade/v3_message_search_index",),
        queries=("upgrade/v3_entity_turn_counts",),
        fills=("graphbrain.commit.searchable:upgrade_search_text", "graphbrain.commit.searchable:upgrade_english"),
    ),
    UpgradeStep(
        version=4,
        description=(
            "speed at scale: indexes for the newest items of a type (memory_recent) and a session's own items "
            "(memory_session), so compose and commit read what they need instead of sorting a namespace"
        ),
    ),
    UpgradeStep(
        version=5,
        description=(
            "speed at scale: active items carry the Active label, which Neo4j's memory_active_embedding* and "
            "memory_active_text indexes cover, so a search of the active set does not read past every "
            "superseded version"
        ),
        queries=("upgrade/v5_active_label",),
    ),
    UpgradeStep(
        version=6,
        description=(
            "speed at scale on embedded: a full-text index of the Active items' text, so an active-only search "
            "does not yield every superseded version's words (FalkorDB's full text has no top-k)"
        ),
    ),
)

# The version a graph written by a release before versioned upgrades is taken to have.
OLDEST_VERSION = 1
DEFAULT_BATCH = 2000
# A query that still changes rows after this many batches is not converging (it keeps matching what it
# already upgraded): stop with an error naming it rather than loop forever.
MAX_BATCHES = 1_000_000


@dataclass
class QueryProgress:
    step: int
    query: str
    changed: int = 0
    batches: int = 0


@dataclass
class UpgradeReport:
    from_version: int | None
    to_version: int
    steps: list[int] = field(default_factory=list)
    queries: list[QueryProgress] = field(default_factory=list)
    schema: SchemaReport | None = None

    @property
    def changed(self) -> int:
        return sum(q.changed for q in self.queries)


Progress = Callable[[QueryProgress], None]


def check_registry(steps: Sequence[UpgradeStep] = STEPS) -> None:
    """The registry is ordered and gap-free from version 2 on (each entry one version above the last)."""
    expected = OLDEST_VERSION + 1
    for step in steps:
        if step.version != expected:
            raise SchemaError(f"upgrade registry: expected a step to version {expected}, found {step.version}")
        expected += 1


def pending_steps(version: int | None, steps: Sequence[UpgradeStep] = STEPS) -> list[UpgradeStep]:
    """The steps a graph at ``version`` still needs (none for a graph with no version: it is empty)."""
    if version is None:
        return []
    return [s for s in steps if s.version > version]


def recorded_or_inferred_version(store: Store) -> int | None:
    """The recorded schema version; a graph holding data but no record is taken to be the oldest."""
    version = store.schema_version()
    if version is None and store.holds_data():
        return OLDEST_VERSION
    return version


def behind_message(version: int, current: int) -> str:
    """What Brain.from_config says while the graph is behind (the steps it would run, and the command)."""
    todo = "; ".join(f"v{s.version}: {s.description}" for s in pending_steps(version))
    return (
        f"the database schema is version {version}, this graphbrain needs {current}: "
        f"run `graphbrain upgrade` (or `graphbrain init`), which applies in place: {todo}"
    )


def run_query(
    store: Store,
    step: int,
    name: str,
    *,
    namespace: str | None,
    batch: int,
    progress: Progress | None = None,
) -> QueryProgress:
    """Run one upgrade query until it changes 0 rows; each batch is its own write transaction."""

    def one_batch() -> int:
        rows = store.run(name, {"batch": batch, "namespace": namespace}, write=True)
        if len(rows) != 1 or not isinstance(rows[0].get("changed"), int):
            raise SchemaError(f"upgrade query {name} must return one row with an integer `changed`, got {rows!r}")
        return int(rows[0]["changed"])

    return _until_unchanged(QueryProgress(step=step, query=name), one_batch, f"upgrade query {name}", "rows", progress)


def _until_unchanged(
    done: QueryProgress, one_batch: Callable[[], int], what: str, unit: str, progress: Progress | None
) -> QueryProgress:
    """Run ``one_batch`` until it changes nothing, counting into ``done``; at most MAX_BATCHES batches."""
    while True:
        changed = one_batch()
        done.batches += 1
        if changed == 0:
            return done
        done.changed += changed
        if progress is not None:
            progress(done)
        if done.batches >= MAX_BATCHES:
            raise SchemaError(f"{what} still changes {unit} after {done.batches} batches")


def _fill(path: str) -> Fill:
    module, _, name = path.partition(":")
    fn: Fill = getattr(importlib.import_module(module), name)
    return fn


def run_fill(
    store: Store,
    step: int,
    path: str,
    *,
    namespace: str | None,
    batch: int,
    models: UpgradeModels,
    progress: Progress | None = None,
) -> QueryProgress:
    """Run one fill until it changes 0 nodes, as ``run_query`` runs a query."""
    fn = _fill(path)
    return _until_unchanged(
        QueryProgress(step=step, query=path),
        lambda: int(fn(store, namespace=namespace, batch=batch, models=models)),
        f"upgrade fill {path}",
        "nodes",
        progress,
    )


def _schema_change(store: Store, name: str) -> None:
    try:
        store.run(name, write=True)
    except StoreError as e:
        # Already done (a step resumed after this statement ran): that is the state it was to reach.
        if not _ALREADY.search(str(e)):
            raise


def upgrade(
    store: Store,
    dimension: int,
    *,
    english_dimension: int = ENGLISH_DIMENSION,
    batch: int = DEFAULT_BATCH,
    progress: Progress | None = None,
    steps: Sequence[UpgradeStep] = STEPS,
    models: UpgradeModels | None = None,
) -> UpgradeReport:
    """Create the schema and run every pending step (see the module docstring); safe to run again."""
    if batch < 1:
        raise ValueError("batch must be >= 1")
    check_registry(steps)
    current = steps[-1].version if steps else OLDEST_VERSION
    start = recorded_or_inferred_version(store)
    if start is not None and start > current:
        raise SchemaError(
            f"the database schema is version {start}, newer than this graphbrain's {current}: upgrade graphbrain"
        )
    todo = pending_steps(start, steps)
    report = UpgradeReport(from_version=start, to_version=start if start is not None else current)
    models = models or UpgradeModels()
    for step in todo:
        for name in step.before_schema:
            report.queries.append(run_query(store, step.version, name, namespace=None, batch=batch, progress=progress))
        for name in step.schema_changes:
            _schema_change(store, name)
    report.schema = store.ensure_schema(dimension, english_dimension)
    for step in todo:
        for name in step.queries:
            report.queries.append(run_query(store, step.version, name, namespace=None, batch=batch, progress=progress))
        for path in step.fills:
            report.queries.append(
                run_fill(store, step.version, path, namespace=None, batch=batch, models=models, progress=progress)
            )
        store.run(
            "schema/set_version",
            {"version": step.version, "dimension": dimension, "english_dimension": english_dimension},
            write=True,
        )
        report.steps.append(step.version)
        report.to_version = step.version
    if start is None:
        report.to_version = store.schema_version() or current
    report.schema.version = report.to_version
    return report


def run_data_steps(
    store: Store,
    from_version: int,
    namespace: str,
    *,
    batch: int = DEFAULT_BATCH,
    progress: Progress | None = None,
    steps: Sequence[UpgradeStep] = STEPS,
    models: UpgradeModels | None = None,
) -> list[QueryProgress]:
    """The data queries of every step above ``from_version``, on one namespace only (a restored backup
    written by an older graphbrain); the database's schema and recorded version are left as they are."""
    out: list[QueryProgress] = []
    models = models or UpgradeModels()
    for step in pending_steps(from_version, steps):
        for name in (*step.before_schema, *step.queries):
            out.append(run_query(store, step.version, name, namespace=namespace, batch=batch, progress=progress))
        for path in step.fills:
            out.append(
                run_fill(store, step.version, path, namespace=namespace, batch=batch, models=models, progress=progress)
            )
    return out


__all__ = [
    "DEFAULT_BATCH",
    "UpgradeModels",
    "run_fill",
    "OLDEST_VERSION",
    "STEPS",
    "QueryProgress",
    "UpgradeReport",
    "UpgradeStep",
    "behind_message",
    "check_registry",
    "pending_steps",
    "recorded_or_inferred_version",
    "run_data_steps",
    "run_query",
    "upgrade",
]
