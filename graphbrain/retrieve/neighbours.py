"""A turn inherits part of its neighbours' scores: the conversation's own structure as evidence.

An answer is often the turn right after the one that matches the question ("Where did you move from?"
— "Sweden, four years ago"), or right before it. After fusion, every message candidate gains
``NEIGHBOUR_SHARE`` of the best fused score of the message just before it and the one just after it in
the session (the other messages of its turn, then the turns linked by ``NEXT``). Only candidates some
list found gain: a neighbour no list found at all shares nothing with the question (its own search text
holds the message before it, so an answer right after a matching question is found by full text), and
joining it would bring every "ok" and "Noted." beside a hit into the evidence. The executor does this for
plans with a relational query: the order of the conversation is graph structure, and walking it is
relational recall.

The neighbours of the ``NEIGHBOUR_POOL`` best message candidates are read in one query
(``retrieve/neighbour_turns``); scores propagate one step, from the fused scores (never from already
propagated ones), so the order does not depend on which candidate is visited first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graphbrain.retrieve.candidate import Candidate
from graphbrain.store.base import Row, Tx, collected

NEIGHBOUR_SHARE = 0.4  # measured on LoCoMo dev (README); 0.2–0.4 all help, more drowns the match itself
NEIGHBOUR_POOL = 60  # message candidates whose neighbours are read (the head evidence comes from)


@dataclass(frozen=True)
class Neighbour:
    node_id: str  # the Message node
    turn_id: str | None
    session_id: str | None


def _pick(entries: Sequence[Mapping[str, Any]], *, last: bool) -> Mapping[str, Any] | None:
    """The last (or first) message of a turn by position, ignoring the empty rows OPTIONAL MATCH leaves."""
    found = [e for e in entries if e.get("id") is not None]
    if not found:
        return None
    found.sort(key=lambda e: (int(e.get("position") or 0), str(e["id"])))
    return found[-1] if last else found[0]


def neighbours_of(row: Row) -> tuple[Neighbour | None, Neighbour | None]:
    """The message right before and right after one ``retrieve/neighbour_turns`` row's message."""
    position = int(row.get("position") or 0)
    own = [e for e in row.get("own") or [] if e.get("id") is not None and e["id"] != row["id"]]
    session = row.get("session_id")
    earlier = _pick([e for e in own if int(e.get("position") or 0) < position], last=True)
    later = _pick([e for e in own if int(e.get("position") or 0) > position], last=False)
    before = earlier or _pick(row.get("previous") or [], last=True)
    after = later or _pick(row.get("following") or [], last=False)
    turn = row.get("turn_id")

    def make(e: Mapping[str, Any] | None, same_turn: bool) -> Neighbour | None:
        if e is None:
            return None
        return Neighbour(str(e["id"]), turn if same_turn else e.get("turn_id"), session)

    return make(before, earlier is not None), make(after, later is not None)


def read_neighbours(tx: Tx, namespace: str, node_ids: Sequence[str]) -> dict[str, tuple[Neighbour | None, ...]]:
    """Message node id → (the message before, the message after), for ``node_ids``, in one query
    (``tx``: an open transaction, or the store itself)."""
    if not node_ids:
        return {}
    rows = collected(tx.run("retrieve/neighbour_turns", {"namespace": namespace, "ids": list(node_ids)}))
    return {str(r["id"]): neighbours_of(r) for r in rows}


def spread(
    fused: Sequence[Candidate], neighbours: Mapping[str, tuple[Neighbour | None, ...]], share: float = NEIGHBOUR_SHARE
) -> list[Candidate]:
    """Every message candidate gains ``share`` × the best fused score beside it (``neighbour_score``).

    Returns the candidates best first (ties by id).
    """
    by_node: dict[str, Candidate] = {
        str(c.metadata.get("node_id")): c for c in fused if c.side == "turn" and c.metadata.get("node_id")
    }
    base = {node: c.score for node, c in by_node.items()}
    gained: dict[str, float] = {}
    for node, pair in neighbours.items():
        score = base.get(node)
        if score is None:
            continue
        for n in pair:
            if n is not None and n.node_id in by_node and share * score > gained.get(n.node_id, 0.0):
                gained[n.node_id] = share * score
    out: list[Candidate] = []
    for c in fused:
        node = str(c.metadata.get("node_id")) if c.side == "turn" else ""
        bonus = gained.get(node, 0.0)
        if bonus > 0:
            c.score += bonus
            c.signals["neighbour_score"] = round(bonus, 6)
        out.append(c)
    return sorted(out, key=lambda c: (-c.score, c.id))
