"""Speed at scale, against the floor measured in the same rounds, as the data grows, on either backend.

    report = run_scale(lambda: Brain.from_config("brain.yml"), sizes=(10_000, 100_000))
    print(format_scale(report))             # graphbrain.bench.report

**Data.** A seeded generator (``synth.py``) writes realistic agent sessions from templates in English,
Chinese and both mixed: new tasks and their status changes, decisions (and revisions), preferences (and
changes of mind), goals, meetings / releases / incidents, links and files, questions and chit-chat, each
turn a user message and an assistant reply, about a shared cast of projects, people and tools and a
Zipf-distributed long tail of specific names (tickets, files, people, customers, incidents), so the
number of entities grows with the data. Committing 100 000 memory items one ``commit_turn`` at a time
takes hours here, so the bulk of the data goes in through a loader (``bulk.py``) that writes *the same
node shapes* as ``commit_turn`` — the same labels, properties (search text, filler, language, entity
turn counts …) and relationships, and the vectors of both models (the English one for English and mixed
text) — with batched ``UNWIND`` queries (``cypher/bench/bulk_*``, a ``.falkordb.cypher`` variant where
the dialect differs), one write per batch. Vectors come from an on-disk cache (model + text hash →
vector, under ``<storage.data_dir>/bench-cache`` unless ``cache_dir`` says otherwise), so a second
backend or a re-run embeds nothing it embedded before. Not generated: summaries, commit/context traces,
documents (the ingest figure measures documents apart) and the noun-phrase candidate entities a real
commit also records.

Sizes are memory items; they are loaded in ascending order into one namespace, each step adding to the
previous one, and everything is measured at each step. The measured ``commit_turn`` calls talk about
projects of their own (``LIVE_PROJECTS_*``, no preferences), so the real pipeline and the loader never
contend for a key; any item a real commit made active for a key the loader writes later is superseded
first (``bench/bulk_retire``). The namespace (``bench-scale-<seed>``) is deleted before the run and,
unless ``keep``, after it.

**Rounds.** Per size, ``samples`` rounds after an untimed warm-up round that compiles the query plans.
Each round takes one generated question and one generated turn and runs, back to back: the floor's
parts for the question, ``commit_turn`` for the turn, the floor of that commit's write, then
``compose_context`` and ``brain.retrieve`` in each mode for the question; so a figure and its floor see
the same moment of a shared machine. Every figure's floor is the sum of its parts *in that round*, so
a floor is a distribution like the figure: the report gives both p50 and p95 and the ratios p50/p50
and p95/p95.

- ``commit_turn``: wall ms of ``brain.commit_turn``; the time inside the embedding models is measured
  apart (``model_ms``), the rest is ``commit_turn outside model``.
- ``compose_context``: wall ms of ``Composer.compose`` (``now`` = the data's last day + 1), and each
  step's share from ``package.debug.timings_ms``.
- ``retrieve <mode>``: wall ms of ``brain.retrieve`` with one query in that mode, ``scope: [memory,
  turns]``, ``top_k`` 10.
- ``ingest``: ``graphbrain.bench.ingest_bench.run_ingest_bench`` on ``seeds/docs`` (chunks per second, and
  graphbrain's pace on the ingest's texts against the models' own on the same texts in that ingest).

**The floor's parts** (named queries through the store, like every retriever query; k = the first k
the retrievers ask, ``OVERSAMPLE × candidate_k``):

- ``embed:main`` / ``embed:english``: embedding the question with the main model, and with the English
  model when the question is English or mixed (``detect_language``) and the model is on (``0`` else);
- ``vector:<side>:<model>``: a bare vector top-k (``bench/floor_vector_*``) on the memory and the
  message index of each model the question was embedded with — the indexes the retrievers search
  (Neo4j ``memory_active_embedding``, ``message_embedding`` and their ``*_en``; FalkorDB the Memory and Message
  indexes on ``embedding`` and ``embedding_en``), nothing filtered or hydrated;
- ``fulltext:memory`` / ``fulltext:messages``: a bare full-text top-k (``bench/floor_fulltext_*``) on the
  memory text and the messages' search text, the query made as the exact retriever makes it;
- ``commit_model``: the measured commit's own time inside the models;
- ``write``: one bare write of the same nodes: the commit's Turn, Messages (with their vectors), memory
  items and the entities it mentions are read back by its turn id (untimed), then created again as
  copies — same labels and properties, fresh ids, a scratch namespace and the ``BenchFloor`` label —
  in one statement with no MERGE, no read and no lock (``bench/floor_write``), so the same indexes and
  constraints are updated; the copies are removed after each size (``bench/floor_clear``). Only nodes:
  the commit's relationships and the updates of existing nodes (the superseded item, the session
  counter, the key locks) are not in the floor.

Each figure's floor, per round:

====================  =====================================================================
commit_turn           commit_model + write
commit outside model  write
compose_context       embed:* + vector:*:* + fulltext:* (the least work that answers the question
                      from the indexes, as this config searches them)
retrieve:exact        fulltext:memory + fulltext:messages
retrieve:relational   fulltext:memory + fulltext:messages (its seeds are full-text lookups)
retrieve:semantic     embed:* + vector:*:* (semantic searches each embedded model's indexes)
retrieve:hybrid       as compose_context
retrieve:associative  as compose_context
ingest                the models' own texts/s on that ingest's texts, against graphbrain's on the same
====================  =====================================================================

**Criteria** (issue 19; reported as PASS / FAIL lines, never asserted): compose p95 ≤ 3× its floor p95
at the largest size; compose p95 growth from the smallest to the largest size ≤ 1.5×; relational p95 ≤
3× its floor p95 at the largest size; commit_turn p50 ≤ 3× its floor p50 at the largest size; ingest
≥ 50 % of the models' own pace on its texts (texts/s against texts/s) at the largest size.
"""

from __future__ import annotations

import re
import sys
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphbrain.assets import asset_dir
from graphbrain.bench.bulk import DEFAULT_BATCH_TURNS, Embeddings, LoadStats, Progress, bulk_load
from graphbrain.bench.harness import delete_namespace, namespace_counts, timed_embedder
from graphbrain.bench.ingest_bench import run_ingest_bench
from graphbrain.bench.plot import write_plot
from graphbrain.bench.scoring import mean, ratio, summarise_latencies
from graphbrain.bench.synth import DEFAULT_SEED, SessionGenerator, SynthTurn
from graphbrain.bench.synth_vocab import LIVE_PROJECTS_EN, LIVE_PROJECTS_ZH
from graphbrain.nlp import detect_language
from graphbrain.nlp.analysis import query_terms
from graphbrain.retrieve.base import OVERSAMPLE, lucene_query

if TYPE_CHECKING:
    from graphbrain.brain import Brain
    from graphbrain.store import Store

__all__ = ["CRITERIA", "main_scale", "parse_sizes", "run_scale", "scale_criteria"]

DEFAULT_SIZES = (10_000, 100_000)
DEFAULT_SAMPLES = 30
CACHE_DIR_NAME = "bench-cache"
RETRIEVE_MODES = ("exact", "semantic", "hybrid", "relational", "associative")
MODELS = ("main", "english")
SIDES = ("memory", "messages")
FIGURE_LABELS = {
    "commit_turn": "commit_turn",
    "commit_turn_outside_model": "commit_turn outside model",
    "compose_context": "compose_context",
    **{f"retrieve:{m}": f"retrieve {m}" for m in RETRIEVE_MODES},
}
PART_LABELS = {
    "embed:main": "embed question (main model)",
    "embed:english": "embed question (English model)",
    **{f"vector:{side}:{model}": f"vector top-k {side} ({model})" for model in MODELS for side in SIDES},
    "fulltext:memory": "full-text top-k memory",
    "fulltext:messages": "full-text top-k messages",
    "commit_model": "commit: model time",
    "write": "commit: bare write of its nodes",
}
_SEARCH = ("embed:main", "embed:english", *[f"vector:{s}:{m}" for m in MODELS for s in SIDES])
_FULLTEXT = ("fulltext:memory", "fulltext:messages")
FLOOR_PARTS: dict[str, tuple[str, ...]] = {
    "commit_turn": ("commit_model", "write"),
    "commit_turn_outside_model": ("write",),
    "compose_context": (*_SEARCH, *_FULLTEXT),
    "retrieve:exact": _FULLTEXT,
    "retrieve:relational": _FULLTEXT,
    "retrieve:semantic": _SEARCH,
    "retrieve:hybrid": (*_SEARCH, *_FULLTEXT),
    "retrieve:associative": (*_SEARCH, *_FULLTEXT),
}
# Issue 19's criteria that this bench measures: (key, text, limit).
CRITERIA: tuple[tuple[str, str, float], ...] = (
    ("compose_p95_x_floor", "compose_context p95 <= 3x its floor p95 at the largest size", 3.0),
    ("compose_p95_growth", "compose_context p95 growth smallest -> largest size <= 1.5x", 1.5),
    ("relational_p95_x_floor", "retrieve relational p95 <= 3x its floor p95 at the largest size", 3.0),
    ("commit_p50_x_floor", "commit_turn p50 <= 3x its floor p50 at the largest size", 3.0),
    ("ingest_share_of_model", "ingest >= 50% of the models' own texts/s on its texts at the largest size", 0.5),
)
FLOOR_BATCH = 10_000


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


def floor_namespace(namespace: str) -> str:
    """Where the copies of the floor's write go: never the measured namespace, so nothing reads them."""
    return f"{namespace}-floor"


def floor_copies(written: Mapping[str, Any], namespace: str, tag: str) -> dict[str, list[dict[str, Any]]]:
    """The rows of ``bench/floor_write`` from what ``bench/floor_nodes`` read back: each node's properties
    under a fresh id (and a fresh active_key where it holds one) in ``namespace``, vectors apart."""

    def copy(props: Mapping[str, Any] | None) -> dict[str, Any]:
        p = dict(props or {})
        embedding, embedding_en = p.pop("embedding", None), p.pop("embedding_en", None)
        p["id"] = f"{p.get('id')}~{tag}"
        p["namespace"] = namespace
        if p.get("active_key") is not None:
            p["active_key"] = f"{namespace}|{tag}|{p['active_key']}"
        return {"props": p, "embedding": embedding, "embedding_en": embedding_en}

    return {
        "turns": [copy(written["turn"])] if written.get("turn") else [],
        "messages": [copy(m) for m in written.get("messages") or []],
        "items": [copy(m) for m in written.get("items") or []],
        "entities": [copy(m) for m in written.get("entities") or []],
    }


def clear_floor_copies(store: Store) -> int:
    """Remove every copy the floor's writes made (``BenchFloor``); returns how many."""
    total = 0
    while True:
        rows = store.run("bench/floor_clear", {"batch": FLOOR_BATCH}, write=True)
        deleted = int(rows[0]["deleted"]) if rows else 0
        total += deleted
        if deleted < FLOOR_BATCH:
            return total


class _Probe:
    """One sample round at a time: the floor's parts and graphbrain's figures for the same question."""

    def __init__(self, brain: Brain, ns: str, now: datetime) -> None:
        self.brain = brain
        self.store = brain.store
        self.ns = ns
        self.now = now
        self.k = OVERSAMPLE * brain.config.policies.retrieval.candidate_k
        self.composer = brain.composer()
        self.session = "bench-questions"
        self.rounds: list[dict[str, Any]] = []  # per round: {"parts": {part: ms}, "figures": {figure: ms}}
        self.steps: dict[str, list[float]] = {}
        self.writes = 0

    def round(self, question: str, turn: SynthTurn, timed: Any, record: bool = True) -> None:
        parts: dict[str, float] = {}
        figures: dict[str, float] = {}
        self._search_parts(question, parts)
        brain = self.brain
        before = timed.seconds
        figures["commit_turn"], result = _timed(lambda: brain.commit_turn(turn.session_id, _live_events(turn, self.ns)))
        parts["commit_model"] = (timed.seconds - before) * 1000.0
        figures["commit_turn_outside_model"] = figures["commit_turn"] - parts["commit_model"]
        parts["write"] = self._floor_write(turn.turn_node_id) if result.status == "committed" else 0.0
        figures["compose_context"], package = _timed(
            lambda: self.composer.compose(self.session, question, namespace=self.ns, now=self.now)
        )
        for mode in RETRIEVE_MODES:
            figures[f"retrieve:{mode}"], _ = _timed(
                lambda mode=mode: brain.retrieve(_mode_plan(question, mode), namespace=self.ns)  # type: ignore[misc]
            )
        if record:
            self.rounds.append({"question": question, "parts": parts, "figures": figures})
            timings = package.debug.timings_ms
            total = sum(v for k, v in timings.items() if k != "total") or 1.0
            for step, v in timings.items():
                if step != "total":
                    self.steps.setdefault(step, []).append(v / total)

    def _search_parts(self, question: str, parts: dict[str, float]) -> None:
        """The least index work that answers ``question``, as the retrievers search: each model that reads
        it (the English one only for English or mixed text, when on), its two vector indexes, full text."""
        store = self.store
        models: list[tuple[str, Any]] = [("main", self.brain.embedder)]
        english = self.brain.english_embedder
        if english is not None and detect_language(question) in ("en", "mixed"):
            models.append(("english", english))
        for model, embedder in models:
            parts[f"embed:{model}"], vector = _timed(lambda embedder=embedder: embedder.embed_one(question))  # type: ignore[misc]
            for side in SIDES:
                params = {"model": model, "k": self.k, "vector": vector}
                parts[f"vector:{side}:{model}"], _ = _timed(
                    lambda side=side, params=params: store.run(f"bench/floor_vector_{side}", params)  # type: ignore[misc]
                )
        params_memory = {"k": self.k, "query": lucene_query(question) or "x"}
        parts["fulltext:memory"], _ = _timed(lambda: store.run("bench/floor_fulltext_memory", params_memory))
        params_messages = {"k": self.k, "terms": query_terms(question) or ["x"]}
        parts["fulltext:messages"], _ = _timed(lambda: store.run("bench/floor_fulltext_messages", params_messages))

    def _floor_write(self, turn_node_id: str) -> float:
        """Time one bare write of copies of the nodes the commit of ``turn_node_id`` wrote."""
        rows = self.store.run("bench/floor_nodes", {"turn_node_id": turn_node_id})
        if not rows:
            return 0.0
        self.writes += 1
        params = floor_copies(rows[0], floor_namespace(self.ns), f"floor{self.writes}-{uuid.uuid4().hex[:6]}")
        ms, _ = _timed(lambda: self.store.run("bench/floor_write", params, write=True))
        return ms


def _floor_of(figure: str, parts: Mapping[str, float]) -> float:
    return sum(parts.get(p, 0.0) for p in FLOOR_PARTS[figure])


def _figure(values: Sequence[float], floors: Sequence[float], **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = summarise_latencies(values)
    out["floor"] = summarise_latencies(floors)
    for q in ("p50", "p95"):
        x = ratio(out[q], out["floor"][q])
        out[f"x_{q}"] = None if x is None else round(x, 2)
    return out | extra


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
    try:
        with timed_embedder(brain) as timed:
            # Untimed: compiles every query plan once, for an English and a Chinese question.
            probe.round("warm-up question?", live.next_turn(), timed, record=False)
            probe.round("预热问题？", live.next_turn(), timed, record=False)
            for i, q in enumerate(questions, start=1):
                probe.round(q, live.next_turn(), timed)
                if i % 10 == 0:
                    say(f"  {i}/{len(questions)} samples")
    finally:
        clear_floor_copies(brain.store)

    rounds = probe.rounds
    parts = {
        part: summarise_latencies([r["parts"][part] for r in rounds if part in r["parts"]]) for part in PART_LABELS
    }
    model_batch: dict[str, Any] = {}
    batch_texts = [f"{q} #{i}" for i, q in enumerate(list(questions) * (256 // max(len(questions), 1) + 1))][:256]
    for name, embedder in (("main", brain.embedder), ("english", brain.english_embedder)):
        if embedder is not None:
            ms, _ = _timed(lambda embedder=embedder: embedder.embed(batch_texts))  # type: ignore[misc]
            model_batch[name] = {"texts": len(batch_texts), "texts_per_s": round(len(batch_texts) / (ms / 1000.0), 1)}

    ingest: dict[str, Any] = {}
    if ingest_path is not None and ingest_path.exists():
        say("  ingest …")
        bench = run_ingest_bench(brain, ingest_path)
        chunks_per_s, model_per_s = bench.get("chunks_per_s"), bench.get("model_texts_per_s")
        share = bench.get("share_of_model_pace")
        ingest = {
            "path": str(ingest_path),
            "chunks": bench.get("chunks"),
            "chunks_per_s": chunks_per_s,
            "embed_share": bench.get("embed_share"),
            "model_texts_per_s": model_per_s,
            # graphbrain's pace on the ingest's texts over the models' own on the same texts, in that very
            # ingest (bench.ingest_bench: the models' share of its time)
            "share_of_model": share,
        }

    figures: dict[str, Any] = {}
    for figure in FIGURE_LABELS:
        values = [r["figures"][figure] for r in rounds]
        floors = [_floor_of(figure, r["parts"]) for r in rounds]
        extra: dict[str, Any] = {}
        if figure == "commit_turn":
            total = sum(values)
            extra["outside_model_share"] = (
                round(1.0 - sum(r["parts"]["commit_model"] for r in rounds) / total, 3) if total else None
            )
        if figure == "compose_context":
            extra["step_share"] = {k: round(mean(v) or 0.0, 3) for k, v in sorted(probe.steps.items())}
        figures[figure] = _figure(values, floors, **extra)
    english_rounds = sum(1 for r in rounds if "embed:english" in r["parts"])
    return {
        "k": probe.k,
        "english_questions": english_rounds,
        "parts": parts,
        "model_batch": model_batch,
        "figures": figures,
        "ingest": ingest,
    }


# =================================================================================== the criteria
def scale_criteria(sizes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Issue 19's criteria this bench measures, from one run's sizes: each with its figure, its limit and
    ``ok`` (None when the run cannot say: one size only for the growth, no ingest)."""
    if not sizes:
        return []
    first, last = sizes[0], sizes[-1]

    def fig(size: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        found: Mapping[str, Any] = size["figures"].get(key, {})
        return found

    compose, relational, commit = (
        fig(last, "compose_context"),
        fig(last, "retrieve:relational"),
        fig(last, "commit_turn"),
    )
    growth = ratio(compose.get("p95"), fig(first, "compose_context").get("p95")) if len(sizes) > 1 else None
    values: dict[str, tuple[float | None, str]] = {
        "compose_p95_x_floor": (
            compose.get("x_p95"),
            f"{_ms(compose.get('p95'))} / {_ms(compose.get('floor', {}).get('p95'))} ms",
        ),
        "compose_p95_growth": (
            None if growth is None else round(growth, 2),
            f"{_ms(fig(first, 'compose_context').get('p95'))} -> {_ms(compose.get('p95'))} ms"
            if len(sizes) > 1
            else "needs two sizes",
        ),
        "relational_p95_x_floor": (
            relational.get("x_p95"),
            f"{_ms(relational.get('p95'))} / {_ms(relational.get('floor', {}).get('p95'))} ms",
        ),
        "commit_p50_x_floor": (
            commit.get("x_p50"),
            f"{_ms(commit.get('p50'))} / {_ms(commit.get('floor', {}).get('p50'))} ms",
        ),
        "ingest_share_of_model": (
            last.get("ingest", {}).get("share_of_model"),
            f"{last['ingest'].get('chunks_per_s')} chunks/s / {last['ingest'].get('model_texts_per_s')} texts/s"
            if last.get("ingest")
            else "no ingest in this run",
        ),
    }
    out = []
    for key, text, limit in CRITERIA:
        value, detail = values[key]
        at_least = key == "ingest_share_of_model"
        ok = None if value is None else (value >= limit if at_least else value <= limit)
        out.append({"criterion": key, "text": text, "value": value, "limit": limit, "detail": detail, "ok": ok})
    return out


def _ms(value: Any) -> str:
    return "-" if value is None else f"{float(value):.0f}"


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
    cache_dir: str | PathLike[str] | None = None,
    plot: str | PathLike[str] | None = None,
    backend: str | None = None,
    progress: Progress | None = None,
    on_size: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Load synthetic data up to each size in turn, measure at each, return the report (see the docstring).

    ``cache_dir`` holds the loader's vectors (default ``<storage.data_dir>/bench-cache``); ``backend``
    only labels the report (default: the config's ``storage.backend``). ``on_size`` receives each size's
    results as soon as they are measured (a long run can save them).
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
        cache = Path(cache_dir) if cache_dir is not None else Path(brain.config.storage.data_dir) / CACHE_DIR_NAME
        load_model_s = brain.warm_up()
        removed = delete_namespace(brain.store, ns) + clear_floor_copies(brain.store)
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
        emb = Embeddings(brain.embedder, brain.english_embedder, stats, cache)
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
        english = brain.english_embedder
        settings = {
            "backend": backend or brain.config.storage.backend,
            "namespace": ns,
            "seed": seed,
            "samples": samples,
            "batch_turns": batch_turns,
            "embedding_model": brain.embedder.name,
            "embedding_dimension": brain.embedder.dim,
            "english_model": english.name if english is not None else None,
            "config_fingerprint": brain.config.fingerprint(),
            "model_load_s": round(load_model_s, 3),
            "vector_cache": str(cache),
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
        "part_labels": PART_LABELS,
        "floor_parts": {k: list(v) for k, v in FLOOR_PARTS.items()},
        "sizes": results,
        "load_s_per_1000_items": _load_rate(results),
        "criteria": scale_criteria(results),
        "notes": [
            "each figure: p50 ms (p95) [p50 / floor p50, p95 / floor p95]; a floor is the sum of its parts "
            "in the same round, on the same data",
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
    *,
    backends: Sequence[str] = (),
    samples: int = DEFAULT_SAMPLES,
    cache_dir: str | None = None,
    ingest: bool = True,
    namespace: str | None = None,
) -> dict[str, Any]:
    """``graphbrain bench scale --items 10000,100000 [--backends neo4j,embedded] [--json] [--plot FILE]``.

    With ``backends``, the same run happens on each backend in turn (the config's ``storage.backend``
    overridden; the vector cache makes the second load embed nothing) and a side-by-side summary and
    both backends' criteria follow the per-backend tables; ``plot`` then gets the backend's name before
    its suffix.
    """
    from graphbrain.bench.report import format_scale, format_scale_backends, to_json
    from graphbrain.brain import Brain

    sizes = parse_sizes(items)  # a bad size fails before any database is opened

    def run(backend: str | None, plot_path: str | None) -> dict[str, Any]:
        overrides = {"storage.backend": backend} if backend else None
        return run_scale(
            lambda: Brain.from_config(config_path, overrides=overrides),
            sizes,
            samples=samples,
            namespace=namespace,
            ingest_path="default" if ingest else None,
            cache_dir=cache_dir,
            plot=plot_path,
            backend=backend,
            progress=_stderr,
        )

    if not backends:
        report = run(None, plot)
        print(to_json(report) if as_json else format_scale(report))
        return report
    by_backend = {}
    for backend in backends:
        _stderr(f"== backend {backend}")
        plot_path = None
        if plot:
            p = Path(plot)
            plot_path = str(p.with_name(f"{p.stem}-{backend}{p.suffix or '.png'}"))
        by_backend[backend] = run(backend, plot_path)
    combined: dict[str, Any] = {"benchmark": "scale", "backends": by_backend}
    if as_json:
        print(to_json(combined))
    else:
        for backend, r in by_backend.items():
            print(f"=== backend: {backend}")
            print(format_scale(r, criteria=False))
            print()
        print(format_scale_backends(by_backend))
    return combined
