"""What may take an evidence slot, and what counts as one evidence.

Two rules over hydrated candidates, each dropped item named in ``explain.dropped`` with its reason:

- ``evidence_fit``: a **filler** message ("Noted.", "ok", "好的。", "收到": greetings and acknowledgements
  only) never takes a slot — it stays in the graph and still passes its neighbours' scores along. An
  **entity item** (its text is a name and its aliases) takes a slot only when the query names it, or
  when the plan asks for entities (``filters.types``); otherwise it is the graph's connective tissue.
- ``merge_sources``: a memory item and the message it was distilled from are **one** evidence. The item
  is cited (its id, its score if higher), and the turn's words go beside it in its text, so the reader
  sees both the distilled fact and what was said; the turn no longer takes a second slot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from graphbrain.contracts import MemoryType, RetrievalPlan
from graphbrain.nlp import has_cjk
from graphbrain.retrieve.candidate import Candidate

_ALIASES = re.compile(r"\(aka ([^)]*)\)\s*$")
_ENTITY_TEXT = re.compile(r"^\[entities:[^\]]*\]\s*")


def named_in(query: str, name: str) -> bool:
    """Whether ``query`` names ``name``: a whole-word match (a substring for Chinese), any case."""
    name = name.strip().casefold()
    if not name:
        return False
    text = query.casefold()
    if has_cjk(name):
        return name in text
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def entity_names(cand: Candidate) -> list[str]:
    """An entity item's name and aliases, read from its text (``[entities:key] Name (aka A, B)``)."""
    text = _ENTITY_TEXT.sub("", cand.text or "")
    aliases: list[str] = []
    m = _ALIASES.search(text)
    if m:
        aliases = [a.strip() for a in m.group(1).split(",")]
        text = text[: m.start()]
    return [n for n in [text.strip(), *aliases, *cand.entities] if n]


def _wants_entities(plan: RetrievalPlan) -> bool:
    types = [t for f in [plan.global_filters, *(q.filters for q in plan.queries)] if f for t in (f.types or [])]
    return MemoryType.entities in types


def _drop(c: Candidate, reason: str, rule: str) -> dict[str, Any]:
    return {"id": c.id, "reason": reason, "rule": rule, "score": c.score}


def evidence_fit(
    candidates: Sequence[Candidate], query: str, plan: RetrievalPlan
) -> tuple[list[Candidate], list[dict[str, Any]]]:
    """The candidates that may be evidence, and the dropped ones with their reasons (see module doc)."""
    wants_entities = _wants_entities(plan)
    kept: list[Candidate] = []
    dropped: list[dict[str, Any]] = []
    for c in candidates:
        if c.side == "turn" and c.filler:
            dropped.append(_drop(c, "filler", "an acknowledgement or greeting only"))
        elif (
            c.side == "memory"
            and c.memory_type == MemoryType.entities.value
            and not wants_entities
            and not any(named_in(query, n) for n in entity_names(c))
        ):
            dropped.append(_drop(c, "entity_not_asked", "an entity's name, and the query does not name it"))
        else:
            kept.append(c)
    return kept, dropped


def _source_key(c: Candidate) -> tuple[str | None, str | None, str | None] | None:
    """Where a candidate was said: (session, turn, the caller's message id); None when unknown."""
    if c.side == "memory":
        return (c.session_id, c.turn_id, c.message_id) if c.turn_id and c.message_id else None
    if c.side == "turn" and c.metadata.get("message_id"):
        return (c.session_id, c.turn_id, str(c.metadata["message_id"]))
    return None


def merge_sources(ranked: Sequence[Candidate]) -> tuple[list[Candidate], list[dict[str, Any]]]:
    """One evidence per memory item and its source message (see module doc); the order is kept.

    The merged item takes the better score of the two and the turn's text beside its own
    (``metadata["source_text"]``); the turn is dropped with reason ``merged`` naming the item.
    """
    turns: dict[tuple[str | None, str | None, str | None], Candidate] = {}
    for c in ranked:
        key = _source_key(c)
        if c.side == "turn" and key is not None and key not in turns:
            turns[key] = c
    absorbed: dict[str, str] = {}  # turn candidate id -> memory candidate id
    for c in ranked:
        key = _source_key(c) if c.side == "memory" else None
        turn = turns.get(key) if key is not None else None
        if turn is None or turn.id in absorbed:
            continue
        absorbed[turn.id] = c.id
        if turn.score > c.score:
            c.score = turn.score
        who = f"{turn.speaker}: " if turn.speaker else ""
        c.metadata["source_text"] = f"{who}{turn.text}"
        c.text = f"{c.text}\n— {who}{turn.text}" if turn.text else c.text
    if not absorbed:
        return list(ranked), []
    kept = [c for c in ranked if c.id not in absorbed]
    dropped = [
        {"id": t.id, "reason": "merged", "rule": f"the source turn of {absorbed[t.id]}", "score": t.score}
        for t in ranked
        if t.id in absorbed
    ]
    return sorted(kept, key=lambda c: (-c.score, c.id)), dropped
