"""The slots of a composed context: their fixed order, the evidence drafts and the composed result, and
the text each slot is rendered as (exactly as ``ContextPackage.to_messages`` lays it out), which is
what the budget counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from graphbrain.compose.tokens import TokenCounter
from graphbrain.contracts import (
    Block,
    ChatTurn,
    Constraints,
    ContextEvidence,
    ContextPackage,
    EvidenceProvenance,
    EvidenceRef,
    Mode,
    Signals,
    UserMessage,
)

# The fixed slot order of seed §4.1 (and of ContextPackage).
SLOT_ORDER: tuple[str, ...] = (
    "system_blocks",
    "developer_blocks",
    "working_summary",
    "recent_turns",
    "evidence",
    "user_message",
)

# How ContextPackage.to_messages lays the slots out; the budget counts exactly these strings.
BLOCK_SEPARATOR = "\n\n"
SUMMARY_HEADING = "Working summary:\n"
EVIDENCE_HEADING = "Evidence:\n"
EVIDENCE_SEPARATOR = "\n\n"

EvidenceSource = Literal["memory", "resource"]


@dataclass
class EvidenceDraft:
    """One fused, reranked evidence candidate, before selection and labelling.

    ``covers_core``: it mentions the message's core entity or concept (seed §4.3). ``expansion_only``:
    only expansion queries found it (long-tail evidence, the first to go when the budget is tight).
    ``payload`` is carried through untouched for the caller (e.g. the retrieval Candidate).
    """

    id: str
    source: EvidenceSource
    snippet: str
    score: float
    source_uri: str
    mode: Mode = Mode.hybrid
    title: str | None = None
    document_id: str | None = None
    covers_core: bool = False
    expansion_only: bool = False
    signals: Signals = field(default_factory=Signals)
    provenance: EvidenceProvenance = field(default_factory=EvidenceProvenance)
    ref: EvidenceRef = field(default_factory=EvidenceRef)
    payload: Any = None

    def to_context(self, label: str, snippet: str | None = None) -> ContextEvidence:
        ref = self.ref
        if self.document_id and not ref.document_id:  # the draft's document is the ref's, unless told
            ref = ref.model_copy(update={"document_id": self.document_id})
        return ContextEvidence(
            id=self.id,
            label=label,
            source=self.source,
            source_uri=self.source_uri,
            title=self.title,
            snippet=self.snippet if snippet is None else snippet,
            mode=self.mode,
            score=self.score,
            signals=self.signals,
            provenance=self.provenance,
            ref=ref,
        )


@dataclass
class ComposedSlots:
    """The composed slots in their fixed order plus the budget figures: the lead maps it onto a
    ContextPackage (``constraints`` as is; ``dropped`` / ``why_selected`` / ``warnings`` into debug)."""

    system_blocks: list[Block]
    developer_blocks: list[Block]
    working_summary: str
    recent_turns: list[ChatTurn]
    evidence: list[ContextEvidence]
    user_message: UserMessage
    constraints: Constraints
    dropped: list[dict[str, Any]] = field(default_factory=list)
    why_selected: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    over_limit: bool = False  # only when the user message alone exceeds token_limit

    def slots(self) -> dict[str, Any]:
        """The ContextPackage fields this composition fills: ``ContextPackage(..., **composed.slots())``."""
        return {
            "system_blocks": self.system_blocks,
            "developer_blocks": self.developer_blocks,
            "working_summary": self.working_summary,
            "recent_turns": self.recent_turns,
            "evidence": self.evidence,
            "user_message": self.user_message,
            "constraints": self.constraints,
        }


# ===================================================================================== rendering
def render_evidence_item(ev: ContextEvidence) -> str:
    """One evidence item in the citable form of seed §4.5 (as ``ContextPackage.render_evidence``)."""
    head = f"[{ev.label}] {ev.title or ev.id} — {ev.source_uri}"
    return f"{head}\n{ev.snippet}\n(mode={ev.mode.value}, score={ev.score:.2f})"


def render_evidence(items: Sequence[ContextEvidence]) -> str:
    return EVIDENCE_SEPARATOR.join(render_evidence_item(e) for e in items)


def blocks_text(blocks: Sequence[Block]) -> str:
    return BLOCK_SEPARATOR.join(b.text for b in blocks)


def summary_text(summary: str) -> str:
    return SUMMARY_HEADING + summary if summary else ""


def evidence_text(items: Sequence[ContextEvidence]) -> str:
    return EVIDENCE_HEADING + render_evidence(items) if items else ""


def measure_package(package: ContextPackage, counter: TokenCounter) -> dict[str, int]:
    """Tokens per slot of a ContextPackage, counted the way ``compose_slots`` counts them."""
    return {
        "system_blocks": counter.count(blocks_text(package.system_blocks)),
        "developer_blocks": counter.count(blocks_text(package.developer_blocks)),
        "working_summary": counter.count(summary_text(package.working_summary)),
        "recent_turns": sum(counter.count(t.content) for t in package.recent_turns),
        "evidence": counter.count(evidence_text(package.evidence)),
        "user_message": counter.count(package.user_message.content),
    }


__all__ = [
    "SLOT_ORDER",
    "ComposedSlots",
    "EvidenceDraft",
    "blocks_text",
    "evidence_text",
    "measure_package",
    "render_evidence",
    "render_evidence_item",
    "summary_text",
]
