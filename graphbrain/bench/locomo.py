"""Retrieval quality on LoCoMo, graphbrain beside flat baselines, in one run.

    report = run_locomo(lambda: Brain.from_config("brain.yml"), ["26.json", "30.json"], ks=(5, 10, 25))
    print(format_locomo(report))            # graphbrain.bench.report

What goes into memory, and how (the choices, so that anyone can check them):

- **Only the dialog.** Per turn: ``speaker``, ``dia_id``, ``text`` and, when a photo was shared, its
  ``blip_caption``, appended to the text as ``" [image: <caption>]"``. Never ``events_session_N``,
  ``observation``/``session_summary``, ``qa`` answers or evidence, nor a photo's ``query`` (the search
  phrase the annotators used to find it) or ``img_url``.
- **One LoCoMo dialog turn = one ``commit_turn``** with a single message: ``turn_id`` and
  ``message_id`` are the ``dia_id``, ``at`` is the session's ``date_time`` (no zone in the data: read as
  UTC), ``name`` is the speaker. Both speakers are ``role: user``: LoCoMo is two people talking, neither
  is an assistant, and graphbrain's retention gate treats what an assistant says as weaker evidence
  than what a user says — the questions ask about both speakers alike. (A consequence worth knowing:
  two speakers' preferences with the same key supersede each other, as one user's would.)
- **One LoCoMo session = one graphbrain session** (``<sample_id>:session_<N>``), committed in order.
- Each conversation gets a fresh namespace ``<prefix>-<sample_id>-<digest>`` (the digest hashes the
  turns as committed, so changed input never reuses old data); it is deleted first, and afterwards
  unless ``keep``.

What is asked, per question (``question`` and ``category`` only; the answer is never read):

- ``graphbrain-compose``: ``Composer.compose`` on a session of its own (``<sample_id>:questions``, no
  turns: no recent turns or working summary leak the dialog in) with ``now`` = the last session's date
  + 1 day, so "last week" means the conversation's last week. Its ranked ``evidence`` is the list
  scored; it holds at most ``policies.composition.evidence_max_items`` items, so recall@k for a larger k
  is recall at that many.
- ``graphbrain-retrieve``: ``brain.retrieve`` with exact + semantic + relational queries of the
  question, ``scope: [memory, turns]``, ``top_k`` = the largest k and each mode's quota at ``top_k``
  (the default quotas would cap recall at large k, which is a budget choice and not retrieval).
- The baselines (``graphbrain.bench.baselines``) rank the same turn texts.

Mapping to dialog ids: a turn (message) hit maps through its ``ref.message_id``; a memory item through
its ``source_message_id`` (or ``source_turn_id``), read by one batched ``bench/memory_sources`` query per
question for the items not seen before. An id outside the conversation maps to nothing. recall@k counts
the first k *items* (two items from one turn take two places): ``graphbrain.bench.scoring``.

Evidence ids are normalised (``scoring.normalise_evidence``): ``"D8:6; D9:17"`` is two ids; an id that
names no turn is dropped and listed in the report; a question left without evidence is not scored.
Category 5 (adversarial) is reported but, as in LoCoMo, not part of "overall" (1–4).

Timings (never part of the determinism claim): ingest ms per turn (``commit_turn`` wall time, and the
share inside the embedding model), compose / retrieve / baseline latency p50 / p95 (the dense baseline
includes embedding the question). Evidence tokens use graphbrain's estimate counter
(``graphbrain.compose.tokens.EstimateCounter``) on the evidence texts; for compose also the rendered
evidence slot (labels, titles, URIs) and the whole package, which is what the agent pays.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from typing import TYPE_CHECKING, Any

from graphbrain.bench.baselines import RRF_K, BM25Baseline, DenseBaseline, rrf
from graphbrain.bench.harness import delete_namespace, namespace_counts, timed_embedder
from graphbrain.bench.locomo_data import Conversation, baseline_text, load_conversation, safe_slug, turn_events
from graphbrain.bench.scoring import (
    ANSWERABLE,
    CATEGORY_NAMES,
    QuestionScore,
    aggregate,
    mean,
    ratio,
    recall_by_k,
    summarise_latencies,
)
from graphbrain.compose.tokens import EstimateCounter
from graphbrain.contracts import ContextPackage, EvidencePack

if TYPE_CHECKING:
    from graphbrain.brain import Brain
    from graphbrain.store import Store

__all__ = ["BASELINE_SYSTEMS", "GRAPHBRAIN_SYSTEMS", "main_locomo", "retrieve_plan", "run_locomo"]

GRAPHBRAIN_SYSTEMS = ("graphbrain-compose", "graphbrain-retrieve")
BASELINE_SYSTEMS = ("bm25", "dense", "dense-english", "hybrid-rrf")
SYSTEMS = GRAPHBRAIN_SYSTEMS + BASELINE_SYSTEMS
# Whose ingest figures a system reports: both graphbrain systems read what commit_turn wrote.
INGEST_KEY = {"graphbrain-compose": "graphbrain", "graphbrain-retrieve": "graphbrain"} | {
    b: b for b in BASELINE_SYSTEMS
}
DEFAULT_KS = (5, 10, 25)
RETRIEVE_MODES = ("exact", "semantic", "relational")

Progress = Callable[[str], None]


# =================================================================================== timing


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


def retrieve_plan(question: str, top_k: int) -> dict[str, Any]:
    """The memory-only plan: exact + semantic + relational of the question, over memory items and turns."""
    return {
        "version": "0.1",
        "queries": [{"text": question, "mode": mode} for mode in RETRIEVE_MODES],
        "global_filters": {"scope": ["memory", "turns"]},
        "budget": {"top_k": top_k, "per_mode_k": {mode: top_k for mode in RETRIEVE_MODES}},
    }


# =================================================================================== mapping
class _SourceMap:
    """Memory item id → dialog id, read from the graph in one batched query per question (cached)."""

    def __init__(self, store: Store, namespace: str, known: frozenset[str]) -> None:
        self.store = store
        self.namespace = namespace
        self.known = known
        self.cache: dict[str, str | None] = {}
        self.queries = 0

    def _known(self, *candidates: Any) -> str | None:
        for c in candidates:
            if isinstance(c, str) and c in self.known:
                return c
        return None

    def load(self, memory_ids: Sequence[str]) -> None:
        missing = sorted({m for m in memory_ids if m not in self.cache})
        if not missing:
            return
        self.queries += 1
        rows = self.store.run("bench/memory_sources", {"namespace": self.namespace, "ids": missing})
        for row in rows:
            self.cache[row["id"]] = self._known(row.get("message_id"), row.get("turn_id"))
        for m in missing:
            self.cache.setdefault(m, None)

    def dialog_id(self, ref: Mapping[str, Any]) -> str | None:
        memory_id = ref.get("memory_item_id")
        if memory_id:
            return self.cache.get(memory_id)
        return self._known(ref.get("message_id"), ref.get("turn_id"))


def _package_refs(package: ContextPackage) -> list[dict[str, Any]]:
    return [ev.ref.model_dump() for ev in package.evidence]


def _pack_refs(pack: EvidencePack) -> list[dict[str, Any]]:
    return [dict(ev.ref) for ev in pack.evidences]


# =================================================================================== the run
@dataclass
class _SystemRun:
    """What one system produced for one question."""

    ids: list[str | None]
    latency_ms: float
    tokens: dict[str, int]


def run_locomo(
    brain_factory: Callable[[], Brain],
    paths: Sequence[str | PathLike[str]],
    ks: Sequence[int] = DEFAULT_KS,
    *,
    namespace_prefix: str = "locomo",
    keep: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run the LoCoMo retrieval benchmark on ``paths`` (see the module docstring); returns the report."""
    ks = sorted({int(k) for k in ks})
    if not ks or ks[0] <= 0:
        raise ValueError("ks must be positive integers")
    if not paths:
        raise ValueError("no LoCoMo file given")
    prefix = safe_slug(namespace_prefix, "locomo")
    conversations = [load_conversation(p) for p in paths]
    say = progress or (lambda _msg: None)
    brain = brain_factory()
    try:
        load_s = brain.warm_up()
        runs = [_run_conversation(brain, conv, ks, prefix, keep, say) for conv in conversations]
        comp = brain.config.policies.composition
        settings = {
            "speakers": "both speakers as role 'user', name = speaker",
            "turn": "one dialog turn = one commit_turn with one message; turn_id = message_id = dia_id",
            "session": "one LoCoMo session = one graphbrain session '<sample_id>:session_<N>'",
            "at": "the session's date_time, read as UTC",
            "images": "blip_caption appended as ' [image: <caption>]'",
            "compose": "brain.compose_context on '<sample_id>:questions' (no turns), now = last session + 1 day",
            "baseline_text": "[<day> <Month> <year>] <speaker>: <text> [image: <caption>]",
            "hybrid_rrf": "RRF of bm25 and dense-english (dense when the English model is off)",
            "compose_evidence_max_items": comp.evidence_max_items,
            "compose_token_limit": comp.token_limit,
            "retrieve_plan": retrieve_plan("<question>", ks[-1]),
            "rrf_k": RRF_K,
            "bm25": "rank_bm25.BM25Okapi (k1 1.5, b 0.75) over graphbrain.nlp.tokenize; matching turns only",
            "token_counter": EstimateCounter.name,
            "embedding_model": brain.embedder.name,
            "embedding_dimension": brain.embedder.dim,
            "english_model": brain.english_embedder.name if brain.english_embedder is not None else None,
            "config_fingerprint": brain.config.fingerprint(),
            "model_load_s": round(load_s, 3),
        }
    finally:
        brain.close()
    return _report(runs, ks, settings)


def _run_conversation(
    brain: Brain, conv: Conversation, ks: list[int], prefix: str, keep: bool, say: Progress
) -> dict[str, Any]:
    ns = conv.namespace(prefix)
    removed = delete_namespace(brain.store, ns)
    say(f"{conv.sample_id}: namespace {ns} (removed {removed} old nodes); committing {len(conv.turns)} turns")
    counter = EstimateCounter()
    top_k = ks[-1]

    with timed_embedder(brain) as timed:
        commit_ms: list[float] = []
        model_ms: list[float] = []
        written = 0
        t_ingest = time.perf_counter()
        for i, turn in enumerate(conv.turns, start=1):
            before = timed.seconds
            t0 = time.perf_counter()
            result = brain.commit_turn(conv.session_id(turn.session), turn_events(turn, ns))
            commit_ms.append(_ms(t0))
            model_ms.append((timed.seconds - before) * 1000.0)
            written += sum(1 for w in result.memory_written if w.action in ("created", "updated", "versioned"))
            if i % 100 == 0:
                say(f"{conv.sample_id}: {i}/{len(conv.turns)} turns")
        ingest_s = time.perf_counter() - t_ingest
    # A commit the database was too busy for is journaled ("accepted, pending"); it is memory all the same
    # once replayed, which the questions must not race.
    replayed = brain.replay_journal() if brain.config.storage.journal else []
    pending = sum(1 for r in replayed if r.status == "committed")
    if pending:
        say(f"{conv.sample_id}: {pending} journaled turns replayed before the questions")
    counts = namespace_counts(brain.store, ns)

    # The baselines index what anyone would: every turn as "[date] speaker: text [image: caption]".
    docs = [(t.dia_id, baseline_text(t)) for t in conv.turns]
    text_of = dict(docs)
    bm25 = BM25Baseline(docs)
    dense = DenseBaseline(docs, brain.embedder)
    english = brain.english_embedder
    dense_en = DenseBaseline(docs, english) if english is not None else None

    now = conv.question_time
    sources = _SourceMap(brain.store, ns, conv.dia_ids)
    # One untimed question first: the server compiles each query plan once.
    brain.compose_context(conv.questions_session_id, "warm-up question?", namespace=ns, now=now)
    brain.retrieve(retrieve_plan("warm-up question?", top_k), namespace=ns)

    say(f"{conv.sample_id}: {len(conv.questions)} questions")
    questions: list[dict[str, Any]] = []
    for q in conv.questions:
        t0 = time.perf_counter()
        package = brain.compose_context(conv.questions_session_id, q.text, namespace=ns, now=now)
        compose_ms = _ms(t0)
        t0 = time.perf_counter()
        pack = brain.retrieve(retrieve_plan(q.text, top_k), namespace=ns)
        retrieve_ms = _ms(t0)
        compose_refs, pack_refs = _package_refs(package), _pack_refs(pack)
        sources.load([r["memory_item_id"] for r in compose_refs + pack_refs if r.get("memory_item_id")])

        snippets = [ev.snippet for ev in package.evidence]
        by_slot = package.constraints.token_budget.by_slot
        runs: dict[str, _SystemRun] = {
            "graphbrain-compose": _SystemRun(
                ids=[sources.dialog_id(r) for r in compose_refs],
                latency_ms=compose_ms,
                tokens={
                    "evidence": counter.count("\n\n".join(snippets)),
                    "evidence_slot": int(by_slot.get("evidence", 0)),
                    "package": int(package.constraints.token_budget.used_estimate),
                },
            ),
            "graphbrain-retrieve": _SystemRun(
                ids=[sources.dialog_id(r) for r in pack_refs],
                latency_ms=retrieve_ms,
                tokens={f"@{k}": counter.count("\n\n".join(ev.snippet for ev in pack.evidences[:k])) for k in ks},
            ),
        }
        t0 = time.perf_counter()
        bm25_ranking = bm25.rank(q.text)
        bm25_ms = _ms(t0)
        t0 = time.perf_counter()
        dense_ranking = dense.rank(q.text)
        dense_ms = _ms(t0)
        t0 = time.perf_counter()
        dense_en_ranking = dense_en.rank(q.text) if dense_en is not None else []
        dense_en_ms = _ms(t0)
        # The hybrid fuses BM25 with the stronger dense ranking for English text, the English model's.
        best_dense, best_dense_ms = (
            (dense_en_ranking, dense_en_ms) if dense_en is not None else (dense_ranking, dense_ms)
        )
        t0 = time.perf_counter()
        hybrid_ranking = rrf([bm25_ranking, best_dense])
        hybrid_ms = bm25_ms + best_dense_ms + _ms(t0)
        for name, ranking, ms in (
            ("bm25", bm25_ranking, bm25_ms),
            ("dense", dense_ranking, dense_ms),
            ("dense-english", dense_en_ranking, dense_en_ms),
            ("hybrid-rrf", hybrid_ranking, hybrid_ms),
        ):
            runs[name] = _SystemRun(
                ids=list(ranking[:top_k]),
                latency_ms=ms,
                tokens={f"@{k}": counter.count("\n\n".join(text_of[d] for d in ranking[:k])) for k in ks},
            )
        system_records: dict[str, dict[str, Any]] = {
            name: {
                "recall": recall_by_k(run.ids, q.evidence, ks),
                "ids": run.ids[:top_k],
                "latency_ms": round(run.latency_ms, 2),
                "tokens": run.tokens,
            }
            for name, run in runs.items()
        }
        system_records["graphbrain-compose"]["steps_ms"] = dict(package.debug.timings_ms)
        questions.append(
            {
                "sample_id": conv.sample_id,
                "index": q.index,
                "category": q.category,
                "question": q.text,
                "evidence": list(q.evidence),
                "dropped_evidence": list(q.dropped_evidence),
                "systems": system_records,
            }
        )
    if not keep:
        delete_namespace(brain.store, ns)
    n_turns = len(conv.turns)
    model_total = sum(model_ms)
    return {
        "sample_id": conv.sample_id,
        "path": conv.path,
        "namespace": ns,
        "kept": keep,
        "speakers": [conv.speaker_a, conv.speaker_b],
        "sessions": len(conv.sessions),
        "turns": n_turns,
        "questions": len(conv.questions),
        "scored": sum(1 for q in conv.questions if q.evidence),
        "unscored": [q.index for q in conv.questions if not q.evidence],
        "dropped_evidence": [
            {"index": q.index, "raw": list(q.dropped_evidence)} for q in conv.questions if q.dropped_evidence
        ],
        "question_time": now.isoformat(),
        "graph": counts,
        "memory_items_written": written,
        "memory_lookups": sources.queries,
        "ingest": {
            "graphbrain": {
                "ms_per_turn": round(ingest_s * 1000.0 / n_turns, 2) if n_turns else None,
                "commit_ms": summarise_latencies(commit_ms),
                "model_share": round(model_total / sum(commit_ms), 3) if commit_ms and sum(commit_ms) else None,
                "outside_model_ms": summarise_latencies([c - m for c, m in zip(commit_ms, model_ms, strict=True)]),
            },
            "bm25": {"ms_per_turn": round(bm25.build_s * 1000.0 / n_turns, 3) if n_turns else None},
            "dense": {"ms_per_turn": round(dense.build_s * 1000.0 / n_turns, 3) if n_turns else None},
            "dense-english": {
                "ms_per_turn": round(dense_en.build_s * 1000.0 / n_turns, 3) if n_turns and dense_en else None
            },
            "hybrid-rrf": {
                "ms_per_turn": round((bm25.build_s + (dense_en or dense).build_s) * 1000.0 / n_turns, 3)
                if n_turns
                else None
            },
        },
        "results": questions,
    }


# =================================================================================== the report
def _scores(questions: Sequence[Mapping[str, Any]], system: str) -> list[QuestionScore]:
    out = []
    for q in questions:
        recall = q["systems"][system]["recall"]
        out.append(QuestionScore(category=int(q["category"]), recall=recall))
    return out


def _token_means(questions: Sequence[Mapping[str, Any]], system: str) -> dict[str, float | None]:
    keys = sorted({k for q in questions for k in q["systems"][system]["tokens"]})
    out: dict[str, float | None] = {}
    for key in keys:
        m = mean(float(q["systems"][system]["tokens"][key]) for q in questions)
        out[key] = None if m is None else round(m, 1)
    return out


def _report(runs: list[dict[str, Any]], ks: list[int], settings: dict[str, Any]) -> dict[str, Any]:
    questions = [q for run in runs for q in run["results"]]
    systems: dict[str, Any] = {}
    for name in SYSTEMS:
        per_turn = [run["ingest"][INGEST_KEY[name]] for run in runs]
        turns = sum(run["turns"] for run in runs)
        ingest_ms = (
            sum((p["ms_per_turn"] or 0.0) * run["turns"] for p, run in zip(per_turn, runs, strict=True)) / turns
            if turns
            else None
        )
        systems[name] = {
            "kind": "graphbrain" if name in GRAPHBRAIN_SYSTEMS else "baseline",
            "recall": aggregate(_scores(questions, name), ks),
            "latency_ms": summarise_latencies(q["systems"][name]["latency_ms"] for q in questions),
            "evidence_tokens": _token_means(questions, name),
            "ingest_ms_per_turn": None if ingest_ms is None else round(ingest_ms, 3),
            "per_conversation": {
                run["sample_id"]: aggregate(_scores(run["results"], name), ks)["overall"] for run in runs
            },
        }
    rows = sorted({row for name in SYSTEMS for row in systems[name]["recall"]}, key=_row_order)
    best: dict[str, dict[str, str | None]] = {}
    ratios: dict[str, dict[str, dict[str, float | None]]] = {name: {} for name in GRAPHBRAIN_SYSTEMS}
    for row in rows:
        best[row] = {}
        for k in ks:
            col = f"r@{k}"
            candidates = [
                (systems[b]["recall"].get(row, {}).get(col), b)
                for b in BASELINE_SYSTEMS
                if systems[b]["recall"].get(row, {}).get(col) is not None
            ]
            top = max(candidates, key=lambda c: (c[0], -BASELINE_SYSTEMS.index(c[1])), default=None)
            best[row][col] = top[1] if top else None
            for name in GRAPHBRAIN_SYSTEMS:
                value = systems[name]["recall"].get(row, {}).get(col)
                r = ratio(value, top[0] if top else None)
                ratios[name].setdefault(row, {})[col] = None if r is None else round(r, 3)
    return {
        "benchmark": "locomo",
        "ks": ks,
        "categories": {str(c): n for c, n in CATEGORY_NAMES.items()},
        "overall_categories": list(ANSWERABLE),
        "settings": settings,
        "conversations": [{k: v for k, v in run.items() if k != "results"} for run in runs],
        "systems": systems,
        "best_baseline": best,
        "ratio_to_best_baseline": ratios,
        "questions": questions,
    }


def _row_order(row: str) -> tuple[int, str]:
    return (99, row) if not row.isdigit() else (int(row), row)


# =================================================================================== entry point
def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main_locomo(
    config_path: str | None,
    namespace: str | None,
    paths: Sequence[str],
    ks: Sequence[int] = DEFAULT_KS,
    as_json: bool = False,
    out: str | None = None,
    backends: Sequence[str] = (),
) -> dict[str, Any]:
    """``graphbrain bench locomo PATH... [--k 5,10,25] [--backends neo4j,embedded] [--json] [--out FILE]``.

    ``namespace`` (the CLI's ``--namespace``) is the prefix of the per-conversation namespaces
    (default ``locomo``). The table (or the JSON with ``as_json``) goes to stdout, progress to stderr;
    ``out`` also writes the full JSON report (every question, every system's top-k ids) to a file.
    With ``backends``, the same run happens on each backend in turn (same data, same models, same
    machine moment) and a side-by-side table of graphbrain's figures on each follows the per-backend ones.
    """
    from graphbrain.bench.report import format_locomo, format_locomo_backends, to_json, write_json
    from graphbrain.brain import Brain

    def run(overrides: dict[str, Any] | None) -> dict[str, Any]:
        return run_locomo(
            lambda: Brain.from_config(config_path, overrides=overrides),
            paths,
            ks,
            namespace_prefix=namespace or "locomo",
            progress=_stderr,
        )

    if not backends:
        report = run(None)
        print(to_json(report) if as_json else format_locomo(report))
    else:
        by_backend = {}
        for backend in backends:
            _stderr(f"== backend {backend}")
            by_backend[backend] = run({"storage.backend": backend})
        report = {"backends": by_backend}
        if as_json:
            print(to_json(report))
        else:
            for backend, r in by_backend.items():
                print(f"=== backend: {backend}")
                print(format_locomo(r))
            print(format_locomo_backends(by_backend))
    if out:
        write_json(report, out)
        _stderr(f"wrote {out}")
    return report
