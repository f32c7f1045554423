"""The ContextPackage compose returns: prompt blocks, recent turns, cited evidence, budget and debug."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from graphbrain.contracts.base import _Strict
from graphbrain.contracts.evidence import Signals
from graphbrain.contracts.plan import Mode


class BlockSource(_Strict):
    turn_id: str | None = None
    memory_item_id: str | None = None


class Block(_Strict):
    type: Literal[
        "core_profile",
        "preferences",
        "goals",
        "tasks",
        "decisions",
        "policies",
        "tooling",
        "format",
        "safety",
        "other",
    ]
    text: str
    updated_at: datetime | None = None
    source: BlockSource = Field(default_factory=BlockSource)


class ChatTurn(_Strict):
    role: Literal["user", "assistant", "tool", "system"]
    content: str
    turn_id: str | None = None


class EvidenceProvenance(_Strict):
    request_id: str | None = None
    plan_version: str = "0.1"
    retrieved_at: datetime | None = None
    query_text: str | None = None
    path: list[str] | None = None


class EvidenceRef(_Strict):
    document_id: str | None = None
    section_id: str | None = None
    turn_id: str | None = None
    message_id: str | None = None
    memory_item_id: str | None = None


class ContextEvidence(_Strict):
    id: str
    label: str  # E1, E2 ... as rendered
    source: Literal["memory", "resource"]
    source_uri: str
    title: str | None = None
    snippet: str
    mode: Mode
    score: float
    signals: Signals = Field(default_factory=Signals)
    provenance: EvidenceProvenance = Field(default_factory=EvidenceProvenance)
    ref: EvidenceRef = Field(default_factory=EvidenceRef)


class UserMessage(_Strict):
    role: Literal["user"] = "user"
    content: str


class TokenBudget(_Strict):
    limit: int
    used_estimate: int
    by_slot: dict[str, int] = Field(default_factory=dict)
    trimmed: int = 0
    counter: str = "estimate"


class Constraints(_Strict):
    token_budget: TokenBudget
    diversity: dict[str, Any] = Field(default_factory=dict)
    truncation: list[dict[str, Any]] = Field(default_factory=list)


class ContextDebug(_Strict):
    planner: dict[str, Any] = Field(default_factory=dict)
    why_selected: list[dict[str, Any]] = Field(default_factory=list)
    ignored: list[str] = Field(default_factory=list)
    dropped: list[dict[str, Any]] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    plans: list[dict[str, Any]] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    # graphbrain extension: true when the graph was unreachable and the package holds only the
    # journal's recent turns (storage.degraded_compose).
    degraded: bool = False


class ContextPackage(_Strict):
    version: str = "0.1"
    context_id: str
    session_id: str
    namespace: str
    created_at: datetime
    system_blocks: list[Block] = Field(default_factory=list)
    developer_blocks: list[Block] = Field(default_factory=list)
    working_summary: str = ""
    recent_turns: list[ChatTurn] = Field(default_factory=list)
    evidence: list[ContextEvidence] = Field(default_factory=list)
    user_message: UserMessage
    constraints: Constraints
    debug: ContextDebug = Field(default_factory=ContextDebug)

    def render_evidence(self) -> str:
        """Evidence in the stable citable form of seed §4.5."""
        parts = []
        for ev in self.evidence:
            head = f"[{ev.label}] {ev.title or ev.id} — {ev.source_uri}"
            parts.append(f"{head}\n{ev.snippet}\n(mode={ev.mode.value}, score={ev.score:.2f})")
        return "\n\n".join(parts)

    def to_messages(self) -> list[dict[str, str]]:
        """A chat message list for OpenAI-style clients: system, developer, history, evidence, user."""
        msgs: list[dict[str, str]] = []
        system = "\n\n".join(b.text for b in self.system_blocks)
        if system:
            msgs.append({"role": "system", "content": system})
        dev = "\n\n".join(b.text for b in self.developer_blocks)
        if dev:
            msgs.append({"role": "developer", "content": dev})
        if self.working_summary:
            msgs.append({"role": "system", "content": "Working summary:\n" + self.working_summary})
        for t in self.recent_turns:
            role = t.role if t.role in ("user", "assistant") else "system"
            msgs.append({"role": role, "content": t.content})
        if self.evidence:
            msgs.append({"role": "system", "content": "Evidence:\n" + self.render_evidence()})
        msgs.append({"role": "user", "content": self.user_message.content})
        return msgs

    def to_text(self) -> str:
        """One prompt string, slots in their fixed order."""
        out: list[str] = []
        for m in self.to_messages():
            out.append(f"### {m['role']}\n{m['content']}")
        return "\n\n".join(out)


# What `from graphbrain.contracts import ...` re-exports from this module.
__all__ = ["Block", "BlockSource", "ChatTurn", "Constraints", "ContextDebug", "ContextEvidence"]
__all__ += ["ContextPackage", "EvidenceProvenance", "EvidenceRef", "TokenBudget", "UserMessage"]
