"""Copy one namespace from one store to another (``graphbrain migrate --from embedded --to neo4j``).

Nodes are read per primary label in id order (keyset pages of ``batch_size``) and written with one
``UNWIND`` per page and label set; then each page's outgoing edges whose both ends are in the namespace,
one ``UNWIND`` per (source label, type, target label). Labels and relationship types become part of the
statement, so each passes :func:`_identifier` first. The copy is verified twice: node counts per label
and edge counts per type must be equal on both sides, and a sample of retrieval plans must return the
same evidence on both (semantic plans: the same ids; exact plans: reported, since the two full-text
engines score differently).

Derived properties stay where they belong: the embedded store's full-text copies (``*_fts``) and its
``FtsPending`` label are not copied (the embedded store rebuilds them when it is the destination), nor is
the ``Active`` label (every ``Store.cypher`` write derives it from the items' status), and embeddings
become ``vecf32`` vectors on the embedded side.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphbrain.errors import StoreError
from graphbrain.store.base import Row, Store

log = logging.getLogger(__name__)

# The first of these a node carries is the one it is looked up by (each has a unique id).
PRIMARY_LABELS = (
    "Session", "Turn", "Message", "ToolCall", "Ref", "Memory", "MemoryKey", "Summary", "CommitTrace",
    "ContextTrace", "Document", "Section", "Chunk", "Tag", "Topic",
)  # fmt: skip
# Derived labels: not copied nor counted; the destination derives them (FtsPending on embedded, and
# Active from each item's status after every Store.cypher write).
SKIP_LABELS = frozenset({"FtsPending", "Active"})
_IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


def _identifier(name: str) -> str:
    """A label or relationship type that is safe to write into a statement, or an error."""
    if not _IDENT.match(name):
        raise StoreError(f"refusing to migrate a label or type that is not a plain identifier: {name!r}")
    return name


def _copyable(key: str) -> bool:
    return not key.endswith("_fts")


# The sample plans' modes. Semantic (the same vectors) must return the same evidence on both engines, but
# for a near tie at the cut (``PlanCheck.same_but_the_cut``).
# Exact (full-text) and relational (whose seeds include the best full-text hits besides exact names) are
# compared and reported, not required to match: Lucene and RediSearch score and break ties differently.
SAMPLE_MODES = ("semantic", "relational", "exact")
IDENTICAL_MODES = ("semantic",)


@dataclass
class PlanCheck:
    text: str
    mode: str
    source_ids: list[str]
    dest_ids: list[str]

    @property
    def identical(self) -> bool:
        return set(self.source_ids) == set(self.dest_ids)

    @property
    def same_but_the_cut(self) -> bool:
        """Equal but for at most one item per side, each the last of its list: the two engines' approximate
        vector indexes and float sums put a near tie at the cut on different sides (one in four items is
        an overlap of 0.75, so a share cannot say this for short lists)."""
        extra = [
            [x for x in mine if x not in theirs]
            for mine, theirs in ((self.source_ids, self.dest_ids), (self.dest_ids, self.source_ids))
        ]
        if not (set(self.source_ids) & set(self.dest_ids)):
            return False  # nothing in common is no near tie
        ends = (self.source_ids[-1:], self.dest_ids[-1:])
        return all(not e or (len(e) == 1 and e == end) for e, end in zip(extra, ends, strict=True))

    @property
    def overlap(self) -> float:
        union = set(self.source_ids) | set(self.dest_ids)
        return 1.0 if not union else len(set(self.source_ids) & set(self.dest_ids)) / len(union)


@dataclass
class MigrationReport:
    namespace: str
    nodes: int = 0
    edges: int = 0
    source_labels: dict[str, int] = field(default_factory=dict)
    dest_labels: dict[str, int] = field(default_factory=dict)
    source_edges: dict[str, int] = field(default_factory=dict)
    dest_edges: dict[str, int] = field(default_factory=dict)
    plans: list[PlanCheck] = field(default_factory=list)

    @property
    def counts_match(self) -> bool:
        return self.source_labels == self.dest_labels and self.source_edges == self.dest_edges

    @property
    def retrieval_matches(self) -> bool:
        return all(p.identical or p.same_but_the_cut for p in self.plans if p.mode in IDENTICAL_MODES)

    @property
    def ok(self) -> bool:
        return self.counts_match and self.retrieval_matches

    def summary(self) -> str:
        lines = [
            f"namespace {self.namespace}: {self.nodes} nodes, {self.edges} edges copied",
            f"counts per label and edge type: {'equal' if self.counts_match else 'DIFFERENT'}",
        ]
        if not self.counts_match:
            lines += count_differences(
                ("source", self.source_labels, self.source_edges), ("destination", self.dest_labels, self.dest_edges)
            )
        for p in self.plans:
            verdict = "same" if p.identical else "same but the cut" if p.same_but_the_cut else "differs"
            lines.append(
                f"  {p.mode:<8} {p.text[:50]!r}: {verdict} "
                f"(overlap {p.overlap:.2f}, {len(p.source_ids)}/{len(p.dest_ids)} items)"
            )
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------- counting
Counts = tuple[str, dict[str, int], dict[str, int]]


def count_differences(a: Counts, b: Counts) -> list[str]:
    """One report line per label or edge type whose count differs between two ``(side, labels, edges)``."""
    lines = []
    for kind, a_counts, b_counts in (("label", a[1], b[1]), ("edge", a[2], b[2])):
        for key in sorted(set(a_counts) | set(b_counts)):
            if a_counts.get(key) != b_counts.get(key):
                lines.append(f"  {kind} {key}: {a[0]} {a_counts.get(key, 0)}, {b[0]} {b_counts.get(key, 0)}")
    return lines


def count_labels(store: Store, namespace: str) -> dict[str, int]:
    rows = store.run("migrate/count_labels", {"ns": namespace})
    return {str(r["label"]): int(r["n"]) for r in rows if r["label"] not in SKIP_LABELS}


def count_edges(store: Store, namespace: str) -> dict[str, int]:
    rows = store.run("migrate/count_edges", {"ns": namespace})
    return {str(r["type"]): int(r["n"]) for r in rows}


def _primary(labels: Iterable[str]) -> str:
    present = set(labels) - SKIP_LABELS
    for label in PRIMARY_LABELS:
        if label in present:
            return label
    return sorted(present)[0]


# ------------------------------------------------------------------------------------------- copying
def migrate(
    src: Store,
    dst: Store,
    namespace: str,
    *,
    batch_size: int = 500,
    verify_plans: Callable[[Store], dict[str, list[str]]] | None = None,
) -> MigrationReport:
    """Copy ``namespace``'s nodes and edges from ``src`` to ``dst`` (which must not hold it yet) and verify.

    ``verify_plans(store)`` runs the sample plans on one store and returns ``{"<mode>:<text>": [evidence
    ids]}``; :func:`main_migrate` passes one built on the retrieval executor.
    """
    report = MigrationReport(namespace=namespace)
    report.source_labels = count_labels(src, namespace)
    existing = count_labels(dst, namespace)
    if existing:
        raise StoreError(
            f"the destination already holds {sum(existing.values())} labelled nodes in namespace "
            f"{namespace!r}; migrate into an empty namespace (or delete it there first)"
        )
    seen: set[str] = set()
    pages: list[tuple[str, list[str]]] = []
    for label, rows in node_pages(src, namespace, report.source_labels, batch_size):
        fresh = [r for r in rows if r["props"]["id"] not in seen]
        seen.update(r["props"]["id"] for r in fresh)
        report.nodes += _write_nodes(dst, fresh)
        pages.append((label, [r["props"]["id"] for r in fresh]))
    for label, ids in pages:
        report.edges += _copy_edges(src, dst, namespace, label, ids)
    report.dest_labels = count_labels(dst, namespace)
    report.source_edges = count_edges(src, namespace)
    report.dest_edges = count_edges(dst, namespace)
    if verify_plans is not None:
        a, b = verify_plans(src), verify_plans(dst)
        for key in a:
            mode, _, text = key.partition(":")
            report.plans.append(PlanCheck(text=text, mode=mode, source_ids=a[key], dest_ids=b.get(key, [])))
    log.info("migrate %s: %s", namespace, report.summary())
    return report


def node_pages(store: Store, namespace: str, labels: Mapping[str, int], page: int) -> Iterator[tuple[str, list[Row]]]:
    """The namespace's nodes, page by page per primary label of ``labels`` in id order (each node under
    one label only: its primary one)."""
    primaries = [label for label in PRIMARY_LABELS if label in labels]
    primaries += sorted(label for label in labels if label not in PRIMARY_LABELS and label not in _secondary())
    for label in primaries:
        after = ""
        while True:
            rows = store.cypher(
                store.queries.render("migrate/page_nodes", label=_identifier(label)),
                {"ns": namespace, "after": after, "b": page},
                row_cap=page,
            ).rows
            if not rows:
                break
            # A Memory:Entity node comes under Memory only: its primary label is the first one it has.
            yield label, [r for r in rows if _primary(r["labels"]) == label]
            after = str(rows[-1]["props"]["id"])
            if len(rows) < page:
                break


def _secondary() -> frozenset[str]:
    # Labels that only ever come with a primary one (type labels of memory items, Entity).
    return frozenset({"Entity", "Profile", "Preference", "Goal", "Task", "Decision", "Event", "Case", "Pattern"})


def _write_nodes(dst: Store, rows: list[Row]) -> int:
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        labels = tuple(sorted(set(r["labels"]) - SKIP_LABELS))
        props = {k: v for k, v in r["props"].items() if _copyable(k) and k != "embedding"}
        groups[labels].append({"props": props, "embedding": r["props"].get("embedding")})
    written = 0
    for labels, batch in groups.items():
        label_text = ":".join(_identifier(label) for label in labels)
        dst.cypher(dst.queries.render("migrate/write_nodes", labels=label_text), {"rows": batch}, write=True)
        written += len(batch)
    return written


def _copy_edges(src: Store, dst: Store, namespace: str, label: str, ids: list[str]) -> int:
    if not ids:
        return 0
    rows = src.cypher(
        src.queries.render("migrate/out_edges", label=_identifier(label)),
        {"ids": ids, "ns": namespace},
        row_cap=10_000_000,
    ).rows
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(str(r["type"]), _primary(r["b_labels"]))].append({"a": r["a"], "b": r["b"], "props": r["props"]})
    for (rel, b_label), batch in groups.items():
        text = dst.queries.render(
            "migrate/write_edges", a_label=_identifier(label), b_label=_identifier(b_label), rel=_identifier(rel)
        )
        dst.cypher(text, {"rows": batch}, write=True)
    return len(rows)


# ------------------------------------------------------------------------------------------- the command
def sample_plan_runner(
    config: Any, embedder_factory: Callable[[], Any], namespace: str, texts: list[str]
) -> Callable[[Store], dict[str, list[str]]]:
    """A ``verify_plans`` callable: a plan per text and mode of ``SAMPLE_MODES``, evidence ids per plan."""
    from graphbrain.retrieve.executor import Executor

    def run(store: Store) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        executor = Executor(config, store, embedder_factory)
        for text in texts:
            for mode in SAMPLE_MODES:
                pack = executor.retrieve(
                    {"version": "0.1", "queries": [{"text": text, "mode": mode}]}, namespace=namespace
                )
                out[f"{mode}:{text}"] = [e.id for e in pack.evidences]
        return out

    return run


def main_migrate(config_path: str | None, src: str, dst: str, namespace: str | None, *, samples: int = 8) -> int:
    """``graphbrain migrate --from <src> --to <dst> [--namespace NS]``: copy, verify, print; 0 when verified."""
    from graphbrain.config import load_config
    from graphbrain.embedding import get_embedder
    from graphbrain.store import open_store

    config = load_config(config_path)
    ns = namespace or config.namespace
    stores: list[Store] = []
    try:
        for backend in (src, dst):
            storage = config.storage.model_copy(update={"backend": backend})
            stores.append(open_store(storage))
        source, dest = stores
        texts = [str(r["text"]) for r in source.run("migrate/sample_texts", {"ns": ns, "n": samples})]
        embedder = None

        def embedder_factory() -> Any:
            nonlocal embedder
            if embedder is None:
                embedder = get_embedder(config.embedding)
            return embedder

        dest.ensure_schema(config.embedding.dimension)
        report = migrate(source, dest, ns, verify_plans=sample_plan_runner(config, embedder_factory, ns, texts))
        print(report.summary())
        return 0 if report.ok else 1
    finally:
        for s in stores:
            s.close()


__all__ = ["MigrationReport", "PlanCheck", "count_edges", "count_labels", "main_migrate", "migrate"]
