"""commit_turn: record the turn as truth, distil it into typed memory, keep the summary current.

    parse → (duplicate?) → extract → retention gate → entity gate → embed (one batch)
          → ONE write transaction: session lock + seq, key locks + active items, conflicts,
            turn/messages/tool calls/refs, memory items, entities, summary, trace

The write runs as one managed transaction (all or nothing, retried on transient errors); the
function it runs rebuilds its result from scratch so a retry is safe. Every writer takes its locks in
one order — the session, then the memory keys, the refs and the entities, each sorted — so concurrent
commits queue behind each other instead of deadlocking.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Callable
from functools import cached_property
from typing import Any

from graphbrain.commit import searchable
from graphbrain.commit.candidate import ExtractionContext, explicit_to_candidate
from graphbrain.commit.events import TurnRecord, build_turn, turn_text
from graphbrain.commit.extract import extract
from graphbrain.commit.retention import EntityGate, EntityKind, TurnEntities, gate, gate_turn_entities
from graphbrain.commit.rows import (
    EntityPlan,
    Planned,
    dump_json,
    entity_pairs,
    entity_rows,
    locked_keys,
    memory_writes,
)
from graphbrain.commit.session import lock_session, update_summary
from graphbrain.commit.utterance import classify_utterance
from graphbrain.contracts import (
    CommitExplain,
    CommitResult,
    RetentionDecision,
    TurnEvents,
    check_text,
    utcnow,
)
from graphbrain.embedding import Embedder
from graphbrain.errors import ConstraintViolation, EmbeddingError, InputError, StoreStateError
from graphbrain.ids import entity_id, new_id
from graphbrain.nlp import canonicalize, estimate_tokens
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.entities import NameIndex
from graphbrain.nlp.phrases import known_phrases, phrases
from graphbrain.retrieve.base import index_search, lucene_query
from graphbrain.store import Tx, Undo
from graphbrain.store.json_props import loads_object
from graphbrain.store.writer import EmbeddingWriter

log = logging.getLogger(__name__)

# Types whose active items extraction may refer to (status changes, retractions, overwrites).
CONTEXT_TYPES = ["tasks", "preferences", "goals", "decisions", "profile", "events"]
CONTEXT_TURNS = 50  # the session's last turns whose items a turn may refer to without naming them
CONTEXT_LIMIT = 300
CONTEXT_TEXT_LIMIT = 20  # items found by the turn's words (best BM25 first) ...
CONTEXT_TEXT_MAX_K = 400  # ... among at most this many full-text hits: the cost follows the turn
MAX_EMBED_CHARS = 2000
# The entity ruler's lexicon: the namespace's most mentioned entities, re-read at most once a minute.
LEXICON_LIMIT = 5000
LEXICON_TTL_S = 60.0


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


class CommitPipeline(EmbeddingWriter):
    """commit_turn for one store; caches each namespace's entity lexicon and candidate names for a minute."""

    # The summary step, last before the trace; a class attribute, so that failure tests can stall or break the
    # write transaction there.
    _summary = staticmethod(update_summary)

    # Per namespace, when it was read and what: the entity ruler's lexicon (a name as written → (kind,
    # canonical)) and the Chinese candidate names.
    @cached_property
    def _lexicons(self) -> dict[str, tuple[float, NameIndex]]:
        return {}

    @cached_property
    def _candidates(self) -> dict[str, tuple[float, set[str]]]:
        return {}

    @cached_property
    def _projects(self) -> dict[str, tuple[float, set[str]]]:
        return {}

    def drop_caches(self, namespace: str) -> None:
        """Forget what was cached of ``namespace`` (after a forget: its names are read afresh)."""
        self._lexicons.pop(namespace, None)
        self._candidates.pop(namespace, None)
        self._projects.pop(namespace, None)

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
        found, turn_entities = self._entity_candidates(rec)
        window = self.config.policies.retention.entity_gate.window_turns

        def pre_read(tx: Tx) -> dict[str, list[dict[str, Any]]]:
            dup = tx.run("commit/turn_exists", {"turn_node_id": rec.turn_node_id})
            if dup:
                return {"dup": dup}
            return {
                "dup": [],
                "state": tx.run(
                    "commit/session_state",
                    {
                        "session_node_id": rec.session_node_id,
                        "namespace": rec.namespace,
                        "session_id": rec.session_id,
                        "window": window,
                    },
                ),
                "context": self._context_items(tx, rec),
                "entities": tx.run("commit/existing_entities", {"namespace": ns, "canonicals": sorted(found)})
                if found
                else [],
            }

        pre = self.store.read(pre_read)
        if pre["dup"]:
            return self._duplicate(rec, pre["dup"][0])
        state = pre["state"][0] if pre["state"] else {}
        project = ev.metadata.get("project") if isinstance(ev.metadata.get("project"), str) else None
        context = ExtractionContext(
            # oldest first: the last one is what a bare "no, that's wrong" refers to
            active_items=[(r["type"], r["key"], loads_object(r["value_json"])) for r in pre["context"]],
            known_projects=sorted({*self._known_projects(ns), *([project] if project else [])}),
            default_project=project,
            now=at,
            nlp=self.config.nlp,
        )

        explain = CommitExplain()
        planned = self._extract(rec, ev, context, explain)
        entities, all_entity_keys = self._gate_entities(
            rec, found, turn_entities, pre["entities"], planned, state, explain
        )
        # What the gate held back stays in the graph as candidates (no memory, no vector): the walk can
        # follow a thing named once per session, and a later mention the gate lets through promotes it.
        candidates = sorted((p for p in found.values() if not p.passed and p.message_id), key=lambda p: p.id)

        # Each message becomes searchable by its text, its speaker, its time and the message before it.
        searchable.prepare_messages(rec.messages, at=at, previous=state.get("last_content"))

        # One call per model per commit: messages, memory items and new entities together; English text
        # also goes through the English model (embedding.english).
        warnings: list[str] = []
        texts: list[str] = [m["embed_text"][:MAX_EMBED_CHARS] for m in rec.messages]
        texts += [p.cand.searchable_text() for p in planned]
        texts += [e.name for e in entities]
        vectors = self._embed(self._embedder_factory, texts, warnings)
        english = [i for i, t in enumerate(texts[: len(rec.messages) + len(planned)]) if searchable.is_english(t)]
        english_vectors = self._embed(self._english_factory, [texts[i] for i in english], warnings)
        by_index = dict(zip(english, english_vectors or [], strict=False))
        for i, m in enumerate(rec.messages):
            has_text = bool(m["content"].strip())
            m["embedding"] = vectors[i] if vectors and has_text else None
            m["embedding_en"] = by_index.get(i) if has_text else None
        n_msg = len(rec.messages)
        item_vectors = vectors[n_msg : n_msg + len(planned)] if vectors else [None] * len(planned)
        item_english = [by_index.get(n_msg + j) for j in range(len(planned))]
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
                item_english,
                entities,
                entity_vectors,
                candidates,
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
                "lock_ids": [f"{ns}|{k}" for k in locked_keys(planned)],
                "entity_ids": [e.id for e in [*entities, *candidates]],
                "pairs": entity_pairs(entities),
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

        ingestor = Ingestor(self.config, self.store, self._embedder_factory, self._english_factory)
        outcomes = ingest_turn_refs(
            ingestor, rec.refs, namespace=rec.namespace, policy=self.config.policies.retention.ingest_refs
        )
        return [{"recorded": True, **o} for o in outcomes]

    # ------------------------------------------------------------------ extraction + gates
    def _extract(
        self, rec: TurnRecord, ev: TurnEvents, context: ExtractionContext, explain: CommitExplain
    ) -> list[Planned]:
        planned: list[Planned] = []
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
                planned.append(Planned(c, pos, float(c.confidence or 0.0)))
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
                planned.append(Planned(k, None, float(k.confidence or 0.0)))
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

    def _entity_candidates(self, rec: TurnRecord) -> tuple[dict[str, EntityPlan], TurnEntities]:
        """Every entity candidate of the turn (messages and refs), by canonical name, with its signals."""
        turn = TurnEntities.collect(
            [(m["role"], m["content"]) for m in rec.messages],
            cfg=self.config.nlp,
            lexicon=self._lexicon(rec.namespace),
        )
        for ref in rec.refs:
            # Refs are structural: a URL or file named in a turn is an entity on first sight.
            kind: EntityKind = "url" if ref["type"] == "url" else ("file" if ref["type"] == "file" else "other")
            turn.add(canonicalize(ref["uri"], kind), kind, ref["title"] or ref["uri"], "ref")
        found: dict[str, EntityPlan] = {}
        for canonical, te in turn.entities.items():
            key = f"entity:{te.kind}:{canonical}"
            plan = EntityPlan(
                id=entity_id(rec.namespace, canonical),
                key=key,
                lock_id=f"{rec.namespace}|{key}",
                kind=te.kind,
                canonical=canonical,
                name=te.name,
                count=max(1, len(te.mentions)),
                message_id=rec.messages[te.mentions[0][0]]["message_id"] if te.mentions else None,
            )
            plan.mentions = [
                {"message_node_id": rec.messages[i]["id"], "start": s, "end": e, "text": t}
                for i, s, e, t in te.mentions
            ]
            found[canonical] = plan
        # The noun phrases and identifiers no entity rule named: candidates only, for the walk (the gate
        # never sees them, so they never become memory).
        for i, m in enumerate(rec.messages):
            if not m["content"] or m["role"] == "tool":
                continue
            # A reaction names nothing to walk to ("thanks!", "哈哈好的"): its nouns would be hubs of noise.
            if searchable.is_filler(m["content"]) or classify_utterance(m["content"]) == "chit_chat":
                continue
            known = self._candidate_names(rec.namespace)
            found_here = [*phrases(m["content"], cfg=self.config.nlp), *known_phrases(m["content"], known)]
            new = {ph.name for ph in found_here if has_cjk(ph.name)} - known
            if new:  # this process's later turns see them; a new set, as other threads may be reading this one
                cached = self._candidates.get(rec.namespace)
                if cached is not None:
                    self._candidates[rec.namespace] = (cached[0], cached[1] | new)
            for ph in found_here:
                if searchable.says_nothing(ph.name):
                    continue
                mention = {"message_node_id": m["id"], "start": ph.start, "end": ph.end, "text": ph.name}
                seen = found.get(ph.canonical)
                if seen is not None:
                    if seen.canonical not in turn.entities:
                        seen.count += 1
                        seen.mentions.append(mention)
                    continue
                key = f"entity:concept:{ph.canonical}"
                plan = EntityPlan(
                    id=entity_id(rec.namespace, ph.canonical),
                    key=key,
                    lock_id=f"{rec.namespace}|{key}",
                    kind="concept",
                    canonical=ph.canonical,
                    name=ph.name,
                    count=1,
                    message_id=rec.messages[i]["message_id"],
                    mentions=[mention],
                )
                found[ph.canonical] = plan
        return found, turn

    def _context_items(self, tx: Tx, rec: TurnRecord) -> list[dict[str, Any]]:
        """The active items this turn can refer to, oldest first: what its session made or changed in its last
        ``CONTEXT_TURNS`` turns, and the items whose text shares the turn's words (the memory_text index).

        Both are index reads, so a commit costs the same in a namespace of a thousand items as of a million.
        """
        rows = tx.run(
            "commit/context_items",
            {
                "session_node_id": rec.session_node_id,
                "namespace": rec.namespace,
                "session_id": rec.session_id,
                "window": CONTEXT_TURNS,
                "types": CONTEXT_TYPES,
                "limit": CONTEXT_LIMIT,
            },
        )
        query = lucene_query(" ".join(m["content"] for m in rec.messages if m["role"] != "system"))
        if query is not None:
            filters = {"types": CONTEXT_TYPES, "statuses": ["active"], "session_ids": None}
            hits = index_search(
                tx,
                "retrieve/exact_memory",
                {"namespace": rec.namespace, "query": query, **filters, "time_from": None, "time_to": None},
                CONTEXT_TEXT_LIMIT,
                max_k=CONTEXT_TEXT_MAX_K,
            )
            if hits:
                ids = [h["id"] for h in hits]
                rows += tx.run("commit/context_items_by_id", {"namespace": rec.namespace, "ids": ids})
        unique = {r["id"]: r for r in rows}
        return sorted(unique.values(), key=lambda r: (str(r["updated_at"]), str(r["id"])))

    def _known_projects(self, namespace: str) -> set[str]:
        """The projects the namespace's keys name, re-read at most once a minute (``commit/known_projects``)."""
        now = time.monotonic()
        cached = self._projects.get(namespace)
        if cached is None or now - cached[0] >= LEXICON_TTL_S:
            rows = self.store.run("commit/known_projects", {"namespace": namespace, "limit": LEXICON_LIMIT})
            cached = self._projects[namespace] = (now, {str(r["project"]) for r in rows if r.get("project")})
        return cached[1]

    def _candidate_names(self, namespace: str) -> set[str]:
        """The namespace's Chinese candidate names, re-read at most once a minute; the turns this process
        commits add theirs at once (a conversation's next turn may name the thing again)."""
        now = time.monotonic()
        cached = self._candidates.get(namespace)
        if cached is None or now - cached[0] >= LEXICON_TTL_S:
            rows = self.store.run("commit/candidate_names", {"namespace": namespace, "limit": LEXICON_LIMIT})
            names = {r["name"] for r in rows if isinstance(r.get("name"), str) and has_cjk(r["name"])}
            cached = self._candidates[namespace] = (now, names)
        return cached[1]

    def _lexicon(self, namespace: str) -> NameIndex:
        """The namespace's known entities (a name as written → (kind, canonical)) for the entity ruler, read at most
        once a minute per namespace: a name another writer just added is found a little later."""
        now = time.monotonic()
        cached = self._lexicons.get(namespace)
        if cached is not None and now - cached[0] < LEXICON_TTL_S:
            return cached[1]
        rows = self.store.run("commit/entity_lexicon", {"namespace": namespace, "limit": LEXICON_LIMIT})
        lexicon: dict[str, tuple[str, str]] = {}  # a name as written -> (kind, canonical)
        for r in rows:
            for name in [r["name"], *(r.get("aliases") or [])]:
                if isinstance(name, str) and name.strip():
                    lexicon.setdefault(name.strip(), (r["kind"], r["canonical"]))
        index = self._lexicons[namespace] = (now, NameIndex(lexicon))
        return index[1]

    def _gate_entities(
        self,
        rec: TurnRecord,
        found: dict[str, EntityPlan],
        turn: TurnEntities,
        existing_rows: list[dict[str, Any]],
        planned: list[Planned],
        state: dict[str, Any],
        explain: CommitExplain,
    ) -> tuple[list[EntityPlan], list[str]]:
        """The entity gate (seed §1.3, ``retention.gate_turn_entities``): known entities pass; new ones
        need a structural signal, an anchor in a kept item, a role in a fact, or frequency."""
        all_keys = sorted(found)
        if not found:
            return [], all_keys
        existing = set()
        for row in existing_rows:
            plan = found[row["canonical"]]
            plan.id, plan.key, plan.kind = row["id"], row["key"], row["kind"]
            plan.lock_id = f"{rec.namespace}|{row['key']}"
            # A candidate was only seen before: this mention goes through the gate like a new one.
            if row.get("status", "active") != "candidate":
                existing.add(row["canonical"])
        decisions = gate_turn_entities(
            turn,
            EntityGate(self.config.policies.retention.entity_gate),
            known=existing,
            window=state.get("window_keys") or [],
            kept=[p.cand for p in planned],
            texts=[(m["role"], m["content"]) for m in rec.messages],
        )
        passed: list[EntityPlan] = []
        for d in decisions:
            plan = found[d.canonical]
            plan.reason = d.reason
            plan.passed = d.passed
            explain.entities.append(
                {"key": d.canonical, "name": plan.name, "kind": plan.kind, "passed": d.passed, "reason": d.reason}
            )
            if d.passed:
                passed.append(plan)
                cache = self._lexicons.get(rec.namespace)
                if cache is not None and plan.name not in cache[1]:
                    # A new index, as other threads may be reading this one (the pipeline is shared).
                    self._lexicons[rec.namespace] = (cache[0], cache[1].plus(plan.name, (plan.kind, d.canonical)))
        return passed, all_keys

    def _embed(
        self, factory: Callable[[], Embedder | None], texts: list[str], warnings: list[str]
    ) -> list[list[float] | None] | None:
        if not texts:
            return []
        try:
            embedder = factory()
            if embedder is None:  # the English model is off
                return None
            vectors = embedder.embed([t or " " for t in texts])
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
        planned: list[Planned],
        item_vectors: list[Any],
        item_english: list[Any],
        entities: list[EntityPlan],
        entity_vectors: list[Any],
        candidates: list[EntityPlan],
        all_entity_keys: list[str],
        commit_id: str,
        turn_tokens: int,
        store_trace: bool,
        explain: CommitExplain,
        warnings: list[str],
    ) -> CommitResult:
        ns = rec.namespace
        at = rec.at
        lock, seq = lock_session(tx, rec)

        keys = locked_keys(planned)
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

        planned_writes = memory_writes(rec, planned, item_vectors, item_english, active, explain)
        items, written = planned_writes.items, planned_writes.written

        wrote = tx.run(
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
                    "metadata_json": dump_json(rec.metadata) if rec.metadata else None,
                    "items_json": rec.items_json,
                },
                "messages": rec.messages,
                "refs": sorted(rec.refs, key=lambda r: r["id"]),  # the lock order every writer keeps
            },
        )
        if len(wrote) != 1:
            # The session lock is held, so its Session node cannot have gone: say so rather than report a
            # commit that wrote nothing.
            raise StoreStateError(
                f"commit/write_turn wrote {len(wrote)} turns for turn {rec.turn_id!r} of session "
                f"{rec.session_id!r} (node {rec.session_node_id}): expected exactly one"
            )
        if planned_writes.retract_only:
            tx.run("commit/retract_items", {"items": planned_writes.retract_only, "turn_node_id": rec.turn_node_id})
        if items:
            tx.run("commit/write_memory", {"turn_node_id": rec.turn_node_id, "namespace": ns, "items": items})

        if entities or candidates:
            confidence = self.config.policies.retention.confidence.user_asserted
            rows = entity_rows(entities, entity_vectors, candidates, items, at, confidence)
            tx.run(
                "commit/write_entities",
                {
                    "turn_node_id": rec.turn_node_id,
                    "namespace": ns,
                    "session_id": rec.session_id,
                    "entities": rows,
                },
            )
            pairs = entity_pairs(entities)
            if pairs:
                tx.run("commit/relate_entities", {"pairs": pairs, "at": at})

        summary = self._summary(tx, self.config, rec, lock, seq, turn_tokens, planned_writes.stage_events)
        explain.summary = summary
        result = _result(
            rec, commit_id, seq, memory_written=written, summary=summary, explain=explain, warnings=list(warnings)
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

    def _duplicate(self, rec: TurnRecord, row: dict[str, Any]) -> CommitResult:
        if row.get("result"):
            stored = CommitResult.model_validate_json(row["result"])
            return stored.model_copy(
                update={"status": "duplicate", "memory_written": [], "warnings": [_DUPLICATE_WARNING]}
            )
        return _result(
            rec, row.get("commit_id") or "", row.get("seq"), status="duplicate", warnings=[_DUPLICATE_WARNING]
        )


_DUPLICATE_WARNING = "turn already committed; nothing changed"


def _result(rec: TurnRecord, commit_id: str, seq: int | None, **fields: Any) -> CommitResult:
    """The result of committing ``rec`` (or of finding it committed already)."""
    return CommitResult(
        commit_id=commit_id,
        session_id=rec.session_id,
        turn_id=rec.turn_id,
        namespace=rec.namespace,
        seq=seq,
        **fields,
    )
