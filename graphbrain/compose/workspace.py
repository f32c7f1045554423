"""The working state of one slot composition: the slots, their token costs (cached per slot, dropped when
the slot changes) and the record of every cut. The rules that change the slots are in ``budget``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from graphbrain.compose.slots import (
    SLOT_ORDER,
    EvidenceDraft,
    blocks_text,
    evidence_text,
    render_evidence_item,
    summary_text,
)
from graphbrain.compose.tokens import TokenCounter
from graphbrain.config import CompositionConfig
from graphbrain.contracts import Block, ChatTurn, ContextEvidence

T = TypeVar("T")


@dataclass
class EvidenceItem:
    """An evidence draft under selection: its snippet as capped so far and its place in the input."""

    draft: EvidenceDraft
    snippet: str
    order: int  # position in the incoming list: the tie-break among equal scores
    reason: str = "score"  # why it was selected: "score" or "coverage"


class _Slot(Generic[T]):
    """One slot of a ``Workspace`` (kept as ``_<name>``): setting it drops the slot's cached token count."""

    def __init__(self, slot: str) -> None:
        self.slot = slot
        self.attr = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = f"_{name}"

    def __get__(self, obj: Workspace, objtype: type | None = None) -> T:
        return cast(T, getattr(obj, self.attr))

    def __set__(self, obj: Workspace, value: T) -> None:
        setattr(obj, self.attr, value)
        obj._costs.pop(self.slot, None)


class Workspace:
    """One composition's working state: the slots, their cached token costs, the records of every cut."""

    # Each slot is a _Slot so that any change to it drops its cached token count (the value is in _<name>).
    system: _Slot[list[Block]] = _Slot("system_blocks")
    developer: _Slot[list[Block]] = _Slot("developer_blocks")
    summary: _Slot[str] = _Slot("working_summary")
    turns: _Slot[list[tuple[int, ChatTurn]]] = _Slot("recent_turns")
    evidence: _Slot[list[EvidenceItem]] = _Slot("evidence")
    user: _Slot[str] = _Slot("user_message")

    def __init__(self, cfg: CompositionConfig, counter: TokenCounter) -> None:
        self.cfg = cfg
        self.counter = counter
        self.dropped: list[dict[str, Any]] = []
        self.truncation: list[dict[str, Any]] = []
        self.warnings: list[str] = []
        self._system: list[Block] = []
        self._developer: list[Block] = []
        self._summary = ""
        self._turns: list[tuple[int, ChatTurn]] = []  # (index in the input, turn)
        self._evidence: list[EvidenceItem] = []  # kept sorted best first
        self._user = ""
        self._costs: dict[str, int] = {}  # per-slot token counts, dropped when the slot changes
        self.protected: EvidenceItem | None = None  # the coverage item
        self.share = cfg.diversity.memory_share

    # ------------------------------------------------------------------------------- costs
    def _labelled(self, items: Sequence[EvidenceItem]) -> list[ContextEvidence]:
        return [e.draft.to_context(f"E{i + 1}", e.snippet) for i, e in enumerate(items)]

    def _evidence_cost(self, items: Sequence[EvidenceItem]) -> int:
        return self.counter.count(evidence_text(self._labelled(items)))

    def _item_tokens(self, e: EvidenceItem) -> int:
        return self.counter.count(render_evidence_item(e.draft.to_context("E0", e.snippet)))

    def _slot_cost(self, slot: str) -> int:
        c = self.counter
        if slot == "system_blocks":
            return c.count(blocks_text(self.system))
        if slot == "developer_blocks":
            return c.count(blocks_text(self.developer))
        if slot == "working_summary":
            return c.count(summary_text(self.summary))
        if slot == "recent_turns":
            return sum(c.count(t.content) for _, t in self.turns)
        if slot == "evidence":
            return self._evidence_cost(self.evidence)
        return c.count(self.user)

    def costs(self) -> dict[str, int]:
        """Tokens per slot, in slot order (each counted on its rendered form)."""
        for slot in SLOT_ORDER:
            if slot not in self._costs:
                self._costs[slot] = self._slot_cost(slot)
        return {slot: self._costs[slot] for slot in SLOT_ORDER}

    def total(self) -> int:
        return sum(self.costs().values())

    def room_for(self, slot: str) -> int:
        """Tokens the slot may use with every other slot as it is now."""
        costs = self.costs()
        return self.cfg.token_limit - (sum(costs.values()) - costs[slot])

    def over(self) -> bool:
        return self.total() > self.cfg.token_limit

    # ------------------------------------------------------------------------------- records
    def drop(self, slot: str, reason: str, tokens: int, **ident: Any) -> None:
        self.dropped.append({"slot": slot, **ident, "reason": reason, "tokens": tokens})

    def drop_turn(self, index: int, turn: ChatTurn, reason: str, **extra: Any) -> None:
        """A recent turn dropped: recorded with its place, turn_id and role."""
        tokens = self.counter.count(turn.content)
        self.drop("recent_turns", reason, tokens, index=index, turn_id=turn.turn_id, role=turn.role, **extra)

    def truncated(self, slot: str, reason: str, before: int, after: int, **ident: Any) -> None:
        self.truncation.append({"slot": slot, **ident, "reason": reason, "from_tokens": before, "to_tokens": after})


__all__ = ["EvidenceItem", "Workspace"]
