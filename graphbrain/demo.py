"""`graphbrain demo`: load the seeds into a namespace of the demo's own and show what graphbrain does.

The demo works in namespace ``demo`` (or the one given) and clears it first, so a second run starts
clean. It clears a namespace only when everything in it is the demo's own (the demo session, documents
with the demo's tag, memory derived from the demo session); a namespace holding anything else is
cleared only when the caller confirms (``--yes``, or yes at the prompt), else the demo stops and says
why. Nothing a user wrote is deleted without being asked.

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

from graphbrain.assets import asset_dir
from graphbrain.errors import InputError

if TYPE_CHECKING:
    from graphbrain.brain import Brain

DEMO_NAMESPACE = "demo"
# Every document the demo ingests carries this tag: how it tells its own documents from a user's.
DEMO_TAG = "graphbrain-demo"

__all__ = ["DEMO_NAMESPACE", "DEMO_TAG", "foreign_data", "run", "seeds_dir"]


def seeds_dir() -> Path:
    """The demo's seeds: the checkout's ``seeds/``, or the copy an installed wheel carries."""
    return asset_dir("seeds")


def _shifted(turns: list[dict[str, Any]], now: datetime) -> list[dict[str, Any]]:
    last = datetime.fromisoformat(turns[-1]["at"].replace("Z", "+00:00"))
    delta = now - timedelta(days=1) - last
    out = []
    for t in turns:
        at = datetime.fromisoformat(t["at"].replace("Z", "+00:00")) + delta
        out.append({**t, "at": at.isoformat()})
    return out


def foreign_data(brain: Brain, session_id: str) -> dict[str, int]:
    """What the namespace holds that the demo did not write: {kind: count}, only kinds with any."""
    rows = brain.store.run(
        "admin/demo_foreign_data",
        {"namespace": brain.namespace, "session_id": session_id, "tag": DEMO_TAG},
    )
    return {k: int(v) for k, v in (rows[0] if rows else {}).items() if v}


def _clear(
    brain: Brain, session_id: str, echo: Callable[[str], None], confirm: Callable[[str], bool] | None, yes: bool
) -> None:
    ns = brain.namespace
    foreign = foreign_data(brain, session_id)
    if foreign:
        what = ", ".join(f"{n} {kind}" for kind, n in foreign.items())
        question = (
            f"namespace {ns!r} holds data the demo did not write ({what}); the demo clears its namespace "
            "first. Delete everything in it?"
        )
        if not (yes or (confirm is not None and confirm(question))):
            raise InputError(
                f"demo: namespace {ns!r} holds data the demo did not write ({what}), and the demo clears "
                f"its namespace first: run it in another namespace (the default is {DEMO_NAMESPACE!r}), "
                "or pass --yes to delete everything in this one"
            )
    out = brain.forget(whole_namespace=True)
    if out["found"]:
        cleared = "everything in it" if foreign else "the previous demo run"
        echo(f"namespace {ns!r}: cleared {cleared} ({out['total']} nodes)")
    else:
        echo(f"namespace {ns!r} (empty: nothing to clear)")


def run(
    brain: Brain,
    echo: Callable[[str], None] = print,
    *,
    seeds: Path | None = None,
    confirm: Callable[[str], bool] | None = None,
    yes: bool = False,
) -> dict[str, Any]:
    """Run the demo in ``brain``'s namespace (see the module docstring for what it clears and when).

    ``confirm`` asks the user a yes/no question (None: never ask, refuse instead); ``yes`` confirms in
    advance. Returns the session id, the namespace and the composed context ids.
    """
    seeds = seeds or seeds_dir()
    session = json.loads((seeds / "sessions" / "demo-graphbrain.json").read_text(encoding="utf-8"))
    sid = session["session_id"]
    _clear(brain, sid, echo, confirm, yes)
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
    ingest = brain.ingest(seeds / "docs", tags=[DEMO_TAG])
    echo(f"== ingest seeds/docs: {ingest.counts}")
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
    echo("")
    echo(f"The demo's memory is in namespace {brain.namespace!r}; explore it with")
    echo(f"   graphbrain memory list --namespace {brain.namespace}")
    echo(f'   graphbrain context {sid} "What did we decide for the memory store?" --namespace {brain.namespace}')
    echo(f"   graphbrain memory forget --all-namespace --namespace {brain.namespace}   (when done)")
    return {
        "session_id": sid,
        "namespace": brain.namespace,
        "contexts": [p.context_id for p in packages],
    }
