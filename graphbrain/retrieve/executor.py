"""The RetrievalPlan executor: a plan in, an EvidencePack out (seed-retrieval_plan.md, CONTRACTS.md §4).

    pack = Executor(config, store, lambda: embedder).retrieve(plan, namespace="acme")

Steps, in order:

1. **Parse** the plan (``PlanError`` naming each bad field: no query, unknown mode, negative budget,
   ``from`` after ``to``...). Unknown fields are kept aside and named in ``explain.ignored_fields``.
2. **Jobs**: per query, ``global_filters`` merged with the query's filters (the query's win), resolved
   into the sides to search and Cypher parameters per side (below).
3. **Embed** every text a vector mode needs, in one embedder call (the model loads only if needed).
4. **Search**: each query's mode (``RETRIEVERS``) returns one ``RankedList`` per side it searched.
5. **Fuse** every list of every query (``ranking.fusion``: RRF by default, k 60; per-query weights,
   per-mode ``fusion.weights``); duplicates merge, keeping the best score and the strongest provenance.
6. **Hydrate** the head of the fused list (``max(rerank.top_n, top_k)`` items, ties kept together):
   one query per side reads the text, titles, layers, tags, entities. Tail items that diversity lets
   into the result are hydrated after it; an item deleted meanwhile is dropped (reason ``gone``).
7. **Rerank** the head (``ranking.rerank``: the builtin feature reranker unless a local cross-encoder is
   configured; a named model that cannot run says so in ``warnings``), then **tie-break**
   (``ranking.tie_breaker``).
8. **Diversity and budget**: ``budget.diversity`` caps per document / source / section, ``per_mode_k``
   quotas by provenance mode, ``top_k``.
9. **Evidence**: snippets per ``output`` (never longer than ``max_snippet_chars``), signals, provenance,
   the ``ref`` back to dialog and document ids; ``stats``, ``explain`` and ``warnings`` as they happened.

Sides and filters: see ``retrieve.filters`` (which filter applies to which side, and why).

Budget and ranking fields the plan leaves out take ``policies.retrieval`` from the config (``top_k``,
``candidate_k``, ``per_mode_k``, ``diversity``, ``fusion``, ``rerank``). ``candidate_k`` is the size of
each (query, mode, side) list. Honoured hints: ``min_similarity`` (vector modes), ``hops`` and
``entities`` (relational); other hint keys are named as ignored.

Determinism: every sort has an id tiebreaker and recency is measured against ``now`` (default: the
current minute, UTC), so the same plan against the same data gives the same pack; only
``generated_at``, ``provenance.retrieved_at`` (both the wall clock) and the ``took_ms`` figures differ.
``plan_id`` is a hash of the plan JSON as received (fields as sent, canonical key order).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphbrain.config import BrainConfig, NlpConfig, RetrievalConfig
from graphbrain.contracts import (
    EvidencePack,
    Mode,
    ModeStats,
    Output,
    PackExplain,
    PackStats,
    Query,
    RetrievalPlan,
    TimeRange,
    utcnow,
)
from graphbrain.embedding import Embedder
from graphbrain.errors import EmbeddingError
from graphbrain.nlp import entity_candidates
from graphbrain.retrieve.associative import AssociativeRetriever
from graphbrain.retrieve.base import (
    SIDE_FILE,
    SIDES,
    SUPPLEMENT_LIMIT,
    QueryJob,
    QueryVectors,
    RetrievalContext,
    Retriever,
)
from graphbrain.retrieve.bridges import add_bridges, reach_bridges
from graphbrain.retrieve.candidate import Candidate, Side
from graphbrain.retrieve.diversity import apply_diversity
from graphbrain.retrieve.evidence import fill, to_evidence
from graphbrain.retrieve.exact import ExactRetriever
from graphbrain.retrieve.filters import Report, dedup, resolve_sides, scope_explain
from graphbrain.retrieve.fuse import RankedList, fuse
from graphbrain.retrieve.hybrid import HybridRetriever
from graphbrain.retrieve.neighbours import NEIGHBOUR_POOL, read_neighbours, spread
from graphbrain.retrieve.relational import RelationalRetriever
from graphbrain.retrieve.rerank import TIE_EPSILON, get_reranker, tie_break
from graphbrain.retrieve.semantic import SemanticRetriever
from graphbrain.retrieve.settings import Settings, plan_id_of, plan_json, sent
from graphbrain.retrieve.sifting import evidence_fit, merge_sources
from graphbrain.store.base import Row, Store, Tx, collected

__all__ = ["PROTOCOL_VERSION", "RETRIEVERS", "Executor", "head_size"]

PROTOCOL_VERSION = "0.1"

RETRIEVERS: dict[Mode, type[Retriever]] = {
    Mode.exact: ExactRetriever,
    Mode.semantic: SemanticRetriever,
    Mode.hybrid: HybridRetriever,
    Mode.relational: RelationalRetriever,
    Mode.associative: AssociativeRetriever,
}

# prefer_time ({"from", "to"}, either optional): the reranker lifts evidence from that time, any mode.
VECTOR_HINTS = frozenset({"min_similarity", "prefer_time"})
INFORMATIONAL_HINTS = frozenset({"origin", "reason"})
HONOURED_HINTS: dict[Mode, frozenset[str]] = {
    Mode.exact: frozenset({"prefer_time"}),
    Mode.semantic: VECTOR_HINTS,
    Mode.hybrid: VECTOR_HINTS,
    Mode.associative: VECTOR_HINTS,
    Mode.relational: frozenset({"hops", "entities", "prefer_time"}),
}

MAX_DROPPED_LISTED = 100  # explain.dropped lists this many items; the counts are always complete


@dataclass
class ModeTally:
    candidates: int = 0
    took_ms: float = 0.0


# ---------------------------------------------------------------------------------------- executor
class Executor:
    """Runs RetrievalPlans against one store. Stateless between calls; safe to share."""

    def __init__(
        self,
        config: BrainConfig | RetrievalConfig,
        store: Store,
        embedder_factory: Callable[[], Embedder],
        english_factory: Callable[[], Embedder | None] | None = None,
    ) -> None:
        if isinstance(config, BrainConfig):
            self.config: RetrievalConfig = config.policies.retrieval
            self.nlp: NlpConfig | None = config.nlp
            self.rerank_model_path = config.policies.retrieval.rerank.model_path
        else:
            self.config = config
            self.nlp = None
            self.rerank_model_path = config.rerank.model_path
        self.store = store
        self.embedder_factory = embedder_factory
        self.english_factory = english_factory or (lambda: None)

    # ------------------------------------------------------------------------------------ the verb
    def embed(self, plans: Sequence[RetrievalPlan], vectors: QueryVectors) -> None:
        """Embed into ``vectors``, in one call per model, every query text of ``plans`` that a vector mode
        searches (``retrieve(..., vectors=...)`` then finds them there). A failure is left to ``retrieve``,
        which searches without vectors and says so in the pack's warnings."""
        texts = [q.text for plan in plans for q in plan.queries if RETRIEVERS[q.mode].wants_vector(q.text)]
        with contextlib.suppress(EmbeddingError):
            vectors.embed(texts, self.embedder_factory, self.english_factory)

    def retrieve(
        self,
        plan: RetrievalPlan | Mapping[str, Any] | str,
        *,
        namespace: str,
        now: datetime | None = None,
        vectors: QueryVectors | None = None,
    ) -> EvidencePack:
        """Execute ``plan`` in ``namespace``; see the module docstring for every step and rule.

        ``vectors``: query vectors shared with the request's other plans (``embed``); found ones are reused."""
        started = time.perf_counter()
        parsed = RetrievalPlan.parse(plan)
        received = plan_json(parsed)
        generated_at = utcnow()
        clock = now or generated_at.replace(second=0, microsecond=0)
        report = Report(ignored=parsed.unknown_fields())
        self._check_plan_level(parsed, namespace, report)
        settings = Settings.of(parsed, self.config)
        ctx = RetrievalContext(
            store=self.store,
            namespace=namespace,
            embedder_factory=self.embedder_factory,
            english_factory=self.english_factory,
            config=self.config,
            plan=parsed,
            now=clock,
            nlp=self.nlp,
            vectors=vectors if vectors is not None else QueryVectors(),
        )

        jobs = [self._job(i, q, parsed, settings, namespace, report) for i, q in enumerate(parsed.queries)]
        self._embed(ctx, jobs, report)
        lists, tallies = self._search(ctx, jobs)
        fused, fusion_explain = fuse(lists, settings.fusion)
        kept, dropped, rerank_explain = self._select(ctx, fused, parsed, settings, report)
        self._check_output(parsed.output, report)
        evidences = [to_evidence(c, parsed, generated_at) for c in kept]

        returned = Counter(ev.provenance.mode.value for ev in evidences)
        by_mode = {
            mode.value: ModeStats(
                candidates=tallies[mode].candidates,
                returned=returned[mode.value],
                took_ms=round(tallies[mode].took_ms, 3),
            )
            for mode in Mode
            if mode in tallies
        }
        explain = PackExplain(
            fusion=fusion_explain,
            rerank=rerank_explain,
            filters_applied={"namespace": {"value": namespace}, **report.filters_applied()},
            diversity=_diversity_explain(settings, dropped),
            ignored_fields=dedup(report.ignored),
            dropped=dropped[:MAX_DROPPED_LISTED],
        )
        scope_explain(report, explain)
        return EvidencePack(
            version=PROTOCOL_VERSION,
            plan=received,
            plan_id=plan_id_of(received),
            request_id=parsed.request_id,
            generated_at=generated_at,
            evidences=evidences,
            stats=PackStats(
                candidates=len(fused),
                returned=len(evidences),
                took_ms=round((time.perf_counter() - started) * 1000.0, 3),
                by_mode=by_mode,
            ),
            explain=explain,
            warnings=dedup(report.warnings + ctx.warnings),
        )

    def _select(
        self,
        ctx: RetrievalContext,
        fused: Sequence[Candidate],
        plan: RetrievalPlan,
        settings: Settings,
        report: Report,
    ) -> tuple[list[Candidate], list[dict[str, Any]], dict[str, Any]]:
        """Hydrate, rerank, tie-break, cap: the fused list becomes the kept evidence, plus what was dropped.

        Only the head that rerank and the budget can use is hydrated up front; diversity may let a few tail
        items in (their identity is enough to cap them), which are hydrated after it.
        """
        question = rerank_query(plan)
        relational = any(q.mode == Mode.relational for q in plan.queries)
        # The question's entities, found once: the bridges skip them, the reranker rewards them.
        entities = self._query_entities(question, report) if relational or settings.rerank_enabled else []
        if relational:
            # The conversation's order is graph structure too (NEXT): a relational plan walks it.
            fused = self._spread(ctx, fused, question, entities)
        head = head_size(fused, max(settings.rerank_top_n if settings.rerank_enabled else 0, settings.top_k))
        hydrated, gone = self._hydrate(ctx, fused[:head])
        hydrated, unfit = evidence_fit(hydrated, question, plan)
        pool = hydrated + list(fused[head:])
        ranked, rerank_explain = self._rerank(pool, plan, settings, ctx.now, report, entities)
        if settings.rerank_enabled:
            # One evidence per memory item and its source message (seed §3.4 dedups memory by item id
            # or turn + message); a plan without rerank gets the fused lists as they are.
            ranked, merged = merge_sources(ranked)
            gone += merged
        gone += unfit
        ranked = tie_break(ranked, plan.ranking.tie_breaker, plan.ranking.source_priority or None)
        quotas: dict[Mode | str, int] = {m: k for m, k in settings.per_mode_k.items()}
        kept, dropped = apply_diversity(
            ranked,
            by_document=settings.by_document,
            by_source=settings.by_source,
            by_section=settings.by_section,
            per_mode_k=quotas,
            top_k=settings.top_k,
        )
        done = {id(c) for c in hydrated}
        late = [c for c in kept if id(c) not in done]
        if late:
            late_found, late_gone = self._hydrate(ctx, late)
            _, late_unfit = evidence_fit(late_found, question, plan)
            gone_ids = {d["id"] for d in late_gone + late_unfit}
            kept = [c for c in kept if c.id not in gone_ids]
            gone += late_gone + late_unfit
        return kept, gone + dropped, rerank_explain

    def _spread(
        self, ctx: RetrievalContext, fused: Sequence[Candidate], question: str, question_entities: Sequence[str]
    ) -> list[Candidate]:
        """Turns inherit part of the scores of the turns beside them (``retrieve.neighbours``) and of the
        turns they share a specific entity with (``retrieve.bridges``)."""
        turns = [str(c.metadata["node_id"]) for c in fused if c.side == "turn"][:NEIGHBOUR_POOL]
        if not turns:
            return list(fused)
        # Both spreads start from the fused scores: neither compounds the other's gains. Their reads
        # change nothing, so they share one read transaction (each transaction costs ~0.8 ms of its own).
        reached, neighbours = self.store.read(
            lambda tx: (
                reach_bridges(tx, ctx.namespace, fused, question=question, question_entities=question_entities),
                read_neighbours(tx, ctx.namespace, turns),
            )
        )
        return add_bridges(spread(fused, neighbours), reached)

    # ------------------------------------------------------------------------------------ plan level
    def _check_plan_level(self, plan: RetrievalPlan, namespace: str, report: Report) -> None:
        if plan.namespace is not None and plan.namespace != namespace:
            report.ignored.append("namespace")
            report.warnings.append(
                f"the plan's namespace {plan.namespace!r} was ignored: retrieval runs in the caller's "
                f"namespace {namespace!r}"
            )
        if plan.version.split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
            report.warnings.append(
                f"plan version {plan.version!r}: this executor speaks RetrievalPlan {PROTOCOL_VERSION}; "
                "fields it does not know are ignored"
            )
        if plan.purpose is not None:
            report.ignored.append("purpose (no purpose-specific defaults: the plan's own settings apply)")

    def _check_output(self, output: Output, report: Report) -> None:
        if not output.include_provenance:
            report.ignored.append(
                "output.include_provenance (provenance.mode / query_text / query_index / retrieved_at are "
                "required by the contract; only the relational path is left out)"
            )

    # ------------------------------------------------------------------------------------ jobs
    def _job(
        self,
        index: int,
        query: Query,
        plan: RetrievalPlan,
        settings: Settings,
        namespace: str,
        report: Report,
    ) -> QueryJob:
        merged = plan.global_filters.merged(query.filters)
        sides, params = resolve_sides(index, query, merged, namespace, report)
        for key in sorted(query.hints):
            # origin / reason are the planner's notes on where a query came from: informational only.
            if key not in HONOURED_HINTS[query.mode] and key not in INFORMATIONAL_HINTS:
                report.ignored.append(f"queries[{index}].hints.{key}")
        weight = query.weight
        if query.mode == Mode.associative and not sent(query, "weight"):
            weight = self.config.query_expansion.max_weight
        return QueryJob(
            index=index,
            query=query.model_copy(update={"filters": merged}),
            mode=query.mode,
            weight=weight,
            sides=sides,
            params=params,
            # An expansion only adds the long tail: its head is all fusion can use of it.
            limit=min(settings.candidate_k, SUPPLEMENT_LIMIT)
            if query.mode == Mode.associative
            else settings.candidate_k,
            hints=dict(query.hints),
        )

    # ------------------------------------------------------------------------------------ search
    def _embed(self, ctx: RetrievalContext, jobs: Sequence[QueryJob], report: Report) -> None:
        texts = [job.text for job in jobs if job.sides and RETRIEVERS[job.mode].wants_vector(job.text)]
        if not texts:
            return
        try:
            ctx.embed(texts)
        except EmbeddingError as e:
            report.warnings.append(f"embedding failed, so vector search was skipped: {e}")

    def _search(
        self, ctx: RetrievalContext, jobs: Sequence[QueryJob]
    ) -> tuple[list[RankedList], dict[Mode, ModeTally]]:
        by_job: dict[int, list[RankedList]] = {}
        tallies: dict[Mode, ModeTally] = {}
        # Relational jobs run last: the walk seeds from the other modes' best hits (``ctx.found``).
        for job in sorted(jobs, key=lambda j: j.mode == Mode.relational):
            tally = tallies.setdefault(job.mode, ModeTally())
            t0 = time.perf_counter()
            found = RETRIEVERS[job.mode](ctx).retrieve(job)
            tally.took_ms += (time.perf_counter() - t0) * 1000.0
            tally.candidates += sum(len(lst.candidates) for lst in found)
            by_job[job.index] = found
            ctx.found.extend(found)
        return [lst for job in jobs for lst in by_job.get(job.index, [])], tallies

    # ------------------------------------------------------------------------------------ hydrate
    def _hydrate(
        self, ctx: RetrievalContext, candidates: Sequence[Candidate]
    ) -> tuple[list[Candidate], list[dict[str, Any]]]:
        """Fill candidates in place from the graph (one query per side); those that vanished are dropped."""
        ids: dict[Side, list[str]] = {side: [] for side in SIDES}
        for c in candidates:
            ids[c.side].append(str(c.metadata["node_id"]))

        def work(tx: Tx) -> dict[Side, dict[str, Row]]:
            out: dict[Side, dict[str, Row]] = {}
            for side in SIDES:
                if ids[side]:
                    params = {"ids": ids[side], "namespace": ctx.namespace}
                    rows = collected(tx.run(f"retrieve/hydrate_{SIDE_FILE[side]}", params))
                    out[side] = {str(r["id"]): r for r in rows}
            return out

        found = self.store.read(work) if candidates else {}
        pool: list[Candidate] = []
        gone: list[dict[str, Any]] = []
        for c in candidates:
            row = found.get(c.side, {}).get(str(c.metadata["node_id"]))
            if row is None:
                gone.append({"id": c.id, "reason": "gone", "rule": "deleted meanwhile", "score": c.score})
                continue
            fill(c, row)
            pool.append(c)
        return pool, gone

    # ------------------------------------------------------------------------------------ rerank
    def _rerank(
        self,
        pool: list[Candidate],
        plan: RetrievalPlan,
        settings: Settings,
        now: datetime,
        report: Report,
        query_entities: Sequence[str],
    ) -> tuple[list[Candidate], dict[str, Any]]:
        explain: dict[str, Any] = {
            "enabled": settings.rerank_enabled,
            "model": settings.rerank_model,
            "top_n": settings.rerank_top_n,
            "ran": None,
            "reranked": 0,
        }
        if not settings.rerank_enabled or not pool:
            return pool, explain
        reranker, warns = get_reranker(settings.rerank_model, self.rerank_model_path)
        report.warnings.extend(warns)
        text = rerank_query(plan)
        ranked = reranker.rerank(
            text,
            pool,
            settings.rerank_top_n,
            query_entities=list(query_entities),
            now=now,
            source_priority=plan.ranking.source_priority or None,
            prefer_time=preferred_time(plan, report),
        )
        explain |= {
            "ran": reranker.name,
            "reranked": min(len(pool), settings.rerank_top_n),
            "query": text,
        }
        return ranked, explain

    def _query_entities(self, text: str, report: Report) -> list[str]:
        try:
            return dedup([c.canonical for c in entity_candidates(text, cfg=self.nlp)])
        except Exception as e:  # entity detection only sharpens the rerank; never fail retrieval on it
            report.warnings.append(f"entity detection failed, the reranker used no query entities: {e}")
            return []


# ---------------------------------------------------------------------------------------- free helpers
def _diversity_explain(settings: Settings, dropped: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    reasons = Counter(str(d["reason"]) for d in dropped)
    return {
        "applied": {
            "by_document": settings.by_document,
            "by_source": settings.by_source,
            "by_section": settings.by_section,
            "per_mode_k": {m.value: k for m, k in settings.per_mode_k.items()},
            "top_k": settings.top_k,
        },
        "dropped": dict(sorted(reasons.items())),
        "dropped_total": len(dropped),
        "dropped_listed": min(len(dropped), MAX_DROPPED_LISTED),
    }


def head_size(fused: Sequence[Candidate], n: int) -> int:
    """``n``, stretched to the end of a run of equal scores, so a tie is never split by hydration."""
    n = min(n, len(fused))
    while 0 < n < len(fused) and fused[n - 1].score - fused[n].score <= TIE_EPSILON:
        n += 1
    return n


def preferred_time(plan: RetrievalPlan, report: Report) -> tuple[datetime | None, datetime | None] | None:
    """The span of the first query's ``hints.prefer_time`` (a malformed one is named as ignored)."""
    for i, q in enumerate(plan.queries):
        span = q.hints.get("prefer_time")
        if span is None:
            continue
        try:
            tr = TimeRange.model_validate(span)
        except ValueError:
            report.ignored.append(f"queries[{i}].hints.prefer_time (not a time range)")
            continue
        if tr.from_ is not None or tr.to is not None:
            return (tr.from_, tr.to)
    return None


def rerank_query(plan: RetrievalPlan) -> str:
    """The text the reranker scores against: the plan's heaviest queries (the question, not expansions)."""
    top = max(q.weight for q in plan.queries)
    return "\n".join(dedup([q.text for q in plan.queries if q.weight == top]))
