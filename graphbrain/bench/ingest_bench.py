"""Ingest throughput: chunks per second, and how much of the time the embedding model takes.

    report = run_ingest_bench(brain, "seeds/docs")
    report["chunks_per_s"], report["embed_share"]

Both models embed, as in a user's ingest (the English model the English and mixed chunks); ``embed_s`` is
their time together and ``model_texts_per_s`` the texts the ingest embedded per second of it: the pace the
models alone would keep. ``share_of_model_pace`` is graphbrain's pace on those same texts over the models'
(texts/s against texts/s: the models' share of the ingest's time); ``chunks_per_model_text`` the chunks
per second over the models' texts per second (mixed units: an ingest also embeds entity names).

The corpus is ingested into a scratch namespace of its own (a cold, full ingest: nothing is "unchanged"),
then re-ingested once (the resumable no-op pass), then removed. Model loading (and a warm-up document that
compiles the server's query plans) is done before the clock starts and reported apart (``load_s``): it
is paid once per process, not per chunk. The embedder is
wrapped in a timer, so ``embed_s`` is the time spent inside ``embed()`` calls, measured independently of
the ingestor's own bookkeeping.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphbrain.errors import GraphbrainError
from graphbrain.nlp import entity_candidates
from graphbrain.resources.ingest import Ingestor
from graphbrain.resources.parsers import parse_file
from graphbrain.resources.walk import iter_files

if TYPE_CHECKING:
    from graphbrain.brain import Brain
    from graphbrain.embedding import Embedder

__all__ = ["TimedEmbedder", "run_ingest_bench"]


class TimedEmbedder:
    """An Embedder that forwards to another and adds up the time and texts of every call."""

    def __init__(self, inner: Embedder, *, clock: TimedEmbedder | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.seconds = 0.0
        self.calls = 0
        self.texts = 0
        # Another model's timer to add this one's time to (the English model beside the main one).
        self.clock = clock

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        t0 = time.perf_counter()
        try:
            return self.inner.embed(texts)
        finally:
            for timer in (self, self.clock):
                if timer is not None:
                    timer.seconds += time.perf_counter() - t0
                    timer.calls += 1
                    timer.texts += len(texts)

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0]


def run_ingest_bench(
    brain: Brain, path: str | PathLike[str], *, glob: str = "**/*", keep: bool = False
) -> dict[str, Any]:
    """Ingest ``path`` (a file or a directory) into a scratch namespace and report the figures.

    ``keep=True`` leaves the documents in that namespace (its name is in the report) instead of removing
    them afterwards.
    """
    t_load = time.perf_counter()
    inner = brain.embedder
    inner.embed(["warm-up"])
    english = brain.english_embedder  # users' ingests embed English chunks with it too: so does the bench
    if english is not None:
        english.embed(["warm-up"])
    # The language pipelines load on first use too; load them now so the clock sees only per-chunk work.
    entity_candidates(
        "Warm up the English pipeline: Ada Lovelace met Charles Babbage in London to discuss the engine.",
        "en",
        cfg=brain.config.nlp,
    )
    entity_candidates("预热中文分词：北京的陈静在 Neo4j 团队。", "zh", cfg=brain.config.nlp)
    _warm_parsers(path, glob)
    namespace = f"bench-ingest-{uuid.uuid4().hex[:8]}"
    # One small document through every write query first, so the server's query plans are compiled
    # (a one-off per server) before the clock starts.
    warm = Ingestor(brain.config, brain.store, lambda: inner, lambda: english)
    note = warm.ingest(
        "# Warm-up\n\nSee https://example.org/x and the repo acme/warmup.",
        namespace=namespace,
        source_type="manual",
        title="warm-up",
        tags=["warm-up"],
    )
    if note.document_id:
        warm.remove(note.document_id, namespace=namespace)
    load_s = time.perf_counter() - t_load

    timed = TimedEmbedder(inner)
    timed_en = TimedEmbedder(english) if english is not None else None
    ingestor = Ingestor(brain.config, brain.store, lambda: timed, lambda: timed_en)

    t0 = time.perf_counter()
    result = ingestor.ingest(path, namespace=namespace, glob=glob)
    total_s = time.perf_counter() - t0

    t1 = time.perf_counter()
    again = ingestor.ingest(path, namespace=namespace, glob=glob)
    reingest_s = time.perf_counter() - t1

    if not keep:
        for doc_id in result.document_ids:
            ingestor.remove(doc_id, namespace=namespace)

    docs = result.documents
    chunks = result.chunks_written
    parse_s = sum(d.parse_ms for d in docs) / 1000
    entities_s = sum(d.entities_ms for d in docs) / 1000
    write_s = sum(d.write_ms for d in docs) / 1000
    # The models' own time for this ingest (both of them), and their pace on its texts: every text the
    # ingest embeds goes through the main model, English ones through the English model as well.
    embed_s = timed.seconds + (timed_en.seconds if timed_en is not None else 0.0)
    return {
        "path": str(path),
        "namespace": namespace,
        "kept": keep,
        "embedding_model": inner.name,
        "english_model": english.name if english is not None else None,
        "dimension": inner.dim,
        "batch_size": brain.config.embedding.batch_size,
        "files": len(docs),
        "documents": len(result.document_ids),
        "failed": [{"source": d.source, "error": d.error} for d in result.failed],
        "sections": result.sections,
        "chunks": chunks,
        "load_s": round(load_s, 3),
        "total_s": round(total_s, 3),
        "chunks_per_s": round(chunks / total_s, 1) if total_s > 0 else 0.0,
        "embed_s": round(embed_s, 3),
        "embed_calls": timed.calls,
        "embedded_texts": timed.texts,
        "embed_share": round(embed_s / total_s, 3) if total_s > 0 else 0.0,
        "model_texts_per_s": round(timed.texts / embed_s, 1) if embed_s > 0 else 0.0,
        "english_texts": timed_en.texts if timed_en is not None else 0,
        # graphbrain's pace on the ingest's texts (texts / total_s) over the models' own on the same texts
        # (texts / embed_s): the models' share of the ingest's time
        "share_of_model_pace": round(embed_s / total_s, 3) if total_s > 0 else None,
        # the issue's first figure, chunks per second over the models' texts per second (mixed units: an
        # ingest embeds entity names beside its chunks)
        "chunks_per_model_text": round(chunks / total_s / (timed.texts / embed_s), 3)
        if total_s > 0 and embed_s > 0 and timed.texts
        else None,
        "parse_s": round(parse_s, 3),
        "entities_s": round(entities_s, 3),
        "write_s": round(write_s, 3),
        "other_s": round(max(total_s - parse_s - entities_s - write_s - embed_s, 0.0), 3),
        "reingest_s": round(reingest_s, 3),
        "reingest_unchanged": again.counts["unchanged"],
    }


def _warm_parsers(path: str | PathLike[str], glob: str) -> None:
    """Parse one file per extension so the parsing libraries are imported and initialised before the clock
    starts (the first HTML or PDF of a process costs far more than the rest). Entity detection is warmed
    on other text: it caches by text, and warming it on the corpus would hide its real per-chunk cost."""
    seen: set[str] = set()
    for file in iter_files(Path(path), glob):
        ext = file.suffix.lower()
        if ext in seen:
            continue
        seen.add(ext)
        try:
            parse_file(file)
        except GraphbrainError:
            continue  # the timed run reports it
