"""commit_turn: record the turn as truth, distil it into typed memory, keep the summary current.

    parse → (duplicate?) → extract → retention gate → entity gate → embed (one batch)
          → ONE write transaction: session lock + seq, key locks + active items, conflicts,
            turn/messages/tool calls/refs, memory items, entities, summary, trace

The write runs as one managed transaction (all or nothing, retried on transient errors); the
function it runs rebuilds its result from scratch so a retry is safe.
"""

from __future__ import annotations

import json
import logging
import random
import time
import uuid
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from graphbrain.commit import consolidate
from graphbrain.commit.conflicts import resolve
from graphbrain.commit.events import TurnRecord, build_turn, turn_text
from graphbrain.commit.extract import (
    Candidate,
    ExtractionContext,
    classify_utterance,
    explicit_to_candidate,
    extract,
)
from graphbrain.commit.retention import EntityGate, gate
from graphbrain.config import BrainConfig
from graphbrain.contracts import (
    CommitExplain,
    CommitResult,
    ConflictDecision,
    MemoryType,
    MemoryWritten,
    RetentionDecision,
    SummaryInfo,
    TurnEvents,
    check_text,
    utcnow,
)
from graphbrain.errors import ConstraintViolation, EmbeddingError, InputError
from graphbrain.ids import entity_id, new_id, stable_id
from graphbrain.nlp import canonicalize, detect_language, entity_candidates, estimate_tokens
from graphbrain.store import Store, Tx, Undo

log = logging.getLogger(__name__)

# Types whose active items extraction may refer to (status changes, retractions, overwrites).
CONTEXT_TYPES = ["tasks", "preferences", "goals", "decisions", "profile", "events"]
CONTEXT_LIMIT = 300
MAX_EMBED_CHARS = 2000


def _json(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)


def _loads(s: str | None) -> dict[str, Any]:
    try:
        v = json.loads(s or "{}")
        return v if isinstance(v, dict) else {}
    except ValueError:
        return {}


def _locked_keys(planned: list[_Planned]) -> list[str]:
    """The memory keys a commit writes or retracts, sorted (the lock order that avoids deadlocks)."""
    return sorted({p.cand.key for p in planned} | {p.cand.retracts_key for p in planned if p.cand.retracts_key})


def _entity_pairs(entities: list[_EntityPlan]) -> list[list[str]]:
    """The co-mentioned entity pairs a commit relates (capped: a turn naming 30 things is not 435 facts)."""
    return [[a.id, b.id] for a, b in combinations(sorted(entities, key=lambda x: x.id), 2)][:200]


def validate_session_id(session_id: Any) -> str:
    if not isinstance(session_id, str) or not session_id.strip():
        raise InputError("session_id: must be a non-empty string", [{"field": "session_id", "reason": "empty"}])
    if len(session_id) > 256 or any(ord(c) < 32 for c in session_id):
        raise InputError(
            "session_id: at most 256 printable characters",
            [{"field": "session_id", "reason": "too long or control characters"}],
        )
    check_text(session_id, "session_id")  # a lone surrogate cannot be hashed, journaled or stored
    return session_id


@dataclass
class _Planned:
    """A kept candidate, ready to be resolved against the active item of its key."""

    cand: Candidate
    message_pos: int | None
    confidence: float


@dataclass
class _EntityPlan:
    id: str
    key: str
    lock_id: str
    kind: str
    canonical: str
    name: str
    count: int
    message_id: str | None
    mentions: list[dict[str, Any]] = field(default_factory=list)
    memory_ids: list[str] = field(default_factory=list)
    reason: str = ""


class CommitPipeline:
    def __init__(self, config: BrainConfig, store: Store, embedder_factory: Any) -> None:
        self.config = config
        self.store = store
        self._embedder_factory = embedder_factory

    # ------------------------------------------------------------------ public
    def commit(self, session_id: str, turn_events: Any) -> CommitResult:
        t0 = time.perf_counter()
        session_id = validate_session_id(session_id)
        ev = TurnEvents.parse(turn_events)
        ns = ev.namespace or self.config.namespace
        at = ev.at or utcnow()
        turn_id = ev.turn_id or uuid.uuid4().hex
        rec = build_turn(ns, session_id, turn_id, at, ev)

        # Entity candidates need no database; collect them first so one read transaction can fetch
        # everything the gates and extraction need (duplicate check, session state, active items,
        # known entities) in a single round of queries.
        found, signals = self._entity_candidates(rec)
        window = self.config.policies.retention.entity_gate.window_turns

        def pre_read(tx: Tx) -> dict[str, list[dict[str, Any]]]:
            dup = tx.run("commit/turn_exists", {"turn_node_id": rec.turn_node_id})
            if dup:
                return {"dup": dup}
            return {
                "dup": [],
                "state": tx.run("commit/session_state", {"session_node_id": rec.session_node_id, "window": window}),
                "context": tx.run(
                    "commit/context_items", {"namespace": ns, "types": CONTEXT_TYPES, "limit": CONTEXT_LIMIT}
                ),
                "entities": tx.run("commit/existing_entities", {"namespace": ns, "canonicals": sorted(found)})
                if found
                else [],
            }

        pre = self.store.read(pre_read)
        if pre["dup"]:
            return self._duplicate(rec, pre["dup"][0])
        state = pre["state"][0] if pre["state"] else {}
        context_rows = pre["context"]
        project = ev.metadata.get("project") if isinstance(ev.metadata.get("project"), str) else None
        context = ExtractionContext(
            # oldest first: the last one is what a bare "no, that's wrong" refers to
            active_items=[(r["type"], r["key"], _loads(r["value_json"])) for r in reversed(context_rows)],
            known_projects=[project] if project else (),
            default_project=project,
            now=at,
            nlp=self.config.nlp,
        )

        explain = CommitExplain()
        planned = self._extract(rec, ev, context, explain)
        entities, all_entity_keys = self._gate_entities(rec, found, signals, pre["entities"], planned, state, explain)

        # One model call per commit: messages, memory items and new entities together.
        warnings: list[str] = []
        texts: list[str] = [m["content"][:MAX_EMBED_CHARS] for m in rec.messages]
        texts += [p.cand.searchable_text() for p in planned]
        texts += [e.name for e in entities]
        vectors = self._embed(texts, warnings)
        for i, m in enumerate(rec.messages):
            m["embedding"] = vectors[i] if vectors and m["content"].strip() else None
            m["language"] = detect_language(m["content"]) if m["content"] else None
        n_msg = len(rec.messages)
        item_vectors = vectors[n_msg : n_msg + len(planned)] if vectors else [None] * len(planned)
        entity_vectors = vectors[n_msg + len(planned) :] if vectors else [None] * len(entities)

        commit_id = new_id("commit")
        # Decided once, outside the transaction, so a retried transaction makes the same choice.
        obs = self.config.policies.observability
        store_trace = obs.trace and (obs.trace_sample >= 1.0 or random.random() < obs.trace_sample)
        turn_tokens = estimate_tokens(turn_text(rec))

        def work(tx: Tx) -> CommitResult:
            return self._write(
                tx,
                rec,
                planned,
                item_vectors,
                entities,
                entity_vectors,
                all_entity_keys,
                commit_id,
                turn_tokens,
                store_trace,
                explain.model_copy(deep=True),
                warnings,
            )

        # Where the database cannot roll a failed write back (embedded), this says how to take it back.
        undo = Undo(
            capture="undo/commit_capture",
            apply="undo/commit",
            params={
                "turn_node_id": rec.turn_node_id,
                "commit_id": commit_id,
                "session_node_id": rec.session_node_id,
                "lock_ids": [f"{ns}|{k}" for k in _locked_keys(planned)],
                "entity_ids": [e.id for e in entities],
                "pairs": _entity_pairs(entities),
                "ref_ids": [r["id"] for r in rec.refs],
            },
        )
        try:
            result = self.store.write(work, undo=undo)
        except ConstraintViolation:
            # Another writer committed this very turn between our duplicate check and our write (a
            # replay racing the original, or a client retrying elsewhere): a constraint refused ours,
            # and if the turn is there now, ours is a duplicate of it.
            dup = self.store.run("commit/turn_exists", {"turn_node_id": rec.turn_node_id})
            if dup:
                return self._duplicate(rec, dup[0])
            raise
        result.explain.refs = self._ingest_refs(rec)
        result.took_ms = round((time.perf_counter() - t0) * 1000, 2)
        return result

    def _ingest_refs(self, rec: TurnRecord) -> list[dict[str, Any]]:
        """Refs are always recorded (above); by policy the worthwhile ones also become resources.

        This runs after the commit transaction: a slow or failing fetch never holds the turn back.
        """
        if not rec.refs:
            return []
        from graphbrain.resources.ingest import Ingestor
        from graphbrain.resources.refs_ingest import ingest_turn_refs

        ingestor = Ingestor(self.config, self.store, self._embedder_factory)
        outcomes = ingest_turn_refs(
            ingestor, rec.refs, namespace=rec.namespace, policy=self.config.policies.retention.ingest_refs
        )
        return [{"recorded": True, **o} for o in outcomes]

    # ------------------------------------------------------------------ extraction + gates
    def _extract(
        self, rec: TurnRecord, ev: TurnEvents, context: ExtractionContext, explain: CommitExplain
    ) -> list[_Planned]:
        planned: list[_Planned] = []
        for pos, m in enumerate(ev.messages):
            if not m.content.strip() or m.role == "system":
                continue
            utterance = classify_utterance(m.content)
            cands = extract(m.content, m.role, context=context)
            kept, dropped = gate(cands, role=m.role, utterance_class=utterance, cfg=self.config.policies.retention)
            for c, reason in dropped:
                explain.retention.append(
                    RetentionDecision(type=c.type.value, key=c.key, text=c.text, kept=False, reason=reason)
                )
            if not cands and utterance in ("chit_chat", "emotion", "speculation"):
                explain.retention.append(
                    RetentionDecision(
                        type="event_only",
                        text=m.content[:200],
                        kept=False,
                        reason=f"{utterance}: recorded in the EventStore only",
                    )
                )
            for c in kept:
                planned.append(_Planned(c, pos, float(c.confidence or 0.0)))
        for item in ev.items:
            c = explicit_to_candidate(item)
            kept, dropped = gate(
                [c],
                role="tool" if item.source == "tool" else item.source,
                utterance_class="statement",
                cfg=self.config.policies.retention,
            )
            for d, reason in dropped:
                explain.retention.append(
                    RetentionDecision(type=d.type.value, key=d.key, text=d.text, kept=False, reason=reason)
                )
            for k in kept:
                planned.append(_Planned(k, None, float(k.confidence or 0.0)))
        for p in planned:
            explain.retention.append(
                RetentionDecision(
                    type=p.cand.type.value,
                    key=p.cand.key,
                    text=p.cand.text,
                    kept=True,
                    reason=p.cand.reason,
                    confidence=p.confidence,
                )
            )
        return planned

    def _entity_candidates(self, rec: TurnRecord) -> tuple[dict[str, _EntityPlan], dict[str, set[str]]]:
        """Every entity candidate of the turn (messages and refs), by canonical name, with its signals."""
        found: dict[str, _EntityPlan] = {}
        per_key_signals: dict[str, set[str]] = {}  # by canonical name
        # Keyed by canonical name: one real thing is one node even when NER gives it another kind
        # in another sentence (the first kind seen names the key).
        for m in rec.messages:
            if not m["content"] or m["role"] == "tool":
                continue
            for ec in entity_candidates(m["content"], detect_language(m["content"]), cfg=self.config.nlp):
                plan = found.get(ec.canonical)
                if plan is None:
                    key = f"entity:{ec.kind}:{ec.canonical}"
                    plan = _EntityPlan(
                        id=entity_id(rec.namespace, ec.canonical),
                        key=key,
                        lock_id=f"{rec.namespace}|{key}",
                        kind=ec.kind,
                        canonical=ec.canonical,
                        name=ec.name,
                        count=0,
                        message_id=m["message_id"],
                    )
                    found[ec.canonical] = plan
                plan.count += 1
                plan.mentions.append({"message_node_id": m["id"], "start": ec.start, "end": ec.end, "text": ec.name})
                per_key_signals.setdefault(ec.canonical, set()).add(ec.signal)
        for ref in rec.refs:
            # Refs are structural: a URL or file named in a turn is an entity on first sight.
            kind = "url" if ref["type"] == "url" else ("file" if ref["type"] == "file" else "other")
            canonical = canonicalize(ref["uri"], kind)
            if canonical not in found:
                key = f"entity:{kind}:{canonical}"
                found[canonical] = _EntityPlan(
                    id=entity_id(rec.namespace, canonical),
                    key=key,
                    lock_id=f"{rec.namespace}|{key}",
                    kind=kind,
                    canonical=canonical,
                    name=ref["title"] or ref["uri"],
                    count=1,
                    message_id=None,
                )
            per_key_signals.setdefault(canonical, set()).add("ref")
        return found, per_key_signals

    def _gate_entities(
        self,
        rec: TurnRecord,
        found: dict[str, _EntityPlan],
        per_key_signals: dict[str, set[str]],
        existing_rows: list[dict[str, Any]],
        planned: list[_Planned],
        state: dict[str, Any],
        explain: CommitExplain,
    ) -> tuple[list[_EntityPlan], list[str]]:
        """The entity gate (seed §1.3): known entities pass; new ones need frequency or a structural signal."""
        gcfg = self.config.policies.retention.entity_gate
        structural_text = " ".join(
            p.cand.text for p in planned if p.cand.type in (MemoryType.tasks, MemoryType.decisions)
        )
        all_keys = sorted(found)
        if not found:
            return [], all_keys
        existing = set()
        for row in existing_rows:
            plan = found[row["canonical"]]
            plan.id, plan.key, plan.kind = row["id"], row["key"], row["kind"]
            plan.lock_id = f"{rec.namespace}|{row['key']}"
            existing.add(row["canonical"])
        window_counts: dict[str, int] = {}
        for keys in state.get("window_keys") or []:
            for k in set(keys or []):
                window_counts[k] = window_counts.get(k, 0) + 1
        egate = EntityGate(gcfg)
        passed: list[_EntityPlan] = []
        for key, plan in sorted(found.items()):
            if key in existing:
                ok, reason = True, "already known"
            else:
                ok, reason = egate.decide(
                    name=plan.name,
                    kind=plan.kind,
                    signals=per_key_signals.get(key, set()),
                    window_count=window_counts.get(key, 0) + 1,
                    in_task_or_decision=plan.name.casefold() in structural_text.casefold(),
                )
            plan.reason = reason
            explain.entities.append({"key": key, "name": plan.name, "passed": ok, "reason": reason})
            if ok:
                passed.append(plan)
        return passed, all_keys

    def _embed(self, texts: list[str], warnings: list[str]) -> list[list[float] | None] | None:
        if not texts:
            return []
        try:
            vectors = self._embedder_factory().embed([t or " " for t in texts])
            return list(vectors)
        except EmbeddingError as e:
            # The turn is still stored; `graphbrain reindex` fills the missing vectors later.
            warnings.append(f"embedding failed, stored without vectors: {e}")
            log.warning("embedding failed: %s", e)
            return None

    # ------------------------------------------------------------------ the write transaction
    def _write(
        self,
        tx: Tx,
        rec: TurnRecord,
        planned: list[_Planned],
        item_vectors: list[Any],
        entities: list[_EntityPlan],
        entity_vectors: list[Any],
        all_entity_keys: list[str],
        commit_id: str,
        turn_tokens: int,
        store_trace: bool,
        explain: CommitExplain,
        warnings: list[str],
    ) -> CommitResult:
        ns = rec.namespace
        at = rec.at
        lock = tx.run(
            "commit/lock_session",
            {
                "session_node_id": rec.session_node_id,
                "namespace": ns,
                "session_id": rec.session_id,
                "at": at,
            },
        )[0]
        seq = int(lock["seq"])

        keys = _locked_keys(planned)
        active: dict[str, dict[str, Any]] = {}
        if keys:
            rows = tx.run(
                "commit/lock_keys",
                {
                    "namespace": ns,
                    "keys": [{"key": k, "lock_id": f"{ns}|{k}"} for k in keys],
                },
            )
            active = {r["key"]: r for r in rows if r.get("id")}

        items: list[dict[str, Any]] = []
        retract_only: list[dict[str, Any]] = []
        written: list[MemoryWritten] = []
        stage_events: list[str] = []
        for p, vec in zip(planned, item_vectors, strict=True):
            c = p.cand
            target_key = c.retracts_key or c.key
            old = active.get(target_key)
            old_value = _loads(old["value_json"]) if old else None
            res = resolve(c.type, old_value, c.value if c.value else None, retraction=c.retracts)
            if res.action == "unchanged":
                explain.conflicts.append(
                    ConflictDecision(
                        key=c.key,
                        type=c.type.value,
                        action="unchanged",
                        old_id=old["id"] if old else None,
                        reason=res.reason,
                    )
                )
                continue
            if c.retracts and old and (not res.write_new or c.key != target_key):
                retract_only.append({"id": old["id"], "at": at})
                explain.conflicts.append(
                    ConflictDecision(
                        key=target_key,
                        type=c.type.value,
                        action="retracted",
                        old_id=old["id"],
                        old_value=old_value,
                        new_value=c.value or None,
                        reason=res.reason,
                    )
                )
                written.append(
                    MemoryWritten(
                        id=old["id"],
                        type=c.type,
                        key=target_key,
                        confidence=float(old.get("confidence") or 0),
                        status="retracted",
                        action="retracted",
                    )
                )
                active.pop(target_key, None)
                if not res.write_new:
                    continue
                old, old_value = active.get(c.key), None
                if old:
                    old_value = _loads(old["value_json"])
                    res = resolve(c.type, old_value, c.value)
                    if res.action == "unchanged":
                        continue
            item_id = new_id("mem")
            version = int(old.get("version") or 1) + 1 if old else 1
            msg_pos = p.message_pos
            items.append(
                {
                    "id": item_id,
                    "type": c.type.value,
                    "lock_id": f"{ns}|{c.key}",
                    "old_id": old["id"] if old and res.old_status else None,
                    "old_status": res.old_status if old else None,
                    "edge": res.edge if old else None,
                    "at": at,
                    "created_at": at,
                    "embedding": vec,
                    "message_node_id": rec.messages[msg_pos]["id"] if msg_pos is not None else None,
                    "props": {
                        "type": c.type.value,
                        "key": c.key,
                        "value_json": _json(c.value),
                        "text": c.searchable_text(),
                        "confidence": round(p.confidence, 4),
                        "status": "active",
                        "source": c.source,
                        "source_session_id": rec.session_id,
                        "source_turn_id": rec.turn_id,
                        "source_message_id": rec.messages[msg_pos]["message_id"] if msg_pos is not None else None,
                        "evidence_refs": list(c.evidence_refs),
                        "version": version,
                        "rule": c.reason,
                        "missing_embedding": vec is None,
                        "task_status": c.value.get("status") if c.type == MemoryType.tasks else None,
                    },
                }
            )
            if old and res.old_status:
                explain.conflicts.append(
                    ConflictDecision(
                        key=c.key,
                        type=c.type.value,
                        action=res.action if res.action != "created" else "superseded",
                        old_id=old["id"],
                        new_id=item_id,
                        old_value=old_value,
                        new_value=c.value,
                        reason=res.reason,
                    )
                )
                written.append(
                    MemoryWritten(
                        id=old["id"],
                        type=c.type,
                        key=c.key,
                        confidence=float(old.get("confidence") or 0),
                        status=res.old_status,
                        action=res.old_status,
                    )
                )
            action = "created" if not old else ("versioned" if res.edge == "VERSION_OF" else "updated")
            written.append(
                MemoryWritten(
                    id=item_id,
                    type=c.type,
                    key=c.key,
                    confidence=round(p.confidence, 4),
                    status="active",
                    action=action,
                )
            )
            # The item now holds the key: a later candidate in this turn resolves against it.
            active[c.key] = {
                "id": item_id,
                "value_json": _json(c.value),
                "version": version,
                "confidence": p.confidence,
            }
            if c.type == MemoryType.tasks and c.value.get("status") == "done":
                stage_events.append(f"task done: {c.key}")
            elif c.type == MemoryType.decisions:
                stage_events.append(f"decision made: {c.key}")
            elif c.type == MemoryType.events:
                stage_events.append(f"event: {c.key}")

        tx.run(
            "commit/write_turn",
            {
                "session_node_id": rec.session_node_id,
                "namespace": ns,
                "session_id": rec.session_id,
                "turn": {
                    "id": rec.turn_node_id,
                    "turn_id": rec.turn_id,
                    "seq": seq,
                    "at": at,
                    "commit_id": commit_id,
                    "entity_keys": all_entity_keys,
                    "text": turn_text(rec)[:MAX_EMBED_CHARS],
                    "metadata_json": _json(rec.metadata) if rec.metadata else None,
                    "items_json": rec.items_json,
                },
                "messages": rec.messages,
                "refs": rec.refs,
            },
        )
        if retract_only:
            tx.run("commit/retract_items", {"items": retract_only, "turn_node_id": rec.turn_node_id})
        if items:
            tx.run("commit/write_memory", {"turn_node_id": rec.turn_node_id, "namespace": ns, "items": items})

        if entities:
            rows = []
            for e, vec in zip(entities, entity_vectors, strict=True):
                mem_ids = [it["id"] for it in items if e.name.casefold() in it["props"]["text"].casefold()]
                rows.append(
                    {
                        "id": e.id,
                        "key": e.key,
                        "lock_id": e.lock_id,
                        "kind": e.kind,
                        "canonical": e.canonical,
                        "name": e.name,
                        "count": e.count,
                        "message_id": e.message_id,
                        "mentions": e.mentions,
                        "memory_ids": mem_ids,
                        "at": at,
                        "embedding": vec,
                        "confidence": self.config.policies.retention.confidence.user_asserted,
                        "value_json": _json({"name": e.name, "kind": e.kind, "canonical": e.canonical}),
                    }
                )
            tx.run(
                "commit/write_entities",
                {
                    "turn_node_id": rec.turn_node_id,
                    "namespace": ns,
                    "session_id": rec.session_id,
                    "entities": rows,
                },
            )
            pairs = _entity_pairs(entities)
            if pairs:
                tx.run("commit/relate_entities", {"pairs": pairs, "at": at})

        summary = self._summary(tx, rec, lock, seq, turn_tokens, stage_events)
        explain.summary = summary
        result = CommitResult(
            commit_id=commit_id,
            session_id=rec.session_id,
            turn_id=rec.turn_id,
            namespace=ns,
            seq=seq,
            memory_written=written,
            summary=summary,
            explain=explain,
            warnings=list(warnings),
        )
        if store_trace:
            tx.run(
                "commit/write_trace",
                {
                    "turn_node_id": rec.turn_node_id,
                    "commit_id": commit_id,
                    "namespace": ns,
                    "session_id": rec.session_id,
                    "result": result.model_dump_json(),
                },
            )
        return result

    def _summary(
        self,
        tx: Tx,
        rec: TurnRecord,
        lock: dict[str, Any],
        seq: int,
        turn_tokens: int,
        stage_events: list[str],
    ) -> SummaryInfo:
        upto = int(lock.get("summary_upto_seq") or 0)
        tokens = int(lock.get("tokens_since_summary") or 0) + turn_tokens
        trig = consolidate.should_summarize(
            self.config,
            turns_since_summary=seq - upto,
            tokens_since_summary=tokens,
            stage_events=stage_events,
        )
        if not trig.triggered:
            tx.run(
                "commit/update_session_summary_counters",
                {"session_node_id": rec.session_node_id, "tokens_since_summary": tokens},
            )
            return SummaryInfo(updated=False, triggered=False)
        inputs = tx.run(
            "commit/summary_inputs",
            {
                "session_node_id": rec.session_node_id,
                "namespace": rec.namespace,
                "from_seq": upto,
                "to_seq": seq,
            },
        )[0]
        text = consolidate.build_summary(inputs["items"], inputs["refs"], inputs["entities"], inputs["user_messages"])
        version = int(lock.get("summary_version") or 0) + 1
        rng = [upto + 1, seq]
        tx.run(
            "commit/write_summary",
            {
                "session_node_id": rec.session_node_id,
                "summary_id": stable_id("sum", rec.namespace, rec.session_id, version),
                "namespace": rec.namespace,
                "version": version,
                "text": text,
                "range": rng,
                "at": rec.at,
                "reason": trig.reason,
            },
        )
        return SummaryInfo(updated=True, triggered=True, reason=trig.reason, version=version, source_turn_range=rng)

    def _duplicate(self, rec: TurnRecord, row: dict[str, Any]) -> CommitResult:
        if row.get("result"):
            stored = CommitResult.model_validate_json(row["result"])
            return stored.model_copy(
                update={
                    "status": "duplicate",
                    "memory_written": [],
                    "warnings": ["turn already committed; nothing changed"],
                }
            )
        return CommitResult(
            commit_id=row.get("commit_id") or "",
            session_id=rec.session_id,
            turn_id=rec.turn_id,
            namespace=rec.namespace,
            seq=row.get("seq"),
            status="duplicate",
            warnings=["turn already committed; nothing changed"],
        )
