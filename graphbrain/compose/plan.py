"""The compose_context planner: rules only, no database and no model call (seed §3.1–§3.3, §3.5).

From the user message (English, Chinese or both), the agent state and what the caller loaded from the
graph (recent turns, entity aliases, refs, known sources), ``Planner.plan`` decides:

- the intent and whether to search resources (``compose.intent``, seed §3.1);
- filters named in the message: a time range (``compose.time``) and a scope (``compose.scope``);
- expansion queries (``compose.expand``, seed §3.3): aliases, sub-topics, keywords;
- the two RetrievalPlans (``build_plans`` here, seed §3.2 defaults): the conversation side and, when
  resources are searched, the resource side.

It returns a ``PlannerOutput``, which is what the trace shows under ``debug.planner``. Every decision
carries a short reason naming the rule (and the cue) that made it; the cue tables are in
``compose.cues``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphbrain.compose.cues import Intent
from graphbrain.compose.expand import Expansion, clip_query, core_terms, expand_queries
from graphbrain.compose.intent import classify_intent, is_chit_chat, should_search_resources
from graphbrain.compose.scope import ScopeFilters, parse_scope
from graphbrain.compose.time import parse_time_range
from graphbrain.config import CompositionConfig, RetrievalConfig
from graphbrain.contracts import (
    Budget,
    Debug,
    Filters,
    Fusion,
    Mode,
    Output,
    PlanDiversity,
    Query,
    Ranking,
    Rerank,
    RetrievalPlan,
    TimeRange,
    check_text,
)
from graphbrain.errors import InputError

PLAN_VERSION = "0.1"
CALLER_APP = "graphbrain"


# ============================================================================================== plans
def _query(text: str, mode: Mode, weight: float, origin: str, reason: str | None = None) -> Query:
    hints: dict[str, Any] = {"origin": origin}
    if reason:
        hints["reason"] = reason
    return Query(text=clip_query(text), mode=mode, weight=weight, hints=hints)


def _prefer(query: Query, time_range: TimeRange | None) -> Query:
    """The query with ``hints.prefer_time``: evidence from that time ranks higher, nothing is excluded."""
    if time_range is None:
        return query
    span = time_range.model_dump(mode="json", by_alias=True, exclude_none=True)
    return query.model_copy(update={"hints": {**query.hints, "prefer_time": span}})


def _ranking(cfg: RetrievalConfig) -> Ranking:
    return Ranking(
        fusion=Fusion(method=cfg.fusion.method, rrf_k=cfg.fusion.rrf_k, weights=dict(cfg.fusion.weights)),
        rerank=Rerank(enabled=cfg.rerank.enabled, model=cfg.rerank.model, top_n=cfg.rerank.top_n),
    )


def expansion_query_indexes(plan: RetrievalPlan) -> set[int]:
    """Indexes of the plan's expansion queries: a hit found only by these is long-tail evidence."""
    return {i for i, q in enumerate(plan.queries) if q.hints.get("origin") == "expansion"}


@dataclass(frozen=True)
class PlanFrame:
    """What both plans of one request share: the purpose, the ids, the trace flag, and the budget,
    ranking and output that the configuration gives."""

    intent: Intent
    retrieval_cfg: RetrievalConfig
    composition_cfg: CompositionConfig
    request_id: str | None
    session_id: str | None
    trace: bool = False

    def plan(self, queries: list[Query], filters: Filters, per_mode_k: dict[Mode, int], notes: str) -> RetrievalPlan:
        """One side's plan: its queries, filters, per-mode k and notes, in this request's frame."""
        rc = self.retrieval_cfg
        div = rc.diversity
        return RetrievalPlan(
            version=PLAN_VERSION,
            request_id=self.request_id,
            purpose=self.intent,
            queries=queries,
            global_filters=filters,
            budget=Budget(
                top_k=rc.top_k,
                candidate_k=rc.candidate_k,
                per_mode_k=per_mode_k,
                diversity=PlanDiversity(
                    by_document=div.by_document, by_source=div.by_source, by_section=div.by_section
                ),
            ),
            ranking=_ranking(rc),
            output=Output(max_snippet_chars=self.composition_cfg.max_snippet_chars),
            debug=Debug(trace=self.trace, notes=notes, caller={"app": CALLER_APP, "session_id": self.session_id}),
        )

    def plans(
        self,
        message: str,
        search_resources: bool,
        expansions: Sequence[Expansion],
        time_range: TimeRange | None,
        scope_filters: ScopeFilters | Mapping[str, Any] | None,
    ) -> tuple[RetrievalPlan, RetrievalPlan | None]:
        """The conversation-side plan and the resource-side plan (``None`` when resources are not searched),
        with the seed §3.2 defaults.

        Memory side: the message as ``exact`` (1.0), ``relational`` (1.0) and ``semantic`` (0.9), then the
        expansions as ``associative``; ``scope: [memory, turns]``; the time range as each message query's
        ``hints.prefer_time`` (a preference: evidence from then ranks higher); per_mode_k exact /
        semantic / relational / associative from ``retrieval.per_mode_k`` (10 each). Resource side: the
        message as ``hybrid`` (1.0) plus the expansions as ``associative``; ``scope: [resources]``, the
        time range and the scope filters; per_mode_k hybrid 30 / associative 10; diversity by_document 3 /
        by_source 10 / by_section from ``retrieval.diversity``. Both: version 0.1, purpose = intent, top_k
        and candidate_k from config, fusion and rerank from config, ``output.max_snippet_chars`` from
        composition, ``debug.caller = {app: graphbrain, session_id}``.
        """
        if not message.strip():
            raise InputError("user_message must not be blank", [{"field": "user_message", "reason": "blank"}])
        pm = self.retrieval_cfg.per_mode_k
        expansion_queries = [
            _query(e.text, Mode.associative, e.weight, "expansion", e.reason) for e in expansions if clip_query(e.text)
        ]
        memory_plan = self.plan(
            [
                _prefer(_query(message, Mode.exact, 1.0, "message"), time_range),
                _prefer(_query(message, Mode.relational, 1.0, "message"), time_range),
                _prefer(_query(message, Mode.semantic, 0.9, "message"), time_range),
                *expansion_queries,
            ],
            # A time the message names is a preference on this side, not a filter: a question names the
            # time of an event ("the camping trip last year") more often than the time it was said.
            Filters(scope=["memory", "turns"]),
            {
                Mode.exact: pm.exact,
                Mode.semantic: pm.semantic,
                Mode.relational: pm.relational,
                Mode.associative: pm.associative,
            },
            "conversation side (memory + turns)",
        )
        if not search_resources:
            return memory_plan, None

        if isinstance(scope_filters, ScopeFilters):
            scope_fields: dict[str, Any] = scope_filters.fields()
        else:
            scope_fields = {k: v for k, v in dict(scope_filters or {}).items() if v}
        resource_plan = self.plan(
            [_query(message, Mode.hybrid, 1.0, "message"), *expansion_queries],
            Filters.model_validate({"scope": ["resources"], "time_range": time_range, **scope_fields}),
            {Mode.hybrid: pm.hybrid, Mode.associative: pm.associative},
            "resource side",
        )
        return memory_plan, resource_plan


def build_plans(
    message: str,
    *,
    intent: Intent,
    search_resources: bool,
    expansions: Sequence[Expansion],
    time_range: TimeRange | None,
    scope_filters: ScopeFilters | Mapping[str, Any] | None,
    retrieval_cfg: RetrievalConfig,
    composition_cfg: CompositionConfig,
    request_id: str | None,
    session_id: str | None,
    trace: bool = False,
) -> tuple[RetrievalPlan, RetrievalPlan | None]:
    """``PlanFrame.plans`` with every input named: the conversation-side plan and the resource-side plan
    (``None`` when resources are not searched)."""
    frame = PlanFrame(intent, retrieval_cfg, composition_cfg, request_id, session_id, trace)
    return frame.plans(message, search_resources, expansions, time_range, scope_filters)


# ============================================================================================ planner
def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat() if dt else None


@dataclass
class PlannerOutput:
    """Every planner decision with its reason: what the trace shows under ``debug.planner``."""

    intent: Intent
    intent_reason: str
    search_resources: bool
    search_reason: str
    time_range: TimeRange | None
    time_phrase: str
    scope: ScopeFilters
    expansions: list[Expansion]
    core_terms: list[str]
    memory_plan: RetrievalPlan
    resource_plan: RetrievalPlan | None
    notes: list[str] = field(default_factory=list)

    @property
    def reason(self) -> str:
        return self.intent_reason

    def plans(self) -> list[RetrievalPlan]:
        return [p for p in (self.memory_plan, self.resource_plan) if p is not None]

    def debug(self) -> dict[str, Any]:
        """JSON-ready ``debug.planner``: intent, reason, the resource decision, filters, expansions and
        the queries of both plans."""
        tr = self.time_range
        return {
            "intent": self.intent,
            "reason": self.intent_reason,
            "search_resources": self.search_resources,
            "search_reason": self.search_reason,
            "time_range": {"from": _iso(tr.from_), "to": _iso(tr.to)} if tr else None,
            "time_phrase": self.time_phrase,
            "scope": {**self.scope.fields(), "phrase": self.scope.phrase, "reason": self.scope.reason}
            if not self.scope.empty
            else None,
            "expansions": [e._asdict() for e in self.expansions],
            "core_terms": list(self.core_terms),
            "queries": {
                side: [{"text": q.text, "mode": q.mode.value, "weight": q.weight, **q.hints} for q in plan.queries]
                for side, plan in (("memory", self.memory_plan), ("resource", self.resource_plan))
                if plan is not None
            },
            "notes": list(self.notes),
        }


@dataclass
class Planner:
    """The planner with its configuration: ``plan`` runs every planner rule for one message."""

    retrieval_cfg: RetrievalConfig = field(default_factory=RetrievalConfig)
    composition_cfg: CompositionConfig = field(default_factory=CompositionConfig)
    trace: bool = False

    def plan(
        self,
        message: str,
        agent_state: Mapping[str, Any] | None = None,
        *,
        now: datetime | None = None,
        recent_turns_text: Sequence[str] = (),
        aliases: Mapping[str, Sequence[str]] | None = None,
        refs_in_memory: Sequence[str] = (),
        known_sources: Sequence[Mapping[str, Any]] = (),
        request_id: str | None = None,
        session_id: str | None = None,
    ) -> PlannerOutput:
        notes: list[str] = []
        # The message becomes query text as it is: what no query may hold is the caller's to fix.
        check_text(message, "user_message")
        if "\x00" in message:
            reason = "must not contain NUL characters"
            raise InputError(f"user_message: {reason}", [{"field": "user_message", "reason": reason}])
        intent, intent_reason = classify_intent(message, agent_state)
        search, search_reason = should_search_resources(
            message,
            intent,
            recent_turns_text=recent_turns_text,
            refs_in_memory=refs_in_memory,
            setting=self.retrieval_cfg.enable_resource_retrieval,
        )
        time_range, time_phrase = parse_time_range(message, now)
        scope = parse_scope(message, known_sources)
        if is_chit_chat(message):
            # Nothing to associate from; the conversation side still runs for continuity.
            expansions: list[Expansion] = []
            notes.append("expansion skipped: chit-chat")
        else:
            expansions = expand_queries(
                message,
                aliases=aliases,
                recent_turns_text=recent_turns_text,
                cfg=self.retrieval_cfg.query_expansion,
            )
        if not search and not scope.empty:
            notes.append("scope ignored: resources are not searched")
        frame = PlanFrame(intent, self.retrieval_cfg, self.composition_cfg, request_id, session_id, self.trace)
        memory_plan, resource_plan = frame.plans(message, search, expansions, time_range, scope)
        return PlannerOutput(
            intent=intent,
            intent_reason=intent_reason,
            search_resources=search,
            search_reason=search_reason,
            time_range=time_range,
            time_phrase=time_phrase,
            scope=scope,
            expansions=expansions,
            core_terms=core_terms(message),
            memory_plan=memory_plan,
            resource_plan=resource_plan,
            notes=notes,
        )


__all__ = [
    "Planner",
    "PlanFrame",
    "PlannerOutput",
    "build_plans",
    "expansion_query_indexes",
]
