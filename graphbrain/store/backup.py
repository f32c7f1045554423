"""Backup and restore of one namespace (``graphbrain backup`` / ``graphbrain restore``), on either backend.

The file is gzip'd JSON lines, written and read as a stream (no part of it is held in memory whole):

    {"format": "graphbrain-backup", "format_version": 1, "schema_version": 2, "namespace": ..., ...}
    {"n": ["Memory", "Task"], "p": {...}}                  every node, by primary label then id
    {"e": "DERIVED_FROM", "a": id, "al": label, "b": id, "bl": label, "p": {...}}   every edge inside it
    {"end": true, "labels": {...}, "edges": {...}, "plans": [...]}               counts and sample plans

Everything of the namespace is in it: turns, messages, tool calls, refs, memory with its history edges,
entities, documents, sections and chunks, vectors, commit and context traces, summary versions, key
locks. Derived data stays out (the embedded store's full-text copies ``*_fts``, the ``FtsPending``
and ``Active`` labels); the destination derives it again. Values are typed where JSON is not: ``{"$dt": ISO-8601 UTC}``
for datetimes; vectors are float32, which is what both backends' vector indexes hold, so a vector
survives every round trip bit for bit. Keys are sorted and nodes and edges ordered, so backing up a
restored namespace gives the same lines again.

A restore checks the file (format, schema version not newer than this graphbrain's, the vector
dimension, the closing line: a truncated file is refused), refuses a namespace that holds data unless
told to replace it, writes nodes then edges in batches, verifies counts per label and edge type against
the closing line and runs the sample plans recorded at backup time (semantic plans must return the same
evidence; exact and relational are reported). A backup of an older schema gets the upgrade's data
steps on the restored namespace. Restoring under another name rewrites the namespace and every id:
ids graphbrain derives from (namespace, natural key) are derived again for the new name (checked by
deriving the old one first); the others get a new id derived from the old; every property or JSON
value naming an old id names the new one.
"""

from __future__ import annotations

import array
import gzip
import hashlib
import io
import json
import logging
import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO, Any

from graphbrain.errors import GraphbrainError, StoreError
from graphbrain.ids import stable_id
from graphbrain.store.base import SCHEMA_VERSION, Row, Store
from graphbrain.store.migrate import (
    IDENTICAL_MODES,
    SKIP_LABELS,
    _copyable,
    _identifier,
    _primary,
    _write_nodes,
    count_differences,
    count_edges,
    count_labels,
    node_pages,
)
from graphbrain.store.upgrade import UpgradeModels

log = logging.getLogger(__name__)

FORMAT = "graphbrain-backup"
FORMAT_VERSION = 1
PAGE = 500
VECTOR_KEYS = frozenset({"embedding"})
# Properties holding JSON text whose values may name ids or the namespace (rewritten on a rename).
_JSON_SUFFIXES = ("_json",)
_JSON_KEYS = frozenset({"result", "request", "plan", "package"})


class BackupError(GraphbrainError):
    """A backup file is unreadable, truncated, of another format or newer than this graphbrain."""


# ------------------------------------------------------------------------------------------------ values
def _encode(value: Any, key: str = "") -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return {"$dt": aware.astimezone(UTC).isoformat(timespec="microseconds")}
    if isinstance(value, date):
        return {"$dt": datetime(value.year, value.month, value.day, tzinfo=UTC).isoformat(timespec="microseconds")}
    if isinstance(value, (list, tuple)):
        if key in VECTOR_KEYS:
            return array.array("f", value).tolist()  # float32: what the vector indexes hold
        return [_encode(v) for v in value]
    raise BackupError(f"cannot back up property {key!r}: a value of type {type(value).__name__}")


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$dt"}:
            return datetime.fromisoformat(value["$dt"])
        raise BackupError(f"unknown typed value in the backup: {sorted(value)}")
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _props(props: Row) -> dict[str, Any]:
    return {k: _encode(v, k) for k, v in sorted(props.items()) if _copyable(k) and v is not None}


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


# ------------------------------------------------------------------------------------------------ backup
@dataclass
class BackupReport:
    namespace: str
    path: str
    schema_version: int
    nodes: int = 0
    edges: int = 0
    labels: dict[str, int] = field(default_factory=dict)
    edge_types: dict[str, int] = field(default_factory=dict)
    plans: int = 0
    # False when the namespace changed while it was read (a write went on): the file holds a mix.
    consistent: bool = True

    def summary(self) -> str:
        lines = [
            f"backup of namespace {self.namespace} (schema {self.schema_version}) → {self.path}: "
            f"{self.nodes} nodes, {self.edges} edges, {self.plans} sample plans"
        ]
        if not self.consistent:
            lines.append("  warning: the namespace changed while it was read; back it up again when writes are quiet")
        return "\n".join(lines)


def _edges(store: Store, namespace: str, label: str, ids: list[str]) -> list[dict[str, Any]]:
    if not ids:
        return []
    rows = store.cypher(
        store.queries.render("migrate/out_edges", label=_identifier(label)),
        {"ids": ids, "ns": namespace},
        row_cap=10_000_000,
    ).rows
    out = [
        {
            "e": str(r["type"]),
            "a": r["a"],
            "al": label,
            "b": r["b"],
            "bl": _primary(r["b_labels"]),
            "p": _props(r["props"]),
        }
        for r in rows
    ]
    out.sort(key=lambda e: (e["a"], e["e"], e["b"], json.dumps(e["p"], sort_keys=True, ensure_ascii=False)))
    return out


def _open_write(path: str) -> IO[str]:
    """Gzip'd text to stdout ("-") or to ``<path>.partial`` (renamed over ``path`` once complete, so a
    failed backup never replaces a good one)."""
    if path == "-":
        import sys

        raw = gzip.GzipFile(fileobj=sys.stdout.buffer, mode="wb", mtime=0)
    else:
        raw = gzip.GzipFile(filename=path + ".partial", mode="wb", mtime=0)
    return io.TextIOWrapper(raw, encoding="utf-8", newline="\n")


def _finish_write(path: str) -> None:
    if path != "-":
        partial = Path(path + ".partial")
        with open(partial, "rb") as f:
            os.fsync(f.fileno())
        os.replace(partial, path)


def backup(
    store: Store,
    namespace: str,
    path: str,
    *,
    dimension: int,
    plans: Callable[[Store], dict[str, list[str]]] | None = None,
    page: int = PAGE,
    created_at: datetime | None = None,
) -> BackupReport:
    """Write ``namespace`` of ``store`` to ``path`` ("-": stdout). ``plans(store)`` runs the sample plans
    (``{"<mode>:<text>": [evidence ids]}``) whose answers the file records for the restore to compare."""
    version = store.schema_version()
    if version is None:
        raise BackupError("the database has no graphbrain schema: nothing to back up (run `graphbrain init`)")
    before = count_labels(store, namespace)
    if not before:
        raise BackupError(f"namespace {namespace!r} holds nothing to back up")
    report = BackupReport(namespace=namespace, path=path, schema_version=version)
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_version": version,
        "namespace": namespace,
        "dimension": dimension,
        "source_backend": store.backend,
        "created_at": (created_at or datetime.now(UTC)).isoformat(timespec="seconds"),
    }
    labels: dict[str, int] = defaultdict(int)
    edge_types: dict[str, int] = defaultdict(int)
    pages: list[tuple[str, list[str]]] = []
    with _open_write(path) as out:
        out.write(_line(header))
        for label, rows in node_pages(store, namespace, count_labels(store, namespace), page):
            for r in rows:
                node_labels = sorted(set(r["labels"]) - SKIP_LABELS)
                out.write(_line({"n": node_labels, "p": _props(r["props"])}))
                for lab in node_labels:
                    labels[lab] += 1
            report.nodes += len(rows)
            pages.append((label, [r["props"]["id"] for r in rows]))
        for label, ids in pages:
            for start in range(0, len(ids), page):
                for e in _edges(store, namespace, label, ids[start : start + page]):
                    out.write(_line(e))
                    edge_types[e["e"]] += 1
                    report.edges += 1
        recorded = []
        if plans is not None:
            for key, ids in plans(store).items():
                mode, _, text = key.partition(":")
                # Sorted: compared as a set (the order of equal scores is the engine's own).
                recorded.append({"mode": mode, "text": text, "ids": sorted(ids)})
        report.plans = len(recorded)
        report.labels, report.edge_types = dict(labels), dict(edge_types)
        out.write(_line({"end": True, "labels": report.labels, "edges": report.edge_types, "plans": recorded}))
    _finish_write(path)
    after = count_labels(store, namespace)
    report.consistent = before == after == report.labels
    log.info("%s", report.summary())
    return report


# ------------------------------------------------------------------------------------------------ reading
@dataclass
class BackupFile:
    """A backup on disk: its header and closing line, read up front; nodes and edges streamed."""

    path: Path
    header: dict[str, Any]
    footer: dict[str, Any]

    @property
    def namespace(self) -> str:
        return str(self.header["namespace"])

    @property
    def schema_version(self) -> int:
        return int(self.header["schema_version"])

    def records(self) -> Iterator[dict[str, Any]]:
        """Every node and edge line, in file order."""
        with gzip.open(self.path, "rt", encoding="utf-8") as f:
            next(f)
            for raw in f:
                rec = json.loads(raw)
                if rec.get("end"):
                    return
                yield rec


def open_backup(path: str | Path) -> BackupFile:
    """Check the file whole (format, version, closing line) before anything is written from it."""
    p = Path(path)
    if not p.is_file():
        raise BackupError(f"{path}: no such backup file")
    header: dict[str, Any] | None = None
    footer: dict[str, Any] | None = None
    try:
        with gzip.open(p, "rt", encoding="utf-8") as f:
            for n, raw in enumerate(f):
                rec = json.loads(raw)
                if n == 0:
                    header = rec
                    if rec.get("format") != FORMAT:
                        raise BackupError(f"{path}: not a graphbrain backup (no {FORMAT} header)")
                elif rec.get("end"):
                    footer = rec
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BackupError(f"{path}: unreadable backup ({e}); is it complete?") from e
    if header is None:
        raise BackupError(f"{path}: empty backup file")
    if int(header.get("format_version", 0)) > FORMAT_VERSION:
        raise BackupError(
            f"{path}: backup format {header.get('format_version')} is newer than this graphbrain reads "
            f"({FORMAT_VERSION}): upgrade graphbrain"
        )
    if footer is None:
        raise BackupError(f"{path}: the backup has no closing line: it is truncated (the backup did not finish)")
    if int(header["schema_version"]) > SCHEMA_VERSION:
        raise BackupError(
            f"{path}: written at schema version {header['schema_version']}, newer than this graphbrain's "
            f"{SCHEMA_VERSION}: upgrade graphbrain"
        )
    return BackupFile(p, header, footer)


# ------------------------------------------------------------------------------------------------ renaming
_PREFIXED = re.compile(r"^([a-z]+)_[0-9a-f]{24}$")
_ID_TOKEN = re.compile(r"\b[a-z]+_[0-9a-f]{24}\b")


class Renamer:
    """Old namespace and ids → new ones (see the module docstring); identity when the name is unchanged."""

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new
        self.ids: dict[str, str] = {}

    @property
    def active(self) -> bool:
        return self.old != self.new

    def learn(self, labels: list[str], props: dict[str, Any]) -> None:
        """Pass one: decide the new id of a node (nodes a new id depends on come earlier in the file)."""
        old_id = props.get("id")
        if not self.active or not isinstance(old_id, str):
            return
        self.ids[old_id] = self._new_id(old_id, labels, props)

    def _derived(self, ns: str, kind: str, p: dict[str, Any], parent: Callable[[str], str]) -> str | None:
        """The id graphbrain derives for this node in namespace ``ns`` (None: not derived from ns)."""
        get = p.get
        if kind == "ses":
            return stable_id("ses", ns, get("session_id"))
        if kind == "turn":
            return stable_id("turn", ns, get("session_id"), get("turn_id"))
        if kind == "msg":
            return stable_id("msg", ns, get("session_id"), get("turn_id"), get("message_id"))
        if kind == "ref":
            return stable_id("ref", ns, get("type"), get("uri"))
        if kind == "ent":
            return stable_id("ent", ns, "canonical", get("canonical"))
        if kind == "doc":
            return stable_id("doc", ns, get("source_uri"))
        if kind == "sec":
            return stable_id("sec", ns, parent(str(get("document_id"))), get("section_id"))
        if kind == "chunk":
            doc = parent(str(get("document_id")))
            return stable_id("chunk", ns, doc, get("chunk_index"), get("content_hash"))
        if kind in ("tag", "topic"):
            return stable_id(kind, ns, get("name"))
        if kind == "sum":
            return stable_id("sum", ns, get("session_id"), get("version"))
        return None

    def _new_id(self, old_id: str, labels: list[str], props: dict[str, Any]) -> str:
        if old_id.startswith(self.old + "|"):  # MemoryKey locks: <namespace>|<key>
            return self.new + old_id[len(self.old) :]
        m = _PREFIXED.match(old_id)
        if m:
            kind = m.group(1)
            # Derived again only when deriving the old id gives the old id back (the rule is the one used).
            if self._derived(self.old, kind, props, lambda x: x) == old_id:
                derived = self._derived(self.new, kind, props, lambda x: self.ids.get(x, x))
                if derived is not None:
                    return derived
            return f"{kind}_{hashlib.sha1(f'{self.new}|{old_id}'.encode()).hexdigest()[:24]}"
        return stable_id("restored", self.new, old_id)

    def value(self, key: str, value: Any) -> Any:
        """A property value with the old namespace and ids replaced."""
        if not self.active:
            return value
        if key == "namespace" and value == self.old:
            return self.new
        if isinstance(value, str):
            if value.startswith(self.old + "|"):
                return self.new + value[len(self.old) :]
            if (key.endswith(_JSON_SUFFIXES) or key in _JSON_KEYS) and value[:1] in "{[":
                try:
                    parsed = json.loads(value)
                except ValueError:
                    return value
                return json.dumps(self._walk(parsed), ensure_ascii=False, sort_keys=True)
            return self.text(value)
        if isinstance(value, list) and key not in VECTOR_KEYS:
            return [self.value("", v) for v in value]
        return value

    def _walk(self, obj: Any) -> Any:
        if isinstance(obj, dict):
            return {k: (self.new if k == "namespace" and v == self.old else self._walk(v)) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self._walk(v) for v in obj]
        if isinstance(obj, str):
            return self.text(obj)
        return obj

    def text(self, value: str) -> str:
        """A string with every old id in it replaced (evidence ids embed node ids: ``memory:mem_…``)."""
        if value in self.ids:
            return self.ids[value]
        if "_" not in value:
            return value
        return _ID_TOKEN.sub(lambda m: self.ids.get(m.group(0), m.group(0)), value)

    def props(self, props: dict[str, Any]) -> dict[str, Any]:
        return {k: self.value(k, v) for k, v in props.items()}


# ------------------------------------------------------------------------------------------------ restore
CROSS_BACKEND_OVERLAP = 0.8  # semantic sample plans restored into the other backend: at least this overlap


@dataclass
class RestoreReport:
    namespace: str
    source_namespace: str
    schema_version: int
    nodes: int = 0
    edges: int = 0
    replaced: int = 0
    expected_labels: dict[str, int] = field(default_factory=dict)
    labels: dict[str, int] = field(default_factory=dict)
    expected_edges: dict[str, int] = field(default_factory=dict)
    edge_types: dict[str, int] = field(default_factory=dict)
    plans: list[dict[str, Any]] = field(default_factory=list)
    upgraded: list[dict[str, Any]] = field(default_factory=list)
    cross_backend: bool = False  # written by one backend, restored into the other

    @property
    def counts_match(self) -> bool:
        return self.labels == self.expected_labels and self.edge_types == self.expected_edges

    @property
    def retrieval_matches(self) -> bool:
        """The sample plans answer as they did at backup time. A backup of an older schema was answered
        by an older graphbrain, whose retrieval ranked differently: compared for information only."""
        if self.schema_version < SCHEMA_VERSION:
            return True
        # Across engines the same float32 vectors score a hair apart (each index computes the cosine
        # its own way), which can swap two near-equal items at the cut of a short list.
        floor = CROSS_BACKEND_OVERLAP if self.cross_backend else 1.0
        return all(p["identical"] or p["overlap"] >= floor for p in self.plans if p["mode"] in IDENTICAL_MODES)

    @property
    def ok(self) -> bool:
        return self.counts_match and self.retrieval_matches

    def summary(self) -> str:
        lines = [
            f"restored namespace {self.source_namespace} as {self.namespace} (backup schema {self.schema_version}): "
            f"{self.nodes} nodes, {self.edges} edges"
            + (f"; replaced {self.replaced} nodes that were there" if self.replaced else ""),
            f"counts per label and edge type: {'equal to the backup' if self.counts_match else 'DIFFERENT'}",
        ]
        lines += count_differences(
            ("backup", self.expected_labels, self.expected_edges), ("restored", self.labels, self.edge_types)
        )
        if self.plans and self.schema_version < SCHEMA_VERSION:
            lines.append(f"  sample plans answered by schema {self.schema_version}'s retrieval, shown for information:")
        for p in self.plans:
            lines.append(
                f"  {p['mode']:<10} {p['text'][:50]!r}: {'same' if p['identical'] else 'differs'} "
                f"(overlap {p['overlap']:.2f})"
            )
        for u in self.upgraded:
            lines.append(f"  upgrade v{u['step']} {u['query']}: {u['changed']} changed")
        return "\n".join(lines)


def _write_edges(dst: Store, batch: list[dict[str, Any]]) -> None:
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for e in batch:
        groups[(e["e"], e["al"], e["bl"])].append({"a": e["a"], "b": e["b"], "props": e["p"]})
    for (rel, a_label, b_label), rows in groups.items():
        text = dst.queries.render(
            "migrate/write_edges", a_label=_identifier(a_label), b_label=_identifier(b_label), rel=_identifier(rel)
        )
        dst.cypher(text, {"rows": rows}, write=True)


def restore(
    dst: Store,
    path: str | Path,
    *,
    dimension: int,
    namespace: str | None = None,
    replace: bool = False,
    plans: Callable[[Store, str, list[tuple[str, str]]], dict[str, list[str]]] | None = None,
    forget_namespace: Callable[[Store, str], int] | None = None,
    page: int = PAGE,
    models: UpgradeModels | None = None,
) -> RestoreReport:
    """Load a backup into ``dst`` (as ``namespace``, default the backup's) and verify it.

    ``plans(store, namespace, [(mode, text)])`` runs the recorded sample plans on the restored namespace;
    ``forget_namespace(store, namespace)`` deletes what a ``replace`` replaces (returns the nodes deleted).
    """
    from graphbrain.store.upgrade import run_data_steps

    bf = open_backup(path)
    target = namespace or bf.namespace
    if int(bf.header.get("dimension") or dimension) != dimension:
        raise BackupError(
            f"{path}: its vectors have dimension {bf.header['dimension']} but embedding.dimension is {dimension}: "
            "restore it with the embedding model it was written with"
        )
    dst.ensure_schema(dimension)
    report = RestoreReport(namespace=target, source_namespace=bf.namespace, schema_version=bf.schema_version)
    report.cross_backend = bf.header.get("source_backend", dst.backend) != dst.backend
    existing = count_labels(dst, target)
    if existing:
        if not replace:
            raise BackupError(
                f"namespace {target!r} already holds {sum(existing.values())} labelled nodes: restore under another "
                "--namespace, or pass --replace to delete it first"
            )
        if forget_namespace is None:
            raise BackupError("replace needs a way to delete the namespace")
        report.replaced = forget_namespace(dst, target)
    renamer = Renamer(bf.namespace, target)
    if renamer.active:
        for rec in bf.records():
            if "n" in rec:
                renamer.learn(rec["n"], rec["p"])

    nodes: list[Row] = []
    edges: list[dict[str, Any]] = []
    for rec in bf.records():
        if "n" in rec:
            props = renamer.props({k: _decode(v) for k, v in rec["p"].items()})
            nodes.append({"labels": rec["n"], "props": props})
            if len(nodes) >= page:
                report.nodes += _write_nodes(dst, nodes)
                nodes = []
        else:
            if nodes:
                report.nodes += _write_nodes(dst, nodes)
                nodes = []
            a, b = renamer.ids.get(rec["a"], rec["a"]), renamer.ids.get(rec["b"], rec["b"])
            edges.append({**rec, "a": a, "b": b, "p": renamer.props({k: _decode(v) for k, v in rec["p"].items()})})
            if len(edges) >= page:
                _write_edges(dst, edges)
                report.edges += len(edges)
                edges = []
    if nodes:
        report.nodes += _write_nodes(dst, nodes)
    if edges:
        _write_edges(dst, edges)
        report.edges += len(edges)

    report.expected_labels = {str(k): int(v) for k, v in bf.footer.get("labels", {}).items()}
    report.expected_edges = {str(k): int(v) for k, v in bf.footer.get("edges", {}).items()}
    report.labels = count_labels(dst, target)
    report.edge_types = count_edges(dst, target)
    if bf.schema_version < SCHEMA_VERSION:
        # Upgraded before it is queried: the sample plans search the fields the current schema has.
        for q in run_data_steps(dst, bf.schema_version, target, models=models):
            report.upgraded.append({"step": q.step, "query": q.query, "changed": q.changed})
    recorded = bf.footer.get("plans") or []
    if plans is not None and recorded:
        got = plans(dst, target, [(str(p["mode"]), str(p["text"])) for p in recorded])
        for p in recorded:
            want = [renamer.text(str(i)) for i in p["ids"]]
            have = got.get(f"{p['mode']}:{p['text']}", [])
            union = set(want) | set(have)
            report.plans.append(
                {
                    "mode": p["mode"],
                    "text": p["text"],
                    "identical": set(want) == set(have),
                    "overlap": 1.0 if not union else len(set(want) & set(have)) / len(union),
                }
            )
    log.info("%s", report.summary())
    return report


# ------------------------------------------------------------------------------------------------ commands
def _english(config: Any) -> Callable[[], Any]:
    from graphbrain.embedding import get_embedder

    cfg = config.embedding.english_model()
    return lambda: get_embedder(cfg) if cfg is not None else None


def _plan_runner(config: Any, embedder_factory: Callable[[], Any]) -> Callable[..., dict[str, list[str]]]:
    from graphbrain.retrieve.executor import Executor

    def run(store: Store, namespace: str, plans: list[tuple[str, str]]) -> dict[str, list[str]]:
        executor = Executor(config, store, embedder_factory, _english(config))
        out: dict[str, list[str]] = {}
        for mode, text in plans:
            pack = executor.retrieve({"version": "0.1", "queries": [{"text": text, "mode": mode}]}, namespace=namespace)
            out[f"{mode}:{text}"] = [e.id for e in pack.evidences]
        return out

    return run


def _forget(store: Store, namespace: str) -> int:
    from graphbrain.admin.memory import forget

    deleted = forget(store, namespace, whole_namespace=True)
    if count_labels(store, namespace):
        raise StoreError(f"namespace {namespace!r} was not deleted completely; run the restore again")
    return int(deleted["total"])


def main_backup(config_path: str | None, namespace: str | None, output: str, *, samples: int = 8) -> BackupReport:
    """``graphbrain backup --namespace NS -o FILE``."""
    from graphbrain.config import load_config
    from graphbrain.embedding import get_embedder
    from graphbrain.store import open_store
    from graphbrain.store.migrate import SAMPLE_MODES

    config = load_config(config_path)
    ns = namespace or config.namespace
    store = open_store(config.storage)
    try:
        runner = _plan_runner(config, lambda: get_embedder(config.embedding))
        texts = [str(r["text"]) for r in store.run("migrate/sample_texts", {"ns": ns, "n": samples})]
        todo = [(mode, t) for t in texts for mode in SAMPLE_MODES]
        return backup(store, ns, output, dimension=config.embedding.dimension, plans=lambda s: runner(s, ns, todo))
    finally:
        store.close()


def main_restore(
    config_path: str | None, path: str, namespace: str | None, *, replace: bool, backend: str | None
) -> RestoreReport:
    """``graphbrain restore FILE [--namespace NEW] [--replace] [--to BACKEND]``."""
    from graphbrain.config import load_config
    from graphbrain.embedding import get_embedder
    from graphbrain.store import open_store

    config = load_config(config_path)
    storage = config.storage if backend is None else config.storage.model_copy(update={"backend": backend})
    store = open_store(storage)
    try:
        runner = _plan_runner(config, lambda: get_embedder(config.embedding))
        return restore(
            store,
            path,
            dimension=config.embedding.dimension,
            namespace=namespace,
            replace=replace,
            plans=runner,
            forget_namespace=_forget,
            models=UpgradeModels(english=_english(config)),
        )
    finally:
        store.close()


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "BackupError",
    "BackupFile",
    "BackupReport",
    "Renamer",
    "RestoreReport",
    "backup",
    "main_backup",
    "main_restore",
    "open_backup",
    "restore",
]
