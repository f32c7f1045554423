"""The RetrievalPlan (seed-retrieval_plan.md): queries, filters, budget, ranking and output options.

Unknown fields are kept aside, never an error (protocol §10), and ``RetrievalPlan.unknown_fields()``
names them for ``explain.ignored_fields``.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from graphbrain.contracts.base import (
    MAX_ID_CHARS,
    MAX_NAMESPACE_CHARS,
    MAX_PLAN_QUERIES,
    MAX_QUERY_CHARS,
    NAMESPACE_PATTERN,
    FiniteFloat,
    JsonObject,
    Weight,
    _aware,
    _Open,
    _Parsed,
)
from graphbrain.contracts.memory import MemoryStatus, MemoryType
from graphbrain.errors import PlanError


class Mode(StrEnum):
    exact = "exact"
    semantic = "semantic"
    hybrid = "hybrid"
    relational = "relational"
    associative = "associative"


Purpose = Literal["qa", "continue_task", "debug", "summarize", "research", "other"]
SourceType = Literal["url", "file", "manual", "memory_snapshot", "other"]


class TimeRange(_Open):
    from_: datetime | None = Field(None, alias="from")
    to: datetime | None = None

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    _aware = field_validator("from_", "to")(_aware)

    @model_validator(mode="after")
    def _ordered(self) -> TimeRange:
        if self.from_ and self.to and self.from_ > self.to:
            raise ValueError("'from' must not be after 'to'")
        return self


class Filters(_Open):
    document_ids: list[str] | None = None
    tag_ids: list[str] | None = None
    topic_ids: list[str] | None = None
    source_type: list[SourceType] | None = None
    source_uri_prefix: list[str] | None = None
    language: list[str] | None = None
    time_range: TimeRange | None = None
    # memory-side filters (graphbrain extension)
    types: list[MemoryType] | None = None
    status: list[MemoryStatus] | None = None
    session_ids: list[str] | None = None
    # which side(s) to search: graphbrain extension; default both
    scope: list[Literal["memory", "turns", "resources"]] | None = None

    def merged(self, other: Filters | None) -> Filters:
        """Per-query filters override/complete the global ones."""
        if other is None:
            return self
        data = self.model_dump(exclude_none=True, by_alias=True)
        data.update(other.model_dump(exclude_none=True, by_alias=True))
        return Filters.model_validate(data)


class Query(_Open):
    text: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    mode: Mode = Mode.hybrid
    weight: float = Field(1.0, ge=0, le=10)
    filters: Filters | None = None
    hints: JsonObject = Field(default_factory=dict)

    @field_validator("text")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        if "\x00" in v:
            raise ValueError("must not contain NUL characters")
        return v


class PlanDiversity(_Open):
    by_document: int | None = Field(3, ge=1)
    by_source: int | None = Field(10, ge=1)
    by_section: int | None = Field(None, ge=1)


class Budget(_Open):
    top_k: int = Field(30, ge=1, le=1000)
    per_mode_k: dict[Mode, int] = Field(default_factory=dict)
    candidate_k: int = Field(200, ge=1, le=10000)
    diversity: PlanDiversity = Field(default_factory=PlanDiversity)

    @field_validator("per_mode_k")
    @classmethod
    def _non_negative(cls, v: dict[Mode, int]) -> dict[Mode, int]:
        for mode, k in v.items():
            if k < 0:
                raise ValueError(f"per_mode_k.{mode.value} must be >= 0")
        return v


class Fusion(_Open):
    method: Literal["rrf", "weighted_sum", "none"] = "rrf"
    rrf_k: int = Field(60, ge=1)
    weights: dict[str, Weight] = Field(default_factory=dict)


class Rerank(_Open):
    enabled: bool = True
    model: str | None = None
    top_n: int = Field(50, ge=1, le=10000)


class Ranking(_Open):
    fusion: Fusion = Field(default_factory=Fusion)
    rerank: Rerank = Field(default_factory=Rerank)
    tie_breaker: Literal["recency", "source_priority", "none"] = "recency"
    source_priority: dict[str, FiniteFloat] = Field(default_factory=dict)


class Output(_Open):
    include_snippets: bool = True
    snippet_policy: Literal["l0", "l1", "l2", "auto"] = "auto"
    include_signals: bool = True
    include_provenance: bool = True
    include_raw: bool = False
    max_snippet_chars: int = Field(800, ge=1, le=100_000)


class Debug(_Open):
    trace: bool = False
    notes: str | None = None
    caller: JsonObject = Field(default_factory=dict)


class RetrievalPlan(_Parsed, _Open):
    # No docstring: it would become the model's OpenAPI description. parse() raises PlanError.
    _parse_field = "plan"
    _parse_title = "RetrievalPlan"
    _parse_error = PlanError

    version: str = Field(min_length=1, max_length=16)
    request_id: str | None = Field(None, max_length=MAX_ID_CHARS)
    purpose: Purpose | None = None
    queries: list[Query] = Field(min_length=1, max_length=MAX_PLAN_QUERIES)
    global_filters: Filters = Field(default_factory=Filters)
    budget: Budget = Field(default_factory=Budget)
    ranking: Ranking = Field(default_factory=Ranking)
    output: Output = Field(default_factory=Output)
    debug: Debug = Field(default_factory=Debug)
    # graphbrain extension: the tenant; the executor also forces it from the caller's scope.
    namespace: str | None = Field(None, max_length=MAX_NAMESPACE_CHARS, pattern=NAMESPACE_PATTERN)

    def unknown_fields(self) -> list[str]:
        """Dotted paths of every field this executor does not know (protocol §10)."""
        out: list[str] = []

        def walk(obj: Any, path: str) -> None:
            if isinstance(obj, BaseModel):
                for name in obj.model_extra or {}:
                    out.append(f"{path}.{name}" if path else name)
                for name in type(obj).model_fields:
                    walk(getattr(obj, name), f"{path}.{name}" if path else name)
            elif isinstance(obj, list):
                for i, v in enumerate(obj):
                    walk(v, f"{path}[{i}]")

        walk(self, "")
        return out


# What `from graphbrain.contracts import ...` re-exports from this module.
__all__ = ["Budget", "Debug", "Filters", "Fusion", "Mode", "Output", "PlanDiversity", "Purpose", "Query"]
__all__ += ["Ranking", "Rerank", "RetrievalPlan", "SourceType", "TimeRange"]
