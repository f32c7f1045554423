"""Recall cannot fall silently: one LoCoMo dev conversation through the real commit and compose path.

Conversation 30 (369 turns, 81 scored questions) is committed turn by turn and every question goes
through ``compose_context`` and ``retrieve``, exactly as ``graphbrain bench locomo`` runs them (it is
that code). The run is repeatable (same turns, same models, same order; Neo4j's vector index varies a
little, see ``TOLERANCE``), so its recall@10 is recorded in ``recorded.json`` per backend; the test
fails when a figure falls more than ``TOLERANCE`` (per backend) below the record — a speed-up or a
refactor that loses recall shows here, not in a later bench.

After a change that is meant to move recall, write the new figures with
``GRAPHBRAIN_RECORD_RECALL=1 make test PYTEST_ARGS=tests/recall`` and commit them with the change.

The data is the shared LoCoMo dev split beside the checkout (``../shared/data/locomo-dev``, or
``$GRAPHBRAIN_LOCOMO_DEV``); it is evaluation data and never enters the package.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from graphbrain.bench.locomo import run_locomo

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("GRAPHBRAIN_LOCOMO_DEV", ROOT.parent / "shared" / "data" / "locomo-dev"))
CONVERSATION = DATA / "30.json"
RECORDED = Path(__file__).with_name("recorded.json")
# How far below its record a figure may fall. Embedded moves from run to run (compose 0.778 to 0.808 for
# the same code): the commit pipeline re-reads its entity lexicon and known projects once a minute by the
# clock, so where that falls among the turns depends on the machine's speed, and some other timing moves it
# too (with the re-reads off, 0.784 and 0.808 in two runs; README, "Speed"). Neo4j moves more: its Lucene segments flush
# and merge by timing, and the approximate vector search answers near ties differently per segment layout.
# The same code gave compose 0.777 / 0.793 / 0.801 / 0.807 on conversation 30 on a loaded and a quiet
# machine, so a drop shows there only past that spread.
TOLERANCE = {"embedded": 0.02, "neo4j": 0.035}
SYSTEMS = ("graphbrain-compose", "graphbrain-retrieve")


def test_recall_at_10_holds_its_recorded_figure(brain_factory: Any, backend: str) -> None:
    if not CONVERSATION.is_file():
        pytest.fail(f"the LoCoMo dev conversation is missing: {CONVERSATION} (set GRAPHBRAIN_LOCOMO_DEV)")
    report = run_locomo(lambda: brain_factory(), [CONVERSATION], ks=(10,), namespace_prefix="recall")
    got = {name: report["systems"][name]["recall"]["overall"]["r@10"] for name in SYSTEMS}
    recorded: dict[str, dict[str, float]] = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
    if os.environ.get("GRAPHBRAIN_RECORD_RECALL") == "1":
        recorded[backend] = {name: round(value, 3) for name, value in got.items()}
        RECORDED.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
        return
    assert backend in recorded, f"no recorded figure for {backend}: record one (see the module docstring)"
    for name in SYSTEMS:
        floor = recorded[backend][name] - TOLERANCE.get(backend, 0.02)
        assert got[name] >= floor, f"{name} recall@10 {got[name]:.3f} fell below {floor:.3f} on {backend}"
