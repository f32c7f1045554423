"""The chaos bench, short: the database SIGKILLed twice under writers (in-process and HTTP), readers and
churn; every acknowledged turn is in the graph once and in order, no reader got a 5xx other than 503.

`graphbrain bench chaos --cycles 20` is the full run (README, Guarantees). The Neo4j case runs a server
of its own on a spare port ($GRAPHBRAIN_CHAOS_PORT, default 7745), which it kills and restarts.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graphbrain.bench.chaos import format_chaos, run_chaos

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("db", ["embedded", "neo4j"])
def test_two_kills_under_load_lose_nothing(db: str) -> None:
    port = int(os.environ.get("GRAPHBRAIN_CHAOS_PORT", "7745"))
    report = run_chaos(str(ROOT / "brain.yml"), backend=db, cycles=2, port=port, seed=7, up_s=(2.0, 4.0))
    summary = format_chaos(report)
    assert report["cycles"] == 2 and report["turns_acknowledged"] > 0, summary
    assert report["lost"] == report["duplicated"] == report["out_of_order"] == 0, summary
    assert report["seq_gap_sessions"] == report["memory_items_missing"] == report["journal_pending_after"] == 0, summary
    assert report["reader_5xx"] == 0 and report["reader_over_timeout"] == 0, summary
    assert not report["churn_unexpected_errors"], summary
    assert all(r is not None for r in report["recovery_s"]), summary
    assert report["ok"], summary
