"""Shared by the acceptance suite (seed-policies.md §7): the bilingual demo session and the seed documents,
committed and ingested through the public API, plus small graph checks."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from graphbrain import Brain

ROOT = Path(__file__).resolve().parents[2]
DEMO_SESSION = "demo-graphbrain"


@dataclass
class Demo:
    brain: Brain
    session_id: str
    turns: list[dict[str, Any]]


def seed_demo(brain: Brain) -> Demo:
    """The demo session (turns dated to end a day ago, so "recent" means recent) and seeds/docs."""
    data = json.loads((ROOT / "seeds" / "sessions" / "demo-graphbrain.json").read_text(encoding="utf-8"))
    last = datetime.fromisoformat(data["turns"][-1]["at"].replace("Z", "+00:00"))
    delta = datetime.now(UTC) - timedelta(days=1) - last
    turns = []
    for t in data["turns"]:
        t = dict(t, at=(datetime.fromisoformat(t["at"].replace("Z", "+00:00")) + delta).isoformat())
        brain.commit_turn(data["session_id"], t)
        turns.append(t)
    brain.ingest(ROOT / "seeds" / "docs")
    return Demo(brain, data["session_id"], turns)


def rows(brain: Brain, cypher: str, **params: Any) -> list[dict[str, Any]]:
    """A check query in the brain's namespace (``$ns``)."""
    return brain.store.cypher(cypher, {"ns": brain.namespace, **params}).rows
