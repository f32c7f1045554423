"""`graphbrain demo`: load seeds/ into a fresh namespace and show what graphbrain does with them.

The demo session's dates are shifted so its last turn was yesterday (so "last week" means something),
its turns are committed one by one with their commit explain, the seed documents are ingested, and
each of the session's questions is answered with a composed context.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphbrain.brain import Brain

SEEDS = Path(__file__).resolve().parents[1] / "seeds"


def _shifted(turns: list[dict[str, Any]], now: datetime) -> list[dict[str, Any]]:
    last = datetime.fromisoformat(turns[-1]["at"].replace("Z", "+00:00"))
    delta = now - timedelta(days=1) - last
    out = []
    for t in turns:
        at = datetime.fromisoformat(t["at"].replace("Z", "+00:00")) + delta
        out.append({**t, "at": at.isoformat()})
    return out


def run(brain: Brain, echo: Callable[[str], None] = print, *, seeds: Path = SEEDS) -> dict[str, Any]:
    session = json.loads((seeds / "sessions" / "demo-graphbrain.json").read_text(encoding="utf-8"))
    sid = session["session_id"]
    forgotten = brain.forget(whole_namespace=True) if hasattr(brain, "forget") else None
    echo(f"namespace {brain.namespace!r}" + (" (cleared)" if forgotten else ""))
    echo("")
    echo(f"== commit_turn × {len(session['turns'])}: {session['description']}")
    for turn in _shifted(session["turns"], datetime.now(UTC)):
        result = brain.commit_turn(sid, turn)
        user = next(m["content"] for m in turn["messages"] if m["role"] == "user")
        echo(f"\n[{turn['turn_id']}] user: {user[:110]}{'…' if len(user) > 110 else ''}")
        for w in result.memory_written:
            echo(f"   {w.action:<10} {w.type.value:<12} {w.key}  (conf {w.confidence:.2f}, {w.status})")
        for c in result.explain.conflicts:
            if c.action != "unchanged":
                echo(f"   conflict   {c.action}: {c.key} — {c.reason}")
        dropped = [d for d in result.explain.retention if not d.kept]
        for d in dropped[:2]:
            echo(f"   not kept   {d.type}: {d.reason}")
        passed = [e["name"] for e in result.explain.entities if e["passed"]]
        if passed:
            echo(f"   entities   {', '.join(passed)}")
        if result.summary.triggered:
            echo(
                f"   summary    v{result.summary.version} over turns {result.summary.source_turn_range}: "
                f"{result.summary.reason}"
            )
    echo("")
    ingest = brain.ingest(seeds / "docs")
    counts = ingest.counts if hasattr(ingest, "counts") else {}
    echo(f"== ingest seeds/docs: {counts}")
    packages = []
    for q in session["questions"]:
        package = brain.compose_context(sid, q)
        packages.append(package)
        budget = package.constraints.token_budget
        planner = package.debug.planner
        echo("")
        echo(f"== compose_context: {q}")
        echo(
            f"   intent={planner.get('intent')} resources={planner.get('search_resources')} "
            f"({planner.get('search_reason')}) time_range={planner.get('time_range')}"
        )
        echo(f"   tokens {budget.used_estimate}/{budget.limit} by slot {budget.by_slot}; trimmed {budget.trimmed}")
        echo("   system blocks: " + ", ".join(b.type for b in package.system_blocks))
        for line in package.render_evidence().splitlines()[:24]:
            echo("   " + line)
        echo(f"   context_id {package.context_id} (trace stored: graphbrain traces show {package.context_id})")
    return {"session_id": sid, "contexts": [p.context_id for p in packages]}
