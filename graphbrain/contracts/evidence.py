"""The EvidencePack retrieve returns: scored evidence with its signals, provenance and the pack's stats."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphbrain.contracts.base import _Strict
from graphbrain.contracts.plan import Mode, SourceType


class Signals(BaseModel):
    model_config = ConfigDict(extra="allow")
    vector_score: float | None = None
    vector_rank: int | None = None
    fts_score: float | None = None
    fts_rank: int | None = None
    rrf_score: float | None = None
    rerank_score: float | None = None
    tag_score: float | None = None
    topic_score: float | None = None
    recency_score: float | None = None
    graph_score: float | None = None
    graph_rank: int | None = None


class Provenance(_Strict):
    mode: Mode
    query_text: str
    query_index: int
    retrieved_at: datetime
    path: list[str] | None = None  # relational: the path that explains the hit


class EvidenceMetadata(BaseModel):
    model_config = ConfigDict(extra="allow")
    chunk_index: int | None = None
    offset_start: int | None = None
    offset_end: int | None = None
    page: int | None = None
    section_title: str | None = None


class Raw(_Strict):
    content_ref: str | None = None
    content_hash: str | None = None


EvidenceKind = Literal["resource_section", "resource_doc", "memory_chunk", "other"]


class Evidence(_Strict):
    id: str
    kind: EvidenceKind
    document_id: str | None = None
    section_id: str | None = None
    title: str | None = None
    source_uri: str
    source_type: SourceType = "other"
    snippet: str
    snippet_policy: Literal["l0", "l1", "l2", "auto"] = "auto"
    language: str | None = None
    score: float = 0.0
    signals: Signals = Field(default_factory=Signals)
    provenance: Provenance
    metadata: EvidenceMetadata = Field(default_factory=EvidenceMetadata)
    raw: Raw | None = None
    # graphbrain extension: the memory record behind the evidence (for mapping and citing)
    ref: dict[str, Any] = Field(default_factory=dict)


class ModeStats(_Strict):
    candidates: int = 0
    returned: int = 0
    took_ms: float = 0.0


class PackStats(_Strict):
    candidates: int = 0
    returned: int = 0
    took_ms: float = 0.0
    by_mode: dict[str, ModeStats] = Field(default_factory=dict)


class PackExplain(_Strict):
    fusion: dict[str, Any] = Field(default_factory=dict)
    rerank: dict[str, Any] = Field(default_factory=dict)
    filters_applied: dict[str, Any] = Field(default_factory=dict)
    diversity: dict[str, Any] = Field(default_factory=dict)
    ignored_fields: list[str] = Field(default_factory=list)
    dropped: list[dict[str, Any]] = Field(default_factory=list)


class EvidencePack(_Strict):
    version: str = "0.1"
    plan: dict[str, Any]
    plan_id: str
    request_id: str | None = None
    generated_at: datetime
    evidences: list[Evidence] = Field(default_factory=list)
    stats: PackStats = Field(default_factory=PackStats)
    explain: PackExplain = Field(default_factory=PackExplain)
    warnings: list[str] = Field(default_factory=list)


# What `from graphbrain.contracts import ...` re-exports from this module.
__all__ = ["Evidence", "EvidenceKind", "EvidenceMetadata", "EvidencePack", "ModeStats", "PackExplain"]
__all__ += ["PackStats", "Provenance", "Raw", "Signals"]
