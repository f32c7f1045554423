"""The scale bench's bulk loader: generated turns written in batches with the node shapes of ``commit_turn``.

Committing 100 000 memory items one ``commit_turn`` at a time takes hours, so the bulk of the data goes
in through batched ``UNWIND`` queries (``cypher/bench/bulk_*``, run by ``graphbrain.store.bench_scale``),
one write transaction per batch, writing Session, Turn, Message, Memory with its type label, Entity,
MemoryKey, Ref and their relationships as docs/graph-model.md describes them. Every message, item and
entity is embedded by the brain's embedder, in batches (a text repeated verbatim, like "Got it.", is
embedded once). Vectors travel as strings of integers (×1e7) and are rebuilt into float lists by Cypher:
the Python driver packs a float list one value at a time, which made the loader spend most of its time
packing. Not generated: summaries, commit/context traces and documents.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from graphbrain.bench.synth import SessionGenerator, SynthTurn
from graphbrain.contracts import MemoryType
from graphbrain.ids import stable_id
from graphbrain.nlp import detect_language
from graphbrain.store.bench_scale import write_bulk_batch

if TYPE_CHECKING:
    from graphbrain.brain import Brain

__all__ = ["DEFAULT_BATCH_TURNS", "Embeddings", "LoadStats", "Progress", "bulk_load"]

DEFAULT_BATCH_TURNS = 250
VECTOR_SCALE = 10_000_000  # vectors travel as integers × 1e7 (7 decimals: far below the model's noise)
Progress = Callable[[str], None]


def _vector_strings(vectors: Sequence[Sequence[float]]) -> list[str]:
    """Unit vectors as space-separated integers (× VECTOR_SCALE); ``cypher/bench`` divides them back."""
    if not vectors:
        return []
    ints = np.rint(np.asarray(vectors, dtype=np.float64) * VECTOR_SCALE).astype(np.int64)
    return [" ".join(map(str, row)) for row in ints.tolist()]


@dataclass
class LoadStats:
    turns: int = 0
    messages: int = 0
    items: int = 0
    embedded: int = 0
    batches: int = 0
    generate_s: float = 0.0
    embed_s: float = 0.0
    format_s: float = 0.0
    write_s: float = 0.0
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in vars(self).items()}


class Embeddings:
    """Embeds in batches; remembers the vector strings of canned phrases (the only verbatim repeats)."""

    def __init__(self, embedder: Any, stats: LoadStats) -> None:
        self.embedder = embedder
        self.stats = stats
        self.canned: dict[str, str] = {}

    def strings(self, texts: Sequence[str], canned: Sequence[bool]) -> list[str | None]:
        out: list[str | None] = [None] * len(texts)
        todo: dict[str, list[int]] = {}
        for i, (text, is_canned) in enumerate(zip(texts, canned, strict=True)):
            if not text.strip():
                continue
            if is_canned and text in self.canned:
                out[i] = self.canned[text]
            else:
                todo.setdefault(text, []).append(i)
        if todo:
            unique = list(todo)
            t0 = time.perf_counter()
            vectors = self.embedder.embed(unique)
            t1 = time.perf_counter()
            strings = _vector_strings(vectors)
            self.stats.embed_s += t1 - t0
            self.stats.format_s += time.perf_counter() - t1
            self.stats.embedded += len(unique)
            for text, s in zip(unique, strings, strict=True):
                for i in todo[text]:
                    out[i] = s
                    if canned[i]:
                        self.canned[text] = s
        return out


def _batch_rows(
    turns: Sequence[SynthTurn],
    gen: SessionGenerator,
    emb: Embeddings,
    written_entities: set[str],
    confidence: float,
) -> dict[str, Any]:
    """Every row of one bulk write, embeddings included (in one model call per batch)."""
    ns = gen.namespace
    texts: list[str] = []
    canned: list[bool] = []
    for t in turns:
        for m in t.messages:
            texts.append(m.content)
            canned.append(m.canned)
    for t in turns:
        for it in t.items:
            texts.append(it.text)
            canned.append(False)
    new_entities = sorted({e for t in turns for e in t.entity_ids if e not in written_entities})
    texts += [gen.entities[e].name for e in new_entities]
    canned += [True] * len(new_entities)
    vectors = iter(emb.strings(texts, canned))

    sessions: dict[str, dict[str, Any]] = {}
    turn_rows, next_rows, ref_rows = [], [], []
    for t in turns:
        s = sessions.setdefault(
            t.session_node_id, {"id": t.session_node_id, "session_id": t.session_id, "created_at": t.at}
        )
        s["updated_at"], s["last_seq"] = t.at, t.seq
        turn_rows.append(
            {
                "id": t.turn_node_id,
                "session_node_id": t.session_node_id,
                "session_id": t.session_id,
                "turn_id": t.turn_id,
                "seq": t.seq,
                "at": t.at,
                "commit_id": stable_id("commit", ns, t.turn_node_id),
                "entity_keys": sorted({gen.entities[e].canonical for e in t.entity_ids}),
                "text": "\n".join(f"{m.role}: {m.content}" for m in t.messages if m.content),
                "metadata_json": f'{{"project": "{t.project}"}}',
                "messages": [
                    {
                        "id": m.id,
                        "message_id": m.message_id,
                        "role": m.role,
                        "content": m.content,
                        "position": m.position,
                        "language": detect_language(m.content) if m.content else None,
                        "embedding": next(vectors),
                    }
                    for m in t.messages
                ],
            }
        )
        if t.prev_turn_node_id:
            next_rows.append({"a": t.prev_turn_node_id, "b": t.turn_node_id})
        for r in t.refs:
            ref_id = stable_id("ref", ns, r["type"], r["uri"])
            ref_rows.append({"id": ref_id, "turn_node_id": t.turn_node_id, "at": t.at, **r})

    item_rows: list[dict[str, Any]] = []
    retire_rows: list[dict[str, Any]] = []
    link_rows: list[dict[str, Any]] = []
    key_rows: list[dict[str, Any]] = []
    for t in turns:
        user = t.messages[0]
        for it in t.items:
            active = it.superseded_at is None
            item_rows.append(
                {
                    "id": it.id,
                    "type": it.type.value,
                    "turn_node_id": t.turn_node_id,
                    "message_node_id": user.id,
                    "active_key": f"{ns}|{it.key}" if active else None,
                    "embedding": next(vectors),
                    "props": {
                        "type": it.type.value,
                        "key": it.key,
                        "value_json": _json(it.value),
                        "text": it.text,
                        "confidence": confidence,
                        "status": "active" if active else "superseded",
                        "source": "user",
                        "source_session_id": t.session_id,
                        "source_turn_id": t.turn_id,
                        "source_message_id": user.message_id,
                        "evidence_refs": [],
                        "version": it.version,
                        "rule": it.rule,
                        "missing_embedding": False,
                        "task_status": it.value.get("status") if it.type == MemoryType.tasks else None,
                        "created_at": t.at,
                        "updated_at": it.superseded_at or t.at,
                    },
                }
            )
            if it.version == 1:
                key_rows.append({"id": f"{ns}|{it.key}", "key": it.key})
            if it.old_id:
                link_rows.append({"new_id": it.id, "old_id": it.old_id, "edge": it.edge, "at": t.at})
            if active:
                # Whatever holds the key now (an earlier batch's item, or one a measured commit_turn
                # wrote) steps down first: one active item per key.
                retire_rows.append({"active_key": f"{ns}|{it.key}", "at": t.at})

    entity_rows = []
    counts = Counter(e for t in turns for m in t.messages for e, *_ in m.mentions)
    for e in new_entities:
        ent = gen.entities[e]
        first = next(t for t in turns if e in t.entity_ids)
        entity_rows.append(
            {
                "id": ent.id,
                "key": ent.key,
                "lock_id": f"{ns}|{ent.key}",
                "kind": ent.kind,
                "canonical": ent.canonical,
                "name": ent.name,
                "session_id": first.session_id,
                "turn_id": first.turn_id,
                "message_id": first.messages[0].message_id,
                "at": first.at,
                "embedding": next(vectors),
                "value_json": _json({"name": ent.name, "kind": ent.kind, "canonical": ent.canonical}),
                "confidence": confidence,
            }
        )
    last_seen: dict[str, datetime] = {}
    for t in turns:
        for e in t.entity_ids:
            last_seen[e] = t.at
    entity_updates = [{"id": e, "count": counts.get(e, 0), "at": at} for e, at in sorted(last_seen.items())]
    message_mentions, turn_mentions, memory_mentions = [], [], []
    related: Counter[tuple[str, str]] = Counter()
    related_at: dict[tuple[str, str], datetime] = {}
    for t in turns:
        for m in t.messages:
            for e, start, end, text in m.mentions:
                message_mentions.append(
                    {"message_node_id": m.id, "entity_id": e, "start": start, "end": end, "text": text}
                )
        per_turn = Counter(e for m in t.messages for e, *_ in m.mentions)
        for e in t.entity_ids:
            turn_mentions.append({"turn_node_id": t.turn_node_id, "entity_id": e, "count": per_turn.get(e, 1)})
        for it in t.items:
            low = it.text.casefold()
            for e in t.entity_ids:
                if gen.entities[e].name.casefold() in low:
                    memory_mentions.append({"memory_id": it.id, "entity_id": e})
        ids = sorted(set(t.entity_ids))
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                related[(a, b)] += 1
                related_at[(a, b)] = t.at
    written_entities.update(new_entities)
    return {
        "sessions": list(sessions.values()),
        "turns": turn_rows,
        "next": next_rows,
        "refs": ref_rows,
        "retire": retire_rows,
        "items": item_rows,
        "links": link_rows,
        "keys": key_rows,
        "entities": entity_rows,
        "entity_updates": entity_updates,
        "message_mentions": message_mentions,
        "turn_mentions": turn_mentions,
        "memory_mentions": memory_mentions,
        "related": [{"a": a, "b": b, "n": n, "at": related_at[(a, b)]} for (a, b), n in sorted(related.items())],
    }


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def bulk_load(
    brain: Brain,
    gen: SessionGenerator,
    target_items: int,
    *,
    batch_turns: int = DEFAULT_BATCH_TURNS,
    written_entities: set[str] | None = None,
    embeddings: Embeddings | None = None,
    stats: LoadStats | None = None,
    progress: Progress | None = None,
) -> LoadStats:
    """Generate and write turns until ``gen`` has made ``target_items`` memory items.

    Generation and embedding of batch n+1 overlap the write of batch n (one writer thread, so batches
    are written in order: supersessions and NEXT links always find their older node).
    """
    stats = stats or LoadStats()
    written = written_entities if written_entities is not None else set()
    emb = embeddings or Embeddings(brain.embedder, stats)
    confidence = brain.config.policies.retention.confidence.user_asserted
    say = progress or (lambda _m: None)
    t_wall = time.perf_counter()
    pending: Future[float] | None = None

    def write(rows: Mapping[str, Any]) -> float:
        t0 = time.perf_counter()
        write_bulk_batch(brain.store, gen.namespace, rows)
        return time.perf_counter() - t0

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-writer") as pool:
        while gen.items_made < target_items:
            t0 = time.perf_counter()
            batch: list[SynthTurn] = []
            while len(batch) < batch_turns and gen.items_made < target_items:
                batch.append(gen.next_turn())
            stats.generate_s += time.perf_counter() - t0
            rows = _batch_rows(batch, gen, emb, written, confidence)
            if pending is not None:
                stats.write_s += pending.result()
            pending = pool.submit(write, rows)
            stats.turns += len(batch)
            stats.messages += sum(len(t.messages) for t in batch)
            stats.items += sum(len(t.items) for t in batch)
            stats.batches += 1
            if stats.batches % 20 == 0:
                say(f"bulk load: {gen.items_made:,} items, {gen.turns_made:,} turns")
        if pending is not None:
            stats.write_s += pending.result()
    stats.wall_s += time.perf_counter() - t_wall
    return stats
