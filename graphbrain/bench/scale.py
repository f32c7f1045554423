"""Speed at scale, against the physical floor measured in the same run, as the data grows.

    report = run_scale(lambda: Brain.from_config("brain.yml"), sizes=(10_000, 100_000))
    print(format_scale(report))             # graphbrain.bench.report

**Data.** A seeded generator writes realistic agent sessions from templates in English, Chinese and
both mixed: new tasks and their status changes, decisions (and revisions), preferences (and changes of
mind), goals, meetings / releases / incidents, links and files, questions and chit-chat, each turn a
user message and an assistant reply, about a fixed cast of projects, people and tools. Committing
100 000 memory items one ``commit_turn`` at a time takes hours here, so the bulk of the data goes in
through a loader that writes *the same node shapes* as ``commit_turn`` (docs/graph-model.md: Session,
Turn, Message, Memory with its type label, Entity, MemoryKey, Ref, and HAS_TURN / NEXT / HAS_MESSAGE /
DERIVED_FROM / SUPERSEDES / VERSION_OF / MENTIONS / RELATED_TO / REFERENCES) with batched ``UNWIND``
queries (``cypher/bench/bulk_*``), one write transaction per batch. Keys, values and texts are made
by graphbrain's own key functions and renderer; superseded and versioned items keep the one-active-item
-per-key rule. Every message, item and entity is embedded by the same embedder, in batches (a text
repeated verbatim, like "Got it.", is embedded once). Vectors travel as strings of integers (×1e7) and
are rebuilt into float lists by Cypher: the Python driver packs a float list one value at a time,
which made the loader spend most of its time packing. Not generated: summaries, commit/context traces
and documents (the ingest figure measures documents separately).

Sizes are memory items; they are loaded in ascending order into one namespace, each step adding to the
previous one, and everything is measured at each step.

The measured ``commit_turn`` calls talk about projects of their own (``LIVE_PROJECTS_*``, no
preferences), so the real pipeline and the loader never contend for a key; any item a real commit
made active for a key the loader writes later is superseded first (``bench/bulk_retire``). The
namespace (``bench-scale-<seed>``) is deleted before the run and, unless ``keep``, after it.

**Figures per size** (``samples`` rounds after an untimed warm-up round that compiles the query
plans; each round takes one generated question and one generated turn and runs the floors, then
``commit_turn``, ``compose_context`` and each retrieve mode, back to back, so that a figure and its
floor see the same moment of a shared machine):

- ``commit_turn``: wall ms per turn of freshly generated turns into a new session, through
  ``brain.commit_turn``; the time inside the embedding model is measured apart (``model_ms``) and the
  rest is ``outside_model_ms``.
- ``compose_context``: wall ms of ``Composer.compose`` for generated questions (``now`` = the data's
  last day + 1), and each step's share from ``package.debug.timings_ms``.
- ``retrieve:<mode>``: wall ms of ``brain.retrieve`` with one query in that mode, ``scope: [memory,
  turns]``, ``top_k`` 10.
- ``ingest``: ``graphbrain.bench.ingest_bench.run_ingest_bench`` on ``seeds/docs`` (chunks per second).

**The floor**, measured in the same rounds on the same data, so that noise on a shared machine cancels
in the ratios: a bare ``db.index.vector.queryNodes`` and a bare ``db.index.fulltext.queryNodes`` (k =
the first k the retrievers ask, ``OVERSAMPLE × candidate_k``), over the memory and the message indexes,
run as named queries through the store like every retriever query; a bare one-node write transaction;
the embedding model's single-text latency and batch throughput. Each figure's floor:

====================  =====================================================================
commit_turn           the turn's own model time + one bare write transaction
retrieve:exact        full-text(memory) + full-text(messages)
retrieve:relational   full-text(memory) + full-text(messages) (its seeds are full-text lookups)
retrieve:semantic     embed one text + vector(memory) + vector(messages)
retrieve:hybrid       embed one text + vector(memory, messages) + full-text(memory, messages)
retrieve:associative  as hybrid
compose_context       as hybrid: the least work that answers a question from the indexes
commit outside model  one bare write transaction
ingest                the model's own texts/s in that ingest ÷ graphbrain's chunks/s
====================  =====================================================================
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphbrain.assets import asset_dir
from graphbrain.bench.bulk import DEFAULT_BATCH_TURNS, Embeddings, LoadStats, Progress, bulk_load
from graphbrain.bench.harness import delete_namespace, namespace_counts, timed_embedder, warm_up_models
from graphbrain.bench.ingest_bench import run_ingest_bench
from graphbrain.bench.plot import write_plot
from graphbrain.bench.scoring import mean, percentile, ratio, summarise_latencies
from graphbrain.bench.synth import DEFAULT_SEED, SessionGenerator, SynthTurn
from graphbrain.bench.synth_vocab import LIVE_PROJECTS_EN, LIVE_PROJECTS_ZH
from graphbrain.errors import GraphbrainError
from graphbrain.nlp.analysis import query_terms
from graphbrain.retrieve.base import OVERSAMPLE, lucene_query
from graphbrain.store.bench_scale import require_neo4j

if TYPE_CHECKING:
    from graphbrain.brain import Brain

__all__ = ["main_scale", "parse_sizes", "run_scale"]

DEFAULT_SIZES = (10_000, 100_000)
DEFAULT_SAMPLES = 30
RETRIEVE_MODES = ("exact", "semantic", "hybrid", "relational", "associative")
FIGURE_LABELS = {
    "commit_turn": "commit_turn",
    "commit_turn_outside_model": "commit_turn outside model",
    "compose_context": "compose_context",
    **{f"retrieve:{m}": f"retrieve {m}" for m in RETRIEVE_MODES},
}
FLOOR_LABELS = {
    "vector:memory": "vector top-k memory",
    "vector:messages": "vector top-k messages",
    "fulltext:memory": "full-text memory",
    "fulltext:messages": "full-text messages",
    "write": "bare write tx",
    "model_one": "model: embed one text",
}


def parse_sizes(items: str | Sequence[int]) -> list[int]:
    """``"2000,10000"`` or ``[2000, 10000]`` → sorted, de-duplicated positive sizes."""
    raw = [p for p in re.split(r"[,\s]+", items) if p] if isinstance(items, str) else list(items)
    sizes = sorted({int(str(v).replace("_", "")) for v in raw})
    if not sizes or sizes[0] <= 0:
        raise ValueError("sizes must be positive integers")
    return sizes


# =================================================================================== measuring
def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1000.0, out


def _p(values: Sequence[float]) -> dict[str, Any]:
    return summarise_latencies(values)


def _floor_sum(*figures: Mapping[str, Any] | None) -> float | None:
    total = 0.0
    for f in figures:
        if not f or f.get("p50") is None:
            return None
        total += float(f["p50"])
    return total


def _live_events(turn: SynthTurn, namespace: str) -> dict[str, Any]:
    return {
        "turn_id": turn.turn_id,
        "at": turn.at,
        "namespace": namespace,
        "messages": [{"message_id": m.message_id, "role": m.role, "content": m.content} for m in turn.messages],
        "refs": turn.refs,
        "metadata": {"project": turn.project},
    }


def _mode_plan(question: str, mode: str) -> dict[str, Any]:
    return {
        "version": "0.1",
        "queries": [{"text": question, "mode": mode}],
        "global_filters": {"scope": ["memory", "turns"]},
        "budget": {"top_k": 10},
    }


class _Probe:
    """One sample round: the floors, then graphbrain's figures, for the same question, back to back.

    Interleaving (rather than all floors first) lets a floor and the figure it divides see the same
    moment of a shared machine: background index merges after a bulk load, another process's burst.
    """

    def __init__(self, brain: Brain, ns: str, now: datetime) -> None:
        self.brain = brain
        self.store = brain.store
        self.ns = ns
        self.now = now
        self.k = OVERSAMPLE * brain.config.policies.retrieval.candidate_k
        self.composer = brain.composer()
        self.session = "bench-questions"
        self.ms: dict[str, list[float]] = {}
        self.steps: dict[str, list[float]] = {}
        self.commit_model_ms: list[float] = []
        self.writes = 0

    def _add(self, key: str, ms: float) -> None:
        self.ms.setdefault(key, []).append(ms)

    def floors(self, question: str, record: bool = True) -> None:
        embedder, store = self.brain.embedder, self.store
        ms, vector = _timed(lambda: embedder.embed_one(question))
        if record:
            self._add("floor:model_one", ms)
        for key, index in (("vector:memory", "memory_embedding"), ("vector:messages", "message_embedding")):
            params = {"index": index, "k": self.k, "vector": vector}
            ms, _ = _timed(lambda params=params: store.run("bench/floor_vector", params))  # type: ignore[misc]
            if record:
                self._add(f"floor:{key}", ms)
        text_query = lucene_query(question) or "x"
        # Messages are indexed as the analyzer's terms (message_search): the floor asks for those.
        terms_query = " ".join(query_terms(question)) or "x"
        for key, index, query in (
            ("fulltext:memory", "memory_text", text_query),
            ("fulltext:messages", "message_search", terms_query),
        ):
            params = {"index": index, "k": self.k, "query": query}
            ms, _ = _timed(lambda params=params: store.run("bench/floor_fulltext", params))  # type: ignore[misc]
            if record:
                self._add(f"floor:{key}", ms)
        self.writes += 1
        probe = {"namespace": self.ns, "id": f"bench-floor-{self.writes}"}
        ms, _ = _timed(lambda: store.run("bench/floor_write", probe, write=True))
        if record:
            self._add("floor:write", ms)

    def graphbrain(self, question: str, turn: SynthTurn, timed: Any, record: bool = True) -> None:
        brain = self.brain
        before = timed.seconds
        ms, _ = _timed(lambda: brain.commit_turn(turn.session_id, _live_events(turn, self.ns)))
        if record:
            self._add("commit_turn", ms)
            self.commit_model_ms.append((timed.seconds - before) * 1000.0)
        ms, package = _timed(lambda: self.composer.compose(self.session, question, namespace=self.ns, now=self.now))
        if record:
            self._add("compose_context", ms)
            timings = package.debug.timings_ms
            total = sum(v for k, v in timings.items() if k != "total") or 1.0
            for step, v in timings.items():
                if step != "total":
                    self.steps.setdefault(step, []).append(v / total)
        for mode in RETRIEVE_MODES:
            ms, _ = _timed(lambda mode=mode: brain.retrieve(_mode_plan(question, mode), namespace=self.ns))  # type: ignore[misc]
            if record:
                self._add(f"retrieve:{mode}", ms)


def _measure(
    brain: Brain,
    ns: str,
    live: SessionGenerator,
    questions: Sequence[str],
    now: datetime,
    ingest_path: Path | None,
    say: Progress,
) -> dict[str, Any]:
    probe = _Probe(brain, ns, now)
    with timed_embedder(brain) as timed:
        probe.floors("warm-up question?", record=False)  # compiles every query plan once
        probe.graphbrain("warm-up question?", live.next_turn(), timed, record=False)
        for i, q in enumerate(questions, start=1):
            probe.floors(q)
            probe.graphbrain(q, live.next_turn(), timed)
            if i % 10 == 0:
                say(f"  {i}/{len(questions)} samples")

    embedder = brain.embedder
    batch_texts = [f"{q} #{i}" for i, q in enumerate(list(questions) * (512 // max(len(questions), 1) + 1))][:512]
    batch_ms, _ = _timed(lambda: embedder.embed(batch_texts))
    floors: dict[str, Any] = {
        "k": probe.k,
        "model_batch": {"texts": len(batch_texts), "texts_per_s": round(len(batch_texts) / (batch_ms / 1000.0), 1)},
    }
    for key in FLOOR_LABELS:
        floors[key] = _p(probe.ms.get(f"floor:{key}", []))

    ingest: dict[str, Any] = {}
    if ingest_path is not None and ingest_path.exists():
        say("  ingest …")
        bench = run_ingest_bench(brain, ingest_path)
        ingest = {
            "path": str(ingest_path),
            "chunks": bench["chunks"],
            "chunks_per_s": bench["chunks_per_s"],
            "embed_share": bench["embed_share"],
            "model_texts_per_s": bench["model_texts_per_s"],
            # the model's own rate during that very ingest, over graphbrain's chunks per second
            "ratio_to_model": round(bench["model_texts_per_s"] / bench["chunks_per_s"], 2)
            if bench["chunks_per_s"]
            else None,
        }

    exact_floor = _floor_sum(floors["fulltext:memory"], floors["fulltext:messages"])
    semantic_floor = _floor_sum(floors["model_one"], floors["vector:memory"], floors["vector:messages"])
    hybrid_floor = None if exact_floor is None or semantic_floor is None else exact_floor + semantic_floor
    model_ms = probe.commit_model_ms
    commit_floor = None
    if model_ms and floors["write"].get("p50") is not None:
        commit_floor = float(percentile(model_ms, 50) or 0.0) + float(floors["write"]["p50"])
    mode_floor = {
        "exact": exact_floor,
        "relational": exact_floor,
        "semantic": semantic_floor,
        "hybrid": hybrid_floor,
        "associative": hybrid_floor,
    }

    def fig(values: Sequence[float], floor: float | None, **extra: Any) -> dict[str, Any]:
        out = _p(values)
        out["floor_ms"] = None if floor is None else round(floor, 2)
        x = ratio(out["p50"], floor)
        out["x_floor"] = None if x is None else round(x, 2)
        return out | extra

    commit_ms = probe.ms.get("commit_turn", [])
    outside = [c - m for c, m in zip(commit_ms, model_ms, strict=True)]
    figures = {
        "commit_turn": fig(
            commit_ms,
            commit_floor,
            model_ms=_p(model_ms),
            outside_model_share=round(sum(outside) / sum(commit_ms), 3) if sum(commit_ms) else None,
        ),
        "commit_turn_outside_model": fig(outside, floors["write"].get("p50")),
        "compose_context": fig(
            probe.ms.get("compose_context", []),
            hybrid_floor,
            step_share={k: round(mean(v) or 0.0, 3) for k, v in sorted(probe.steps.items())},
        ),
        **{f"retrieve:{m}": fig(probe.ms.get(f"retrieve:{m}", []), mode_floor[m]) for m in RETRIEVE_MODES},
    }
    return {"floors": floors, "figures": figures, "ingest": ingest}


# =================================================================================== the run
def run_scale(
    brain_factory: Callable[[], Brain],
    sizes: Sequence[int] | str = DEFAULT_SIZES,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    batch_turns: int = DEFAULT_BATCH_TURNS,
    namespace: str | None = None,
    keep: bool = False,
    ingest_path: str | PathLike[str] | None = "default",
    plot: str | PathLike[str] | None = None,
    progress: Progress | None = None,
    on_size: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Load synthetic data up to each size in turn, measure at each, return the report (see the docstring).

    ``on_size`` receives each size's results as soon as they are measured (a long run can save them).
    """
    steps = parse_sizes(sizes)
    if samples <= 0:
        raise ValueError("samples must be positive")
    say = progress or (lambda _m: None)
    ns = namespace or f"bench-scale-{seed}"
    docs: Path | None
    if ingest_path == "default":
        ingest_path = str(asset_dir("seeds") / "docs")
    docs = Path(ingest_path) if ingest_path else None
    brain = brain_factory()
    try:
        require_neo4j(brain.store)
    except GraphbrainError:
        brain.close()
        raise
    try:
        load_model_s = warm_up_models(brain)
        removed = delete_namespace(brain.store, ns)
        say(f"scale: namespace {ns} (removed {removed} old nodes); sizes {', '.join(f'{s:,}' for s in steps)}")
        gen = SessionGenerator(ns, seed)
        live = SessionGenerator(
            ns,
            seed + 1,
            session_prefix="live",
            projects=(LIVE_PROJECTS_EN, LIVE_PROJECTS_ZH),
            exclude=("preference",),  # preference keys are not per project: they would be shared
        )
        stats = LoadStats()
        emb = Embeddings(brain.embedder, stats)
        written: set[str] = set()
        results = []
        for size in steps:
            t0 = time.perf_counter()
            bulk_load(
                brain,
                gen,
                size,
                batch_turns=batch_turns,
                written_entities=written,
                embeddings=emb,
                stats=stats,
                progress=say,
            )
            step_s = time.perf_counter() - t0
            counts = namespace_counts(brain.store, ns)
            say(f"scale: {size:,} items loaded in {step_s:.0f} s ({counts}); measuring")
            live.clock = max(live.clock, gen.clock)
            questions = gen.questions(samples)
            measured = _measure(brain, ns, live, questions, gen.clock + timedelta(days=1), docs, say)
            result = {
                "target_items": size,
                "graph": counts,
                "load": {"step_s": round(step_s, 1), "cumulative_s": round(stats.wall_s, 1), **stats.as_dict()},
                **measured,
            }
            results.append(result)
            if on_size is not None:
                on_size(result)
        settings = {
            "namespace": ns,
            "seed": seed,
            "samples": samples,
            "batch_turns": batch_turns,
            "embedding_model": brain.embedder.name,
            "embedding_dimension": brain.embedder.dim,
            "config_fingerprint": brain.config.fingerprint(),
            "model_load_s": round(load_model_s, 3),
            "kept": keep,
        }
        if not keep:
            say(f"scale: removing namespace {ns}")
            delete_namespace(brain.store, ns)
    finally:
        brain.close()
    report: dict[str, Any] = {
        "benchmark": "scale",
        "settings": settings,
        "figure_labels": FIGURE_LABELS,
        "floor_labels": FLOOR_LABELS,
        "sizes": results,
        "load_s_per_1000_items": _load_rate(results),
        "notes": [
            "each figure: p50 ms (p95) [p50 / its floor's p50]; floors measured in the same run on the same data",
            "bulk-loaded data has the node shapes of commit_turn; measured commits and composes use the real path",
        ],
    }
    if plot:
        write_plot(report, plot)
        report["plot"] = str(plot)
    return report


def _load_rate(results: Sequence[Mapping[str, Any]]) -> float | None:
    if not results:
        return None
    last = results[-1]
    items = last["load"]["items"]
    return round(last["load"]["cumulative_s"] / items * 1000.0, 2) if items else None


# =================================================================================== entry point
def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main_scale(
    config_path: str | None,
    items: str | Sequence[int] = DEFAULT_SIZES,
    as_json: bool = False,
    plot: str | None = None,
) -> dict[str, Any]:
    """``graphbrain bench scale --items 10000,100000 [--json] [--plot FILE]``: run, print, return."""
    from graphbrain.bench.report import format_scale, to_json
    from graphbrain.brain import Brain

    report = run_scale(lambda: Brain.from_config(config_path), items, plot=plot, progress=_stderr)
    print(to_json(report) if as_json else format_scale(report))
    return report
