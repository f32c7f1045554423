"""The ingest bench helper on the seed corpus: figures present and sane, scratch namespace cleaned up."""

from __future__ import annotations

from pathlib import Path

from graphbrain import Brain
from graphbrain.bench.ingest_bench import run_ingest_bench

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "docs"


def test_ingest_bench_reports_throughput_and_embed_share(brain: Brain) -> None:
    report = run_ingest_bench(brain, SEEDS)
    files = len(list(SEEDS.iterdir()))
    assert report["files"] == report["documents"] == files and report["failed"] == []
    assert report["chunks"] > 0 and report["chunks_per_s"] > 0
    assert 0 < report["embed_s"] < report["total_s"]
    assert 0 < report["embed_share"] < 1
    assert report["embed_calls"] == files  # one model call per document
    assert report["embedded_texts"] >= report["chunks"]
    assert report["dimension"] == brain.config.embedding.dimension
    assert report["reingest_unchanged"] == files
    left = brain.store.cypher("MATCH (n {namespace: $ns}) RETURN count(n) AS n", {"ns": report["namespace"]}).rows
    assert left[0]["n"] == 0
