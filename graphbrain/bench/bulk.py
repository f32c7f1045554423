"""The scale bench's bulk loader: generated turns written in batches with the node shapes of ``commit_turn``.

Committing 100 000 memory items one ``commit_turn`` at a time takes hours, so the bulk of the data goes
in through batched ``UNWIND`` queries (``cypher/bench/bulk_*``, run by ``graphbrain.store.bench_scale``),
one write transaction per batch, writing Session, Turn, Message, Memory with its type label, Entity,
MemoryKey, Ref and their relationships as docs/graph-model.md describes them, with the properties
``commit_turn`` gives them: each message's ``search_text``, ``filler`` and ``language`` from the very
function the commit uses (``commit.searchable.prepare_messages``, the session's previous message as its
context), each item's ``language``, each entity's ``turn_count``; and the vectors of both models as the
commit embeds them: the main model for every message, item and new entity, the English model
(``embedding.english``) for the messages and items that ``searchable.is_english`` picks.

Every vector goes through :class:`VectorCache`, on disk per model (text hash → float32 vector), so a
second backend or a re-run embeds none of the same seeded texts again (the English model reads about
170 texts/s here; a 100k-item load has about twice as many distinct English texts). Vectors travel as
strings of integers (×1e7) and are rebuilt into float lists by Cypher: the Python driver packs a float
list one value at a time, which made the loader spend most of its time packing. Not generated:
summaries, commit/context traces and documents.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphbrain.bench.synth import SessionGenerator, SynthTurn
from graphbrain.commit.pipeline import MAX_EMBED_CHARS
from graphbrain.commit.searchable import is_english, prepare_messages
from graphbrain.contracts import MemoryType
from graphbrain.ids import stable_id
from graphbrain.nlp import detect_language
from graphbrain.resources.refs import normalise_ref_uri
from graphbrain.store.bench_scale import write_bulk_batch

if TYPE_CHECKING:
    from graphbrain.brain import Brain
    from graphbrain.embedding import Embedder

__all__ = ["DEFAULT_BATCH_TURNS", "Embeddings", "LoadStats", "Progress", "VectorCache", "bulk_load"]

DEFAULT_BATCH_TURNS = 250
VECTOR_SCALE = 10_000_000  # vectors travel as integers × 1e7 (7 decimals: far below the model's noise)
Progress = Callable[[str], None]


def _vector_strings(vectors: np.ndarray) -> list[str]:
    """Unit vectors as space-separated integers (× VECTOR_SCALE); ``cypher/bench`` divides them back."""
    if not len(vectors):
        return []
    ints = np.rint(np.asarray(vectors, dtype=np.float64) * VECTOR_SCALE).astype(np.int64)
    return [" ".join(map(str, row)) for row in ints.tolist()]


@dataclass
class LoadStats:
    turns: int = 0
    messages: int = 0
    items: int = 0
    embedded: int = 0  # texts the main model read
    embedded_en: int = 0  # texts the English model read
    cached: int = 0  # vectors (of either model) taken from the cache instead
    batches: int = 0
    generate_s: float = 0.0
    prepare_s: float = 0.0  # search text, filler and language of the messages (commit.searchable)
    embed_s: float = 0.0
    format_s: float = 0.0
    write_s: float = 0.0
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in vars(self).items()}


# =================================================================================== the vector cache
_KEY_BYTES = 16


def text_key(text: str) -> bytes:
    """The cache key of a text: 16 bytes of its BLAKE2b hash."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=_KEY_BYTES).digest()


class VectorCache:
    """One model's vectors of texts it has embedded, by text hash; on disk when given a root.

    ``<root>/<model name>-<dim>/`` holds shards, each a ``<id>.vectors.npy`` (float32, one row per text)
    and a ``<id>.keys.npy`` (uint8, 16 bytes per text), the keys written last, so a shard without them
    (a run killed while writing) is ignored. Shards are memory-mapped on load; new vectors stay in memory
    until ``flush`` (every ``flush_every`` new ones, and at the end of a load) writes them as a new shard.
    Without a root nothing is written and nothing outlives the process.
    """

    def __init__(self, root: Path | None, model: str, dim: int, *, flush_every: int = 20_000) -> None:
        self.dim = dim
        self.flush_every = flush_every
        self.dir = root / f"{re.sub(r'[^A-Za-z0-9._-]+', '_', model)}-{dim}" if root is not None else None
        self._index: dict[bytes, tuple[int, int]] = {}  # key → (shard, row)
        self._shards: list[np.ndarray] = []
        self._pending: dict[bytes, np.ndarray] = {}
        if self.dir is not None and self.dir.is_dir():
            for keys_file in sorted(self.dir.glob("*.keys.npy")):
                vectors_file = keys_file.with_name(keys_file.name.replace(".keys.npy", ".vectors.npy"))
                if vectors_file.is_file():
                    self._load(keys_file, vectors_file)

    def _load(self, keys_file: Path, vectors_file: Path) -> None:
        keys = np.load(keys_file)
        vectors = np.load(vectors_file, mmap_mode="r")
        if keys.ndim != 2 or keys.shape[1] != _KEY_BYTES or vectors.shape != (len(keys), self.dim):
            return  # not a shard of this model and size: leave it alone
        shard = len(self._shards)
        self._shards.append(vectors)
        raw = keys.tobytes()
        for row in range(len(keys)):
            self._index[raw[row * _KEY_BYTES : (row + 1) * _KEY_BYTES]] = (shard, row)

    def __len__(self) -> int:
        return len(self._index) + len(self._pending)

    def get(self, key: bytes) -> np.ndarray | None:
        found = self._pending.get(key)
        if found is not None:
            return found
        where = self._index.get(key)
        if where is None:
            return None
        return np.asarray(self._shards[where[0]][where[1]], dtype=np.float32)

    def put(self, keys: Sequence[bytes], vectors: np.ndarray) -> None:
        for key, vector in zip(keys, np.asarray(vectors, dtype=np.float32), strict=True):
            self._pending[key] = vector
        if self.dir is not None and len(self._pending) >= self.flush_every:
            self.flush()

    def flush(self) -> None:
        """Write the vectors added since the last flush as a new shard (nothing without a root)."""
        if self.dir is None or not self._pending:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        name = f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        keys = np.frombuffer(b"".join(self._pending), dtype=np.uint8).reshape(-1, _KEY_BYTES)
        vectors = np.stack(list(self._pending.values())).astype(np.float32)
        vectors_file, keys_file = self.dir / f"{name}.vectors.npy", self.dir / f"{name}.keys.npy"
        for path, array in ((vectors_file, vectors), (keys_file, keys)):
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                np.save(f, array)
            os.replace(tmp, path)
        self._pending.clear()
        self._load(keys_file, vectors_file)


class Embeddings:
    """The loader's models (the brain's main one, and its English one when on), each behind a
    :class:`VectorCache`: a text is embedded once per model, in batches, however often it recurs."""

    def __init__(
        self,
        embedder: Embedder,
        english: Embedder | None,
        stats: LoadStats,
        cache_dir: str | PathLike[str] | None = None,
    ) -> None:
        root = Path(cache_dir) if cache_dir is not None else None
        self.stats = stats
        self.main = (embedder, VectorCache(root, embedder.name, embedder.dim))
        self.english = (english, VectorCache(root, english.name, english.dim)) if english is not None else None

    def strings(self, texts: Sequence[str], *, english: bool = False) -> list[str | None]:
        """Each text's vector (main model, or the English one) as an integer string; None for a blank
        text, or for every text when ``english`` and the English model is off."""
        out: list[str | None] = [None] * len(texts)
        model = self.english if english else self.main
        if model is None:
            return out
        embedder, cache = model
        positions: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            if text.strip():
                positions.setdefault(text, []).append(i)
        unique = list(positions)
        keys = [text_key(t) for t in unique]
        vectors: list[np.ndarray | None] = [cache.get(k) for k in keys]
        missing = [j for j, v in enumerate(vectors) if v is None]
        self.stats.cached += len(unique) - len(missing)
        if missing:
            t0 = time.perf_counter()
            fresh = np.asarray(embedder.embed([unique[j] for j in missing]), dtype=np.float32)
            self.stats.embed_s += time.perf_counter() - t0
            if english:
                self.stats.embedded_en += len(missing)
            else:
                self.stats.embedded += len(missing)
            cache.put([keys[j] for j in missing], fresh)
            for j, vector in zip(missing, fresh, strict=True):
                vectors[j] = vector
        t1 = time.perf_counter()
        strings = _vector_strings(np.stack([v for v in vectors if v is not None])) if unique else []
        self.stats.format_s += time.perf_counter() - t1
        for text, string in zip(unique, strings, strict=True):
            for i in positions[text]:
                out[i] = string
        return out

    def flush(self) -> None:
        """Write every model's new vectors to the cache on disk."""
        for model in (self.main, self.english):
            if model is not None:
                model[1].flush()


def _batch_rows(
    turns: Sequence[SynthTurn],
    gen: SessionGenerator,
    emb: Embeddings,
    written_entities: set[str],
    confidence: float,
    stats: LoadStats,
) -> dict[str, Any]:
    """Every row of one bulk write, vectors included (one model call per model per batch)."""
    ns = gen.namespace
    t0 = time.perf_counter()
    # Each message as commit_turn prepares it: search text, filler, language and the text both models read.
    prepared: list[list[dict[str, Any]]] = []
    for t in turns:
        rows = [{"content": m.content, "role": m.role} for m in t.messages]
        prepare_messages(rows, at=t.at, previous=t.previous)
        prepared.append(rows)
    stats.prepare_s += time.perf_counter() - t0
    # What commit_turn embeds: messages (their embed_text), items (their searchable text), new entities'
    # names with the main model; the messages and items that are English or mixed with the English one.
    message_texts = [m["embed_text"][:MAX_EMBED_CHARS] if m["content"].strip() else "" for ms in prepared for m in ms]
    item_texts = [it.text for t in turns for it in t.items]
    new_entities = sorted({e for t in turns for e in t.entity_ids if e not in written_entities})
    texts = message_texts + item_texts
    main = iter(emb.strings(texts + [gen.entities[e].name for e in new_entities]))
    english_texts = [text if is_english(text) else "" for text in texts]
    english = iter(emb.strings(english_texts, english=True))

    sessions: dict[str, dict[str, Any]] = {}
    turn_rows, next_rows, ref_rows = [], [], []
    for t, rows in zip(turns, prepared, strict=True):
        s = sessions.setdefault(
            t.session_node_id, {"id": t.session_node_id, "session_id": t.session_id, "created_at": t.at}
        )
        s["updated_at"], s["last_seq"] = t.at, t.seq
        messages = []
        for m, row in zip(t.messages, rows, strict=True):
            vector, vector_en = next(main), next(english)
            messages.append(
                {
                    "id": m.id,
                    "message_id": m.message_id,
                    "role": m.role,
                    "content": m.content,
                    "position": m.position,
                    "language": row["language"],
                    "search_text": row["search_text"],
                    "filler": row["filler"],
                    "missing_embedding": vector is None and bool(m.content.strip()),
                    "embedding": vector,
                    "embedding_en": vector_en,
                }
            )
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
                "text": "\n".join(f"{m.role}: {m.content}" for m in t.messages if m.content)[:MAX_EMBED_CHARS],
                "metadata_json": _json({"project": t.project}),
                "messages": messages,
            }
        )
        if t.prev_turn_node_id:
            next_rows.append({"a": t.prev_turn_node_id, "b": t.turn_node_id})
        for r in t.refs:
            uri = normalise_ref_uri(r["type"], r["uri"])  # as commit.events records a ref
            ref_rows.append(
                {
                    "id": stable_id("ref", ns, r["type"], uri),
                    "turn_node_id": t.turn_node_id,
                    "at": t.at,
                    "type": r["type"],
                    "uri": uri,
                    "title": r.get("title"),
                    "metadata_json": _json(r.get("metadata") or {}),
                }
            )

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
                    "embedding": next(main),
                    "embedding_en": next(english),
                    "props": {
                        "type": it.type.value,
                        "key": it.key,
                        "value_json": _json(it.value),
                        "text": it.text,
                        "language": detect_language(it.text),
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
                "embedding": next(main),
                "value_json": _json({"name": ent.name, "kind": ent.kind, "canonical": ent.canonical}),
                "confidence": confidence,
            }
        )
    last_seen: dict[str, datetime] = {}
    for t in turns:
        for e in t.entity_ids:
            last_seen[e] = t.at
    turn_counts = Counter(e for t in turns for e in set(t.entity_ids))
    entity_updates = [
        {"id": e, "count": counts.get(e, 0), "turns": turn_counts[e], "at": at} for e, at in sorted(last_seen.items())
    ]
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
    cache_dir: str | PathLike[str] | None = None,
    progress: Progress | None = None,
) -> LoadStats:
    """Generate and write turns until ``gen`` has made ``target_items`` memory items.

    Generation and embedding of batch n+1 overlap the write of batch n (one writer thread, so batches
    are written in order: supersessions and NEXT links always find their older node). Without
    ``embeddings`` the loader makes its own from the brain's models, with its vector cache in
    ``cache_dir`` (None: in memory only); the cache is flushed to disk at the end.
    """
    stats = stats or LoadStats()
    written = written_entities if written_entities is not None else set()
    emb = embeddings or Embeddings(brain.embedder, brain.english_embedder, stats, cache_dir)
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
            rows = _batch_rows(batch, gen, emb, written, confidence, stats)
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
    emb.flush()
    stats.wall_s += time.perf_counter() - t_wall
    return stats
