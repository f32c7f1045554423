"""The executor's internal unit: one hit from one mode for one query, before fusion.

Each mode's retriever turns database rows into Candidates; fuse / rerank / diversity / snippets are pure
functions over them; only at the end do they become contract ``Evidence`` items.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from graphbrain.contracts import Mode

Side = Literal["memory", "turn", "resource"]


@dataclass
class Candidate:
    # identity: stable evidence id, e.g. "memory:<id>", "turn:<id>", "<doc>:<section>:<chunk>"
    id: str
    side: Side
    text: str  # full searchable text (l2)
    mode: Mode  # the mode that found it (after fusion: the strongest provenance)
    query_index: int
    query_text: str
    weight: float = 1.0  # the query's weight
    rank: int = 0  # 1-based rank within its own (mode, query) list
    raw_score: float = 0.0  # the backend's score (bm25, cosine, pagerank)
    # descriptive fields
    title: str | None = None
    source_uri: str = ""
    source_type: str = "other"
    language: str | None = None
    document_id: str | None = None
    section_id: str | None = None
    chunk_index: int | None = None
    l0: str | None = None  # one-line abstract
    l1: str | None = None  # short overview
    metadata: dict[str, Any] = field(default_factory=dict)
    # memory-side fields
    memory_type: str | None = None
    memory_key: str | None = None
    status: str | None = None
    confidence: float | None = None
    session_id: str | None = None
    turn_id: str | None = None
    message_id: str | None = None
    memory_item_id: str | None = None
    entities: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    at: datetime | None = None  # turn time / updated_at / document updated time
    speaker: str | None = None  # a message's speaker (its ``name``), when the caller gave one
    filler: bool = False  # a message that is only an acknowledgement or a greeting
    path: list[str] | None = None  # relational: explanation path
    content_hash: str | None = None
    # scores filled along the pipeline
    signals: dict[str, float | int] = field(default_factory=dict)
    score: float = 0.0
    # every (mode, query) list that found this item, filled by fuse: mode, query_index, rank, raw_score,
    # contribution (its share of the fused score); the strongest one is the provenance above
    hits: list[dict[str, Any]] = field(default_factory=list)
    # the reranker's feature values (coverage, entities, recency, source, status, fused), for explain
    features: dict[str, float] = field(default_factory=dict)

    @property
    def dedup_key(self) -> str:
        """Seed §3.4: resources by document+section(+chunk), memory by item id or turn+message."""
        if self.side == "resource":
            return f"res:{self.document_id}:{self.section_id}:{self.chunk_index}"
        if self.memory_item_id:
            return f"mem:{self.memory_item_id}"
        return f"turn:{self.turn_id}:{self.message_id}"
