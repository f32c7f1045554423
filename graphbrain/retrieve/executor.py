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

Sides and filters. A query searches memory items (``memory``), turns (``turns``: Message nodes) and
resources (``resources``: Chunk nodes). Each filter applies to some sides only (``FILTER_SIDES``):

- ``document_ids``, ``tag_ids``, ``topic_ids`` (by id or name), ``source_type``, ``source_uri_prefix``:
  resources only. They are *restricting*: when given, the memory and turn sides are skipped, unless
  ``scope`` names them (then the filter is ignored there, and ``ignored_fields`` says so).
- ``types``, ``status``: memory only, restricting in the same way. ``status`` defaults to ``['active']``.
- ``session_ids``: memory (the item's source session) and turns; restricting (resources have no session).
- ``language``: turns and resources; a memory item has no language, so there it is ignored and named.
  ``zh`` or ``en`` also admits ``mixed`` text (detect_language's label for Chinese-English text).
- ``time_range``: all sides (resources: the document's ``updated_at``; memory: ``updated_at``; turns:
  the message's ``at``), bounds inclusive.
- ``scope`` (graphbrain extension): the sides to search, default all three (less any a restricting
  filter rules out).
- The namespace is always the caller's ``namespace`` argument; a plan ``namespace`` that differs is
  ignored and warned about. An empty filter list counts as not given.

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

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from graphbrain.config import BrainConfig, NlpConfig, RetrievalConfig
from graphbrain.contracts import (
    Evidence,
    EvidenceKind,
    EvidenceMetadata,
    EvidencePack,
    Filters,
    Fusion,
    Mode,
    ModeStats,
    Output,
    PackExplain,
    PackStats,
    Provenance,
    Query,
    Raw,
    RetrievalPlan,
    Signals,
    SourceType,
    TimeRange,
    utcnow,
)
from graphbrain.embedding import Embedder
from graphbrain.errors import EmbeddingError
from graphbrain.nlp import entity_candidates
from graphbrain.retrieve.associative import AssociativeRetriever
from graphbrain.retrieve.base import SIDE_FILE, SIDES, QueryJob, RetrievalContext, Retriever
from graphbrain.retrieve.bridges import add_bridges, reach_bridges
from graphbrain.retrieve.candidate import Candidate, Side
from graphbrain.retrieve.diversity import apply_diversity
from graphbrain.retrieve.exact import ExactRetriever
from graphbrain.retrieve.fuse import RankedList, fuse
from graphbrain.retrieve.hybrid import HybridRetriever
from graphbrain.retrieve.neighbours import NEIGHBOUR_POOL, read_neighbours, spread
from graphbrain.retrieve.relational import RelationalRetriever
from graphbrain.retrieve.rerank import TIE_EPSILON, get_reranker, tie_break
from graphbrain.retrieve.semantic import SemanticRetriever
from graphbrain.retrieve.sifting import evidence_fit, merge_sources
from graphbrain.retrieve.snippets import make_snippet
from graphbrain.store.base import Row, Store, Tx

PROTOCOL_VERSION = "0.1"

RETRIEVERS: dict[Mode, type[Retriever]] = {
    Mode.exact: ExactRetriever,
    Mode.semantic: SemanticRetriever,
    Mode.hybrid: HybridRetriever,
    Mode.relational: RelationalRetriever,
    Mode.associative: AssociativeRetriever,
}

# scope names (wire) <-> sides (internal)
SIDE_OF_SCOPE: dict[str, Side] = {"memory": "memory", "turns": "turn", "resources": "resource"}
SCOPE_OF_SIDE: dict[Side, str] = {v: k for k, v in SIDE_OF_SCOPE.items()}

_ALL: frozenset[Side] = frozenset(SIDES)
FILTER_SIDES: dict[str, frozenset[Side]] = {
    "document_ids": frozenset({"resource"}),
    "tag_ids": frozenset({"resource"}),
    "topic_ids": frozenset({"resource"}),
    "source_type": frozenset({"resource"}),
    "source_uri_prefix": frozenset({"resource"}),
    "language": frozenset({"turn", "resource"}),
    "time_range": _ALL,
    "types": frozenset({"memory"}),
    "status": frozenset({"memory"}),
    "session_ids": frozenset({"memory", "turn"}),
}
# Filters whose presence narrows the sides searched (a side that cannot honour them is skipped).
RESTRICTING = frozenset(FILTER_SIDES) - {"language", "time_range"}

# Why a filter does not apply to a side (for ignored_fields).
_NOT_ON_SIDE: dict[str, str] = {
    "document_ids": "applies to resources only",
    "tag_ids": "applies to resources only",
    "topic_ids": "applies to resources only",
    "source_type": "applies to resources only",
    "source_uri_prefix": "applies to resources only",
    "language": "memory items carry no language",
    "types": "applies to memory items only",
    "status": "applies to memory items only",
    "session_ids": "documents belong to no session",
}

DEFAULT_STATUS = ["active"]
# Language labels that also admit detect_language's "mixed" (Chinese-English) text.
_MIXED_ADMITS = frozenset({"zh", "en"})

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
EXPANSION_LIMIT = 50  # hits kept per associative list (candidate_k for the others)
_SOURCE_TYPES = frozenset({"url", "file", "manual", "memory_snapshot", "other"})
_KINDS: dict[Side, EvidenceKind] = {
    "memory": "memory_chunk",
    "turn": "memory_chunk",
    "resource": "resource_section",
}


# ---------------------------------------------------------------------------------------- helpers
def _dedup(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _set(model: Any, name: str) -> bool:
    return name in model.model_fields_set


def _list_or_none(values: Sequence[Any] | None) -> list[Any] | None:
    """A filter list, or None when it is absent or empty (an empty list counts as not given)."""
    return list(values) if values else None


def _languages(values: Sequence[str] | None) -> list[str] | None:
    if not values:
        return None
    langs = [v.strip().lower() for v in values if v.strip()]
    if any(v in _MIXED_ADMITS for v in langs):
        langs.append("mixed")
    return _dedup(langs) or None


def plan_json(plan: RetrievalPlan) -> dict[str, Any]:
    """The plan as received: the fields that were sent (unknown ones included), JSON-ready."""
    return plan.model_dump(mode="json", by_alias=True, exclude_unset=True)


def plan_id_of(data: Mapping[str, Any]) -> str:
    blob = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "plan_" + hashlib.sha256(blob.encode("utf-8")).hexdigest()[:24]


@dataclass
class Settings:
    """The plan's budget and ranking with the config's policies filling what the plan left out."""

    top_k: int
    candidate_k: int
    per_mode_k: dict[Mode, int]
    by_document: int | None
    by_source: int | None
    by_section: int | None
    fusion: Fusion
    rerank_enabled: bool
    rerank_model: str | None
    rerank_top_n: int

    @classmethod
    def of(cls, plan: RetrievalPlan, cfg: RetrievalConfig) -> Settings:
        budget, ranking = plan.budget, plan.ranking
        div = budget.diversity
        div_sent = _set(budget, "diversity")

        def cap(name: str) -> int | None:
            source = div if div_sent and _set(div, name) else cfg.diversity
            value: int | None = getattr(source, name)
            return value

        fusion = ranking.fusion if _set(ranking, "fusion") else Fusion()
        fusion = Fusion(
            method=fusion.method if _set(fusion, "method") else cfg.fusion.method,
            rrf_k=fusion.rrf_k if _set(fusion, "rrf_k") else cfg.fusion.rrf_k,
            weights=dict(fusion.weights) if _set(fusion, "weights") else dict(cfg.fusion.weights),
        )
        rr = ranking.rerank
        return cls(
            top_k=budget.top_k if _set(budget, "top_k") else cfg.top_k,
            candidate_k=budget.candidate_k if _set(budget, "candidate_k") else cfg.candidate_k,
            per_mode_k=dict(budget.per_mode_k)
            if _set(budget, "per_mode_k")
            else {Mode(k): v for k, v in cfg.per_mode_k.model_dump().items()},
            by_document=cap("by_document"),
            by_source=cap("by_source"),
            by_section=cap("by_section"),
            fusion=fusion,
            rerank_enabled=rr.enabled if _set(rr, "enabled") else cfg.rerank.enabled,
            rerank_model=rr.model if _set(rr, "model") and rr.model else cfg.rerank.model,
            rerank_top_n=rr.top_n if _set(rr, "top_n") else cfg.rerank.top_n,
        )


@dataclass
class Report:
    """What explain and warnings will say, gathered while the plan runs."""

    ignored: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # filter name -> query index -> (value, sides, default?)
    applied: dict[str, dict[int, tuple[Any, set[Side], bool]]] = field(default_factory=dict)
    implied_scope: dict[int, tuple[list[Side], list[str]]] = field(default_factory=dict)

    def apply(self, name: str, query: int, value: Any, side: Side, default: bool = False) -> None:
        per_query = self.applied.setdefault(name, {})
        _, sides, _ = per_query.setdefault(query, (value, set(), default))
        sides.add(side)

    def filters_applied(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, per_query in self.applied.items():
            queries = sorted(per_query)
            values = [per_query[q][0] for q in queries]
            entry: dict[str, Any] = {
                "sides": sorted({SCOPE_OF_SIDE[s] for q in queries for s in per_query[q][1]}),
                "queries": queries,
            }
            if all(v == values[0] for v in values):
                entry["value"] = values[0]
            else:
                entry["value_by_query"] = {str(q): v for q, v in zip(queries, values, strict=True)}
            if all(per_query[q][2] for q in queries):
                entry["default"] = True
            out[name] = entry
        return out


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
    def retrieve(
        self, plan: RetrievalPlan | Mapping[str, Any] | str, *, namespace: str, now: datetime | None = None
    ) -> EvidencePack:
        """Execute ``plan`` in ``namespace``; see the module docstring for every step and rule."""
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
        )

        jobs = [self._job(i, q, parsed, settings, namespace, report) for i, q in enumerate(parsed.queries)]
        self._embed(ctx, jobs, report)
        lists, tallies = self._search(ctx, jobs)
        fused, fusion_explain = fuse(lists, settings.fusion)
        kept, dropped, rerank_explain = self._select(ctx, fused, parsed, settings, report)
        self._check_output(parsed.output, report)
        evidences = [self._evidence(c, parsed, generated_at) for c in kept]

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
            ignored_fields=_dedup(report.ignored),
            dropped=dropped[:MAX_DROPPED_LISTED],
        )
        self._scope_explain(report, explain)
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
            warnings=_dedup(report.warnings + ctx.warnings),
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
        # Both spreads start from the fused scores: neither compounds the other's gains.
        reached = reach_bridges(
            self.store, ctx.namespace, fused, question=question, question_entities=question_entities
        )
        beside = spread(fused, read_neighbours(self.store, ctx.namespace, turns))
        return add_bridges(beside, reached)

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
        sides, params = self._resolve(index, query, merged, namespace, report)
        for key in sorted(query.hints):
            # origin / reason are the planner's notes on where a query came from: informational only.
            if key not in HONOURED_HINTS[query.mode] and key not in INFORMATIONAL_HINTS:
                report.ignored.append(f"queries[{index}].hints.{key}")
        weight = query.weight
        if query.mode == Mode.associative and not _set(query, "weight"):
            weight = self.config.query_expansion.max_weight
        limit = settings.candidate_k
        if query.mode == Mode.associative:
            limit = min(limit, EXPANSION_LIMIT)  # an expansion adds the long tail: its head is what counts
        return QueryJob(
            index=index,
            query=query.model_copy(update={"filters": merged}),
            mode=query.mode,
            weight=weight,
            sides=sides,
            params=params,
            # An expansion only adds the long tail: its head is all fusion can use of it.
            limit=min(settings.candidate_k, EXPANSION_LIMIT)
            if query.mode == Mode.associative
            else settings.candidate_k,
            hints=dict(query.hints),
        )

    def _resolve(
        self, index: int, query: Query, f: Filters, namespace: str, report: Report
    ) -> tuple[tuple[Side, ...], dict[Side, dict[str, Any]]]:
        """The sides one query searches and each side's Cypher parameters; records applied / ignored."""
        given = {
            name: value
            for name in FILTER_SIDES
            if (value := getattr(f, name)) is not None and not (isinstance(value, list) and not value)
        }

        def origin(name: str) -> str:
            own = query.filters is not None and getattr(query.filters, name) is not None
            return f"queries[{index}].filters.{name}" if own else f"global_filters.{name}"

        if f.scope:
            sides = {SIDE_OF_SCOPE[s] for s in f.scope}
            for side in sides:
                report.apply("scope", index, sorted(set(f.scope)), side)
        else:
            sides = set(SIDES)
            narrowing = [n for n in given if n in RESTRICTING]
            for name in narrowing:
                sides &= FILTER_SIDES[name]
            if narrowing and sides != set(SIDES):
                report.implied_scope[index] = ([s for s in SIDES if s in sides], narrowing)
            if not sides:
                report.warnings.append(
                    f"queries[{index}]: the filters {', '.join(narrowing)} apply to no common side, so "
                    "nothing was searched; name the side(s) to search in filters.scope"
                )
        ordered = tuple(s for s in SIDES if s in sides)
        for name in given:
            for side in ordered:
                if side not in FILTER_SIDES[name]:
                    report.ignored.append(f"{origin(name)} ({SCOPE_OF_SIDE[side]}: {_NOT_ON_SIDE[name]})")

        params: dict[Side, dict[str, Any]] = {}
        for side in ordered:
            params[side] = self._side_params(index, side, f, given, namespace, report)
        return ordered, params

    def _side_params(
        self, index: int, side: Side, f: Filters, given: Mapping[str, Any], namespace: str, report: Report
    ) -> dict[str, Any]:
        """Every parameter a ``retrieve/*_<side>`` query takes; None turns a filter off."""
        on = {name for name in given if side in FILTER_SIDES[name]}
        for name in sorted(on):
            value = getattr(f, name)
            shown = value
            if name == "time_range":
                shown = value.model_dump(mode="json", by_alias=True, exclude_none=True)
            elif name == "types":
                shown = [t.value for t in value]
            report.apply(name, index, shown, side)
        tr = f.time_range if "time_range" in on else None
        params: dict[str, Any] = {
            "namespace": namespace,
            "time_from": tr.from_ if tr else None,
            "time_to": tr.to if tr else None,
        }
        if side == "memory":
            statuses = _list_or_none(f.status) if "status" in on else None
            if statuses is None:
                statuses = list(DEFAULT_STATUS)
                report.apply("status", index, DEFAULT_STATUS, side, default=True)
            params |= {
                "types": [t.value for t in f.types] if "types" in on and f.types else None,
                "statuses": statuses,
                "session_ids": _list_or_none(f.session_ids) if "session_ids" in on else None,
            }
        elif side == "turn":
            params |= {
                "session_ids": _list_or_none(f.session_ids) if "session_ids" in on else None,
                "languages": _languages(f.language) if "language" in on else None,
            }
        else:
            params |= {
                "document_ids": _list_or_none(f.document_ids) if "document_ids" in on else None,
                "tag_ids": _list_or_none(f.tag_ids) if "tag_ids" in on else None,
                "topic_ids": _list_or_none(f.topic_ids) if "topic_ids" in on else None,
                "source_types": _list_or_none(f.source_type) if "source_type" in on else None,
                "uri_prefixes": _list_or_none(f.source_uri_prefix) if "source_uri_prefix" in on else None,
                "languages": _languages(f.language) if "language" in on else None,
            }
        return params

    def _scope_explain(self, report: Report, explain: PackExplain) -> None:
        """Report sides narrowed by restricting filters as an implied scope (so no skip goes unsaid)."""
        if not report.implied_scope:
            return
        implied = sorted(report.implied_scope.items())
        entry: dict[str, Any] = {
            "queries": [q for q, _ in implied],
            "value_by_query": {str(q): [SCOPE_OF_SIDE[s] for s in sides] for q, (sides, _) in implied},
            "implied_by": {str(q): names for q, (_, names) in implied},
        }
        if "scope" in explain.filters_applied:
            explain.filters_applied["scope"]["implied"] = entry
        else:
            explain.filters_applied["scope"] = {"implied": entry}

    # ------------------------------------------------------------------------------------ search
    def _embed(self, ctx: RetrievalContext, jobs: Sequence[QueryJob], report: Report) -> None:
        texts = [job.text for job in jobs if job.sides and RETRIEVERS[job.mode].wants_vector(job)]
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
                    rows = tx.run(f"retrieve/hydrate_{SIDE_FILE[side]}", params)
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
            _fill(c, row)
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
            return _dedup([c.canonical for c in entity_candidates(text, cfg=self.nlp)])
        except Exception as e:  # entity detection only sharpens the rerank; never fail retrieval on it
            report.warnings.append(f"entity detection failed, the reranker used no query entities: {e}")
            return []

    # ------------------------------------------------------------------------------------ evidence
    def _evidence(self, c: Candidate, plan: RetrievalPlan, retrieved_at: datetime) -> Evidence:
        out = plan.output
        if out.include_snippets:
            snippet, policy = make_snippet(c, out.snippet_policy, out.max_snippet_chars)
        else:
            snippet, policy = "", out.snippet_policy
        meta = {k: v for k, v in c.metadata.items() if k != "node_id"}
        if plan.debug.trace:
            meta["hits"] = c.hits
            meta["features"] = c.features
        raw = None
        if out.include_raw:
            raw = Raw(content_ref=_content_ref(c), content_hash=c.content_hash or _sha256(c.text))
        return Evidence(
            id=c.id,
            kind=_KINDS[c.side],
            document_id=c.document_id,
            section_id=c.section_id,
            title=c.title,
            source_uri=c.source_uri,
            source_type=_source_type(c.source_type),
            snippet=snippet,
            snippet_policy=policy,
            language=c.language,
            score=c.score,
            signals=Signals(**c.signals) if out.include_signals else Signals(),
            provenance=Provenance(
                mode=c.mode,
                query_text=c.query_text,
                query_index=c.query_index,
                retrieved_at=retrieved_at,
                path=c.path if out.include_provenance else None,
            ),
            metadata=EvidenceMetadata(**meta),
            raw=raw,
            ref=_ref(c),
        )


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
    return "\n".join(_dedup([q.text for q in plan.queries if q.weight == top]))


def _source_type(value: str) -> SourceType:
    return cast(SourceType, value) if value in _SOURCE_TYPES else "other"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _content_ref(c: Candidate) -> str:
    node = c.metadata.get("node_id")
    if c.side == "resource":
        return f"graphbrain://chunk/{node}"
    return c.source_uri


def _fill(c: Candidate, row: Row) -> None:
    """Hydrate one candidate in place from its ``retrieve/hydrate_*`` row."""
    if c.side == "memory":
        c.text = row.get("text") or ""
        c.title = row.get("key")
        c.source_uri = f"graphbrain://memory/{row['id']}"
        c.source_type = "other"
        c.memory_type = row.get("type")
        c.memory_key = row.get("key")
        c.status = row.get("status")
        c.confidence = row.get("confidence")
        c.session_id = row.get("session_id")
        c.turn_id = row.get("turn_id")
        c.message_id = row.get("message_id")
        c.at = row.get("updated_at")
        c.entities = list(row.get("entities") or [])
        c.metadata |= {
            "memory_type": c.memory_type,
            "key": c.memory_key,
            "status": c.status,
            "confidence": c.confidence,
            "version": row.get("version"),
            "updated_at": _iso(row.get("updated_at")),
        }
    elif c.side == "turn":
        c.text = row.get("content") or ""
        c.session_id = row.get("session_id")
        c.turn_id = row.get("turn_id")
        c.language = row.get("language")
        c.at = row.get("at")
        c.title = f"{row.get('role')} · session {row.get('session_id')} · turn {row.get('turn_id')}"
        c.source_uri = f"graphbrain://turn/{row.get('turn_node_id')}#{row.get('message_id')}"
        c.source_type = "other"
        c.entities = sorted(set(row.get("message_entities") or []) | set(row.get("turn_entities") or []))
        c.speaker = row.get("speaker") or None
        c.filler = bool(row.get("filler"))
        c.metadata |= {
            "role": row.get("role"),
            "turn_node_id": row.get("turn_node_id"),
            "message_id": row.get("message_id"),
            "seq": row.get("seq"),
            "position": row.get("position"),
            "at": _iso(row.get("at")),
        }
    else:
        c.text = row.get("text") or ""
        c.title = row.get("title")
        c.source_uri = row.get("source_uri") or ""
        c.source_type = row.get("source_type") or "other"
        c.language = row.get("language")
        c.at = row.get("updated_at")
        c.l0 = row.get("l0") or None
        c.l1 = row.get("l1") or None
        c.tags = list(row.get("tags") or [])
        c.topics = list(row.get("topics") or [])
        c.entities = list(row.get("entities") or [])
        c.content_hash = row.get("content_hash")
        c.metadata |= {
            "chunk_index": row.get("chunk_index"),
            "offset_start": row.get("offset_start"),
            "offset_end": row.get("offset_end"),
            "page": row.get("page"),
            "section_title": row.get("section_title"),
            "heading_path": row.get("heading_path"),
            "tags": c.tags,
            "topics": c.topics,
        }


def _ref(c: Candidate) -> dict[str, Any]:
    """Where the evidence came from, in dialog and document ids, so callers can map it back."""
    if c.side == "memory":
        return {
            "memory_item_id": c.memory_item_id,
            "session_id": c.session_id,
            "turn_id": c.turn_id,
            "message_id": c.message_id,
        }
    if c.side == "turn":
        return {
            "session_id": c.session_id,
            "turn_id": c.turn_id,
            "message_id": c.metadata.get("message_id"),
            "turn_node_id": c.metadata.get("turn_node_id"),
            "message_node_id": c.metadata.get("node_id"),
        }
    return {"document_id": c.document_id, "section_id": c.section_id, "chunk_id": c.metadata.get("node_id")}
