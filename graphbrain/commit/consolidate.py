"""Consolidation (seed §2): when to refresh the working summary, and the summary itself.

The summary is built from the memory items themselves (never from long raw text or tool output), in
the fixed structure of seed §2.3 so a model can cite it: Goals / Decisions / Tasks / Key References /
Open Questions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from graphbrain.config import BrainConfig

MAX_LINE_CHARS = 160


@dataclass(frozen=True)
class Trigger:
    triggered: bool
    reason: str | None


def should_summarize(
    cfg: BrainConfig,
    *,
    turns_since_summary: int,
    tokens_since_summary: int,
    stage_events: list[str],
) -> Trigger:
    """Any one of: enough turns, token pressure, a stage event (task done, decision made, ...)."""
    r = cfg.policies.retention
    if turns_since_summary >= r.summarize_after_turns:
        return Trigger(
            True,
            f"turn_count: {turns_since_summary} turns since the last summary "
            f"(summarize_after_turns={r.summarize_after_turns})",
        )
    budget = int(r.summary_token_pressure * cfg.policies.composition.token_limit)
    if tokens_since_summary >= budget:
        return Trigger(
            True,
            f"token_pressure: ~{tokens_since_summary} tokens since the last summary (threshold {budget})",
        )
    if stage_events:
        return Trigger(True, "stage_event: " + "; ".join(stage_events))
    return Trigger(False, None)


def _clip(text: str, n: int = MAX_LINE_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _value(item: dict[str, Any]) -> dict[str, Any]:
    try:
        v = json.loads(item.get("value_json") or "{}")
        return v if isinstance(v, dict) else {}
    except ValueError:
        return {}


def _readable(item: dict[str, Any]) -> str:
    text = str(item.get("text") or "")
    # "[type:key] readable" → the readable part; keep the key for citation.
    if text.startswith("[") and "] " in text:
        head, _, rest = text.partition("] ")
        return f"{rest} ({head[1:].split(':', 1)[-1]})"
    return text


def _task_line(item: dict[str, Any]) -> str:
    v = _value(item)
    return f"[{v.get('status', '?')}] {v.get('title') or _readable(item)}"


def _entity_line(name: str) -> str:
    return f"entity: {name}"


def summary_lines_of(item: dict[str, Any]) -> set[str]:
    """The lines ``build_summary`` writes for one memory item (``type``, ``text``, ``value_json``, and
    ``name`` for an entity), as they appear in the summary text: what forgetting the item removes."""
    kind = str(item.get("type"))
    if kind == "tasks":
        raw = [_task_line(item)]
    elif kind == "entities":
        raw = [_entity_line(str(item["name"]))] if item.get("name") else []
    else:
        raw = [_readable(item)]
    return {f"- {_clip(line)}" for line in raw}


def drop_summary_lines(summary: str, lines: set[str]) -> str:
    """``summary`` without ``lines`` (from ``summary_lines_of``); a section left empty reads "- (none)",
    as ``build_summary`` writes it."""
    out: list[str] = []
    for line in summary.split("\n"):
        if line in lines:
            continue
        if out and not line.startswith("- ") and out[-1].endswith(":") and not out[-1].startswith("- "):
            out.append("- (none)")
        out.append(line)
    if out and out[-1].endswith(":") and not out[-1].startswith("- "):
        out.append("- (none)")
    return "\n".join(out)


def build_summary(
    items: list[dict[str, Any]],
    refs: list[dict[str, Any]],
    entities: list[str],
    user_messages: list[str],
    max_lines_per_section: int = 8,
) -> str:
    by_type: dict[str, list[dict[str, Any]]] = {"goals": [], "decisions": [], "tasks": []}
    for it in sorted(items, key=lambda i: str(i.get("updated_at") or ""), reverse=True):
        by_type.setdefault(str(it.get("type")), []).append(it)

    def section(title: str, lines: list[str]) -> str:
        body = "\n".join(f"- {_clip(line)}" for line in lines[:max_lines_per_section]) or "- (none)"
        return f"{title}:\n{body}"

    # Open work first: what the agent should continue.
    order = {"doing": 0, "blocked": 1, "todo": 2, "done": 3}
    tasks = [
        _task_line(it) for it in sorted(by_type["tasks"], key=lambda i: order.get(str(_value(i).get("status")), 4))
    ]
    key_refs = [f"{r.get('title') or r.get('uri')} — {r.get('uri')}" for r in refs]
    key_refs += [_entity_line(e) for e in entities[: max(0, max_lines_per_section - len(key_refs))]]
    questions = [m for m in user_messages if m.strip().endswith(("?", "？"))][-5:]
    return "\n".join(
        [
            section("Goals", [_readable(i) for i in by_type["goals"]]),
            section("Decisions", [_readable(i) for i in by_type["decisions"]]),
            section("Tasks", tasks),
            section("Key References", key_refs),
            section("Open Questions", questions),
        ]
    )
