"""compose_context: load → plan → retrieve (both sides) → cross-source rerank → budget → trace.

load      core memory (system blocks), working summary, recent turns, aliases, known sources
plan      Planner (rules): intent, resource trigger, expansion, filters → two RetrievalPlans
retrieve  the question embedded once; the executor for the memory side and, at the same time, the executor
          or a remote SmartRAG for resources
fuse      one rerank over memory + resource evidence so scores compare; dedup (seed §3.4)
compose   compose_slots: fixed slot order, per-slot caps, diversity, coverage, token limit
trace     plan, evidence chosen and dropped, budget figures — stored by context_id
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import TYPE_CHECKING, Any

from graphbrain.commit.pipeline import validate_session_id
from graphbrain.compose.budget import compose_slots
from graphbrain.compose.expand import core_terms, mentions_core
from graphbrain.compose.plan import Planner, expansion_query_indexes
from graphbrain.compose.slots import EvidenceDraft
from graphbrain.compose.tokens import get_counter
from graphbrain.contracts import (
    MAX_MESSAGE_CHARS,
    Block,
    BlockSource,
    ChatTurn,
    ContextDebug,
    ContextPackage,
    Evidence,
    EvidencePack,
    EvidenceProvenance,
    EvidenceRef,
    RetrievalPlan,
    Signals,
    check_json,
    check_text,
    utcnow,
)
from graphbrain.errors import InputError, StoreUnavailable
from graphbrain.ids import new_id, stable_id
from graphbrain.nlp import entity_candidates
from graphbrain.retrieve.base import QueryVectors, index_search, lucene_query
from graphbrain.retrieve.executor import Executor
from graphbrain.retrieve.relational import exact_name_match

if TYPE_CHECKING:
    from graphbrain.config import BrainConfig
    from graphbrain.journal import Journal
    from graphbrain.store import Store, Tx

CORE_PER_TYPE = 6
ALIAS_CANDIDATES = 20  # entity_names hits read for an alias the message says (as the relational seeds do)
BLOCK_TITLES = {
    "profile": ("core_profile", "About the user"),
    "preferences": ("preferences", "Preferences"),
    "goals": ("goals", "Goals"),
    "tasks": ("tasks", "Open tasks"),
    "decisions": ("decisions", "Recent decisions"),
}
FORMAT_BLOCK = (
    "Evidence items are labelled [E1], [E2], … with their source. Cite the label when you use one; "
    "say so when the evidence does not answer the question."
)


def _readable(text: str) -> str:
    """ "[type:key] readable" → "readable (key)": the key stays citable, the bracket noise goes."""
    if text.startswith("[") and "] " in text:
        head, _, rest = text.partition("] ")
        return f"{rest} ({head[1:].split(':', 1)[-1]})"
    return text


class Composer:
    """One compose_context over a config, a store and the executor that retrieves from it.

    It takes what it uses (as the Executor and the Ingestor do), not the Brain, so that compose never
    imports brain.py: ``Brain.composer()`` builds one, and a replay builds one per config.
    """

    def __init__(
        self, config: BrainConfig, store: Store, journal: Callable[[], Journal | None], executor: Executor
    ) -> None:
        self.config = config
        self.store = store
        # A factory: the journal is read only while the graph is down, and opening it creates its file;
        # None when the brain keeps no journal.
        self._journal = journal
        self._retriever = executor  # stateless between calls: both sides of evidence share it

    def compose(
        self,
        session_id: str,
        user_message: str,
        agent_state: dict[str, Any] | None = None,
        *,
        namespace: str,
        now: datetime | None = None,
        store_trace: bool | None = None,
    ) -> ContextPackage:
        t_start = time.perf_counter()
        timings: dict[str, float] = {}
        session_id = validate_session_id(session_id)
        if not isinstance(user_message, str) or not user_message.strip():
            raise InputError("user_message: must be a non-empty string", [{"field": "user_message", "reason": "empty"}])
        if len(user_message) > MAX_MESSAGE_CHARS or "\x00" in user_message:
            raise InputError(
                f"user_message: at most {MAX_MESSAGE_CHARS} characters, no NUL",
                [{"field": "user_message", "reason": "too long or NUL"}],
            )
        if agent_state is not None and not isinstance(agent_state, dict):
            raise InputError("agent_state: must be an object", [{"field": "agent_state", "reason": "not an object"}])
        check_text(user_message, "user_message")
        check_json(agent_state, "agent_state")
        agent_state = agent_state or {}
        now = now or utcnow()
        comp = self.config.policies.composition
        context_id = new_id("ctx")
        session_node_id = stable_id("ses", namespace, session_id)

        # ---------------------------------------------------------------- load
        t = time.perf_counter()
        try:
            loaded = self._load(namespace, session_id, session_node_id, user_message, comp.recent_turns_max)
        except StoreUnavailable as e:
            if not self.config.storage.degraded_compose:
                raise
            return self._degraded(context_id, session_id, user_message, namespace, now, str(e))
        system_blocks = self._system_blocks(loaded["core"])
        summary_row = loaded["summary"][0] if loaded["summary"] else {}
        working_summary = summary_row.get("text") or ""
        recent_turns = [
            ChatTurn(role=r["role"], content=r["content"] or "", turn_id=r["turn_id"])
            for r in loaded["recent"]
            if r["role"] in ("user", "assistant", "tool")
        ]
        sources = {"refs": loaded["refs"], "documents": loaded["documents"]}
        aliases = {r["name"]: [a for a in r["aliases"] if a != r["name"]] for r in loaded["aliases"]}
        timings["load"] = _ms(t)

        # ---------------------------------------------------------------- plan
        t = time.perf_counter()
        planner = Planner(self.config.policies.retrieval, comp, trace=self.config.policies.observability.trace)
        recent_text = [ct.content for ct in recent_turns if ct.role in ("user", "assistant")]
        refs_in_memory = [str(r.get("title") or r.get("uri")) for r in sources["refs"]] + [
            str(r.get("uri")) for r in sources["refs"]
        ]
        known = [
            {"uri": d.get("uri"), "title": d.get("title"), "document_id": d.get("document_id")}
            for d in sources["documents"]
        ]
        planned = planner.plan(
            user_message,
            agent_state,
            now=now,
            recent_turns_text=recent_text,
            aliases=aliases,
            refs_in_memory=refs_in_memory,
            known_sources=known,
            request_id=context_id,
            session_id=session_id,
        )
        timings["plan"] = _ms(t)

        # ---------------------------------------------------------------- retrieve
        t = time.perf_counter()
        warnings: list[str] = []
        resource_pack: EvidencePack | None = None
        remote = self.config.policies.retrieval.remote_executor.url
        resource_plan = planned.resource_plan
        if resource_plan is not None and not remote and not sources["documents"]:
            # The library of this namespace is empty: nothing to search, so no query is sent.
            planned.notes.append("resource search skipped: the namespace's library holds no document")
            resource_plan = None
        # The question is embedded once for both sides; then the two sides are searched at the same time.
        vectors = QueryVectors()
        local = [planned.memory_plan] + ([resource_plan] if resource_plan is not None and not remote else [])
        self._executor().embed(local, vectors)
        if resource_plan is None:
            memory_pack = self._executor().retrieve(planned.memory_plan, namespace=namespace, now=now, vectors=vectors)
        else:
            with ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphbrain-resources") as pool:
                resources = pool.submit(self._resources, resource_plan, namespace, now, vectors)
                memory_pack = self._executor().retrieve(
                    planned.memory_plan, namespace=namespace, now=now, vectors=vectors
                )
                resource_pack = resources.result()
        timings["retrieve"] = _ms(t)
        for pack in (memory_pack, resource_pack):
            if pack is not None:
                warnings += pack.warnings

        # ---------------------------------------------------------------- fuse (cross-source rerank)
        t = time.perf_counter()
        terms = planned.core_terms or core_terms(user_message)
        drafts = self._fuse(
            user_message, terms, planned.memory_plan, memory_pack, planned.resource_plan, resource_pack, now
        )
        timings["fuse"] = _ms(t)

        # ---------------------------------------------------------------- compose
        t = time.perf_counter()
        developer_blocks = [Block(type="format", text=FORMAT_BLOCK)]
        for extra in agent_state.get("developer_blocks") or []:
            if isinstance(extra, str) and extra.strip():
                developer_blocks.append(Block(type="other", text=extra))
        counter = get_counter(comp.tokenizer)
        composed = compose_slots(
            system_blocks=system_blocks,
            developer_blocks=developer_blocks,
            working_summary=working_summary,
            recent_turns=recent_turns,
            evidence=drafts,
            user_message=user_message,
            cfg=comp,
            counter=counter,
        )
        timings["compose"] = _ms(t)

        plans = [p.model_dump(mode="json", by_alias=True, exclude_none=True) for p in planned.plans()]
        ignored = sorted({f for pack in (memory_pack, resource_pack) if pack for f in pack.explain.ignored_fields})
        package = ContextPackage(
            context_id=context_id,
            session_id=session_id,
            namespace=namespace,
            created_at=now,
            **composed.slots(),
            debug=ContextDebug(
                planner=planned.debug(),
                why_selected=composed.why_selected,
                ignored=ignored,
                dropped=composed.dropped,
                timings_ms=timings,
                plans=plans,
                warnings=warnings + composed.warnings,
            ),
        )
        timings["total"] = _ms(t_start)
        self._trace(package, agent_state, namespace, store_trace)
        timings["trace"] = round(_ms(t_start) - timings["total"], 3)
        return package

    # ------------------------------------------------------------------ helpers
    def _load(
        self, namespace: str, session_id: str, session_node_id: str, user_message: str, recent_max: int
    ) -> dict[str, Any]:
        """Everything compose reads before planning, in one read transaction: one query (``compose/load``:
        core memory, working summary, recent turns, known sources, entities named) and the entities named by
        an alias, among the ``entity_names`` full-text hits."""
        names = self._names(user_message)

        def work(tx: Tx) -> dict[str, Any]:
            params = {
                "namespace": namespace,
                "session_id": session_id,  # FalkorDB finds the recent turns by index only from parameters
                "session_node_id": session_node_id,
                "per_type": CORE_PER_TYPE,
                "n": max(recent_max, 1),
                "names": names,
            }
            loaded = dict(tx.run("compose/load", params)[0])
            query = lucene_query(user_message)
            if query is not None:
                hits = index_search(
                    tx, "retrieve/relational_fts_entities", {"namespace": namespace, "fts": query}, ALIAS_CANDIDATES
                )
                wanted = set(names)
                loaded["aliases"] = list(loaded["aliases"]) + [
                    {"name": h["name"], "canonical": h["canonical"], "aliases": list(h.get("aliases") or [])}
                    for h in hits
                    if (h.get("status") or "active") == "active" and exact_name_match(h, wanted) == "alias"
                ]
            return loaded

        return self.store.read(work)

    def _degraded(
        self, context_id: str, session_id: str, user_message: str, namespace: str, now: datetime, why: str
    ) -> ContextPackage:
        """The graph is unreachable: the session's recent turns from the journal, nothing else."""
        comp = self.config.policies.composition
        recent: list[ChatTurn] = []
        journal = self._journal()  # the journal's owner says whether there is one
        if journal is not None:
            for entry in journal.recent(namespace, session_id, max(comp.recent_turns_max, 1)):
                for m in entry.events.get("messages") or []:
                    if m.get("role") in ("user", "assistant", "tool") and m.get("content"):
                        recent.append(ChatTurn(role=m["role"], content=m["content"], turn_id=entry.turn_id))
        composed = compose_slots(
            system_blocks=[],
            developer_blocks=[Block(type="format", text=FORMAT_BLOCK)],
            working_summary="",
            recent_turns=recent,
            evidence=[],
            user_message=user_message,
            cfg=comp,
            counter=get_counter(comp.tokenizer),
        )
        warning = f"degraded: the graph is unreachable ({why}); only the journal's recent turns are included"
        return ContextPackage(
            context_id=context_id,
            session_id=session_id,
            namespace=namespace,
            created_at=now,
            **composed.slots(),
            debug=ContextDebug(warnings=[warning, *composed.warnings], degraded=True),
        )

    def _names(self, message: str) -> list[str]:
        names = {c.canonical for c in entity_candidates(message, cfg=self.config.nlp)}
        names |= {w.casefold() for w in message.split() if len(w) > 2}
        return sorted(names)[:64]

    def _system_blocks(self, rows: list[dict[str, Any]]) -> list[Block]:
        by_type: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            by_type.setdefault(r["type"], []).append(r)
        blocks: list[Block] = []
        for mtype, (block_type, title) in BLOCK_TITLES.items():
            items = by_type.get(mtype)
            if not items:
                continue
            lines = "\n".join(f"- {_readable(i['text'] or '')}" for i in items)
            newest = max(items, key=lambda i: i["updated_at"])
            blocks.append(
                Block(
                    type=block_type,
                    text=f"{title}:\n{lines}",
                    updated_at=newest["updated_at"],
                    source=BlockSource(turn_id=newest.get("source_turn_id"), memory_item_id=newest["id"]),
                )
            )
        return blocks

    def _executor(self) -> Executor:
        # Every caller passes the package's clock (now=): recency, and a replay, see the request's own "now".
        return self._retriever

    def _resources(
        self, plan: RetrievalPlan, namespace: str, now: datetime, vectors: QueryVectors | None = None
    ) -> EvidencePack:
        remote = self.config.policies.retrieval.remote_executor
        if remote.url:
            from graphbrain.retrieve.remote import RemoteExecutor

            token = os.environ.get(remote.token_env) if remote.token_env else None
            return RemoteExecutor(remote.url, timeout_s=remote.timeout_s, token=token).retrieve(plan)
        return self._executor().retrieve(plan, namespace=namespace, now=now, vectors=vectors)

    def _fuse(
        self,
        message: str,
        terms: list[str],
        memory_plan: RetrievalPlan,
        memory_pack: EvidencePack,
        resource_plan: RetrievalPlan | None,
        resource_pack: EvidencePack | None,
        now: datetime,
    ) -> list[EvidenceDraft]:
        """One rerank over both sides so scores compare (seed §3.4); dedup by the seed's keys."""
        pairs: list[tuple[Evidence, str, set[int]]] = []
        for ev in memory_pack.evidences:
            pairs.append((ev, "memory", expansion_query_indexes(memory_plan)))
        if resource_pack is not None and resource_plan is not None:
            for ev in resource_pack.evidences:
                pairs.append((ev, "resource", expansion_query_indexes(resource_plan)))
        seen: dict[str, tuple[Evidence, str, set[int]]] = {}
        for ev, side, exp in pairs:
            key = _dedup_key(ev)
            if key not in seen or ev.score > seen[key][0].score:
                seen[key] = (ev, side, exp)
        # Each side's executor reranked its own evidence with the same features and formula, so local
        # scores compare as they are; a remote executor's are put on that scale (a share of its best).
        remote = self.config.policies.retrieval.remote_executor.url is not None
        best_remote = max((ev.score for ev, side, _ in seen.values() if side == "resource"), default=0.0)
        top_local = max((ev.score for ev, side, _ in seen.values() if side == "memory"), default=1.0)

        def calibrated(ev: Evidence, side: str) -> float:
            if remote and side == "resource" and best_remote > 0:
                return ev.score / best_remote * top_local
            return ev.score

        ranked = sorted(((calibrated(ev, side), ev) for ev, side, _ in seen.values()), key=lambda p: (-p[0], p[1].id))
        drafts: list[EvidenceDraft] = []
        for score, ev in ranked:
            _, side, exp = seen[_dedup_key(ev)]
            signals = ev.signals.model_copy(update={"rerank_score": round(score, 6)})
            drafts.append(
                EvidenceDraft(
                    id=ev.id,
                    source="resource" if side == "resource" else "memory",
                    snippet=ev.snippet,
                    score=round(score, 6),
                    source_uri=ev.source_uri,
                    mode=ev.provenance.mode,
                    title=ev.title,
                    document_id=ev.document_id,
                    covers_core=mentions_core(" ".join(filter(None, [ev.title, ev.snippet])), terms),
                    expansion_only=ev.provenance.query_index in exp,
                    signals=Signals.model_validate(signals.model_dump()),
                    provenance=EvidenceProvenance(
                        request_id=(memory_pack if side == "memory" else resource_pack or memory_pack).request_id,
                        plan_version="0.1",
                        retrieved_at=ev.provenance.retrieved_at,
                        query_text=ev.provenance.query_text,
                        path=ev.provenance.path,
                    ),
                    ref=EvidenceRef(
                        document_id=ev.document_id,
                        section_id=ev.section_id,
                        turn_id=ev.ref.get("turn_id"),
                        message_id=ev.ref.get("message_id"),
                        memory_item_id=ev.ref.get("memory_item_id"),
                    ),
                    payload=ev,
                )
            )
        return drafts

    def _trace(
        self, package: ContextPackage, agent_state: dict[str, Any], namespace: str, store_trace: bool | None
    ) -> None:
        obs = self.config.policies.observability
        if store_trace is False or not obs.trace:
            return
        if obs.trace_sample < 1.0 and random.random() >= obs.trace_sample:
            return
        request = {
            "session_id": package.session_id,
            "user_message": package.user_message.content,
            "agent_state": agent_state,
            "namespace": namespace,
        }
        trace = {
            "evidence": [
                {
                    "id": e.id,
                    "label": e.label,
                    "score": e.score,
                    "source": e.source,
                    "source_uri": e.source_uri,
                    "mode": e.mode.value,
                }
                for e in package.evidence
            ],
            "dropped": package.debug.dropped,
            "token_budget": package.constraints.token_budget.model_dump(),
            "ignored_fields": package.debug.ignored,
            "planner": package.debug.planner,
            "timings_ms": package.debug.timings_ms,
        }
        self.store.run(
            "compose/write_context_trace",
            {
                "context_id": package.context_id,
                "namespace": namespace,
                "session_id": package.session_id,
                "created_at": package.created_at,
                "fingerprint": self.config.fingerprint(),
                "request": json.dumps(request, ensure_ascii=False, default=str),
                "plans": json.dumps(package.debug.plans, ensure_ascii=False, default=str) if obs.store_plans else None,
                "package": package.model_dump_json() if obs.store_contexts else None,
                "trace": json.dumps(trace, ensure_ascii=False, default=str),
            },
            write=True,
        )


def _dedup_key(ev: Evidence) -> str:
    if ev.document_id:
        return f"res:{ev.document_id}:{ev.section_id}:{ev.metadata.chunk_index}"
    if ev.ref.get("memory_item_id"):
        return f"mem:{ev.ref['memory_item_id']}"
    return f"turn:{ev.ref.get('turn_id')}:{ev.ref.get('message_id')}"


def _parse_at(v: Any) -> datetime | None:
    if isinstance(v, datetime):
        return v
    if isinstance(v, str):
        try:
            return datetime.fromisoformat(v)
        except ValueError:
            return None
    return None


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 3)
