"""commit_turn's wire: the TurnEvents a caller sends and the CommitResult it gets back."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from graphbrain.contracts.base import (
    ID_PATTERN,
    MAX_ID_CHARS,
    MAX_ITEMS_PER_TURN,
    MAX_MESSAGE_CHARS,
    MAX_MESSAGES_PER_TURN,
    MAX_NAMESPACE_CHARS,
    MAX_REFS_PER_TURN,
    NAMESPACE_PATTERN,
    FreeJson,
    JsonObject,
    _aware,
    _Parsed,
    _Strict,
)
from graphbrain.contracts.memory import KEY_PREFIX, MemoryStatus, MemoryType


class ToolCall(_Strict):
    id: str = Field(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN)
    name: str = Field(min_length=1, max_length=256)
    args: JsonObject = Field(default_factory=dict)


class Message(_Strict):
    message_id: str | None = Field(None, max_length=MAX_ID_CHARS, pattern=ID_PATTERN)
    role: Literal["user", "assistant", "tool", "system"]
    content: str = Field("", max_length=MAX_MESSAGE_CHARS)
    name: str | None = Field(None, max_length=256)
    tool_calls: list[ToolCall] = Field(default_factory=list, max_length=64)
    tool_call_id: str | None = Field(None, max_length=MAX_ID_CHARS)
    status: Literal["ok", "error"] | None = None
    result: FreeJson = None
    at: datetime | None = None

    _aware = field_validator("at")(_aware)

    @field_validator("content")
    @classmethod
    def _no_nul(cls, v: str) -> str:
        if "\x00" in v:
            raise ValueError("must not contain NUL characters")
        return v


class RefIn(_Strict):
    type: Literal["file", "url", "artifact"]
    uri: str = Field(min_length=1, max_length=4096)
    title: str | None = Field(None, max_length=1024)
    metadata: JsonObject = Field(default_factory=dict)

    @field_validator("uri")
    @classmethod
    def _no_ctrl(cls, v: str) -> str:
        if any(ord(c) < 32 for c in v):
            raise ValueError("must not contain control characters")
        return v.strip()


class ExplicitItem(_Strict):
    """A structured memory item reported by a tool or the caller (bypasses extraction, not the gate)."""

    type: MemoryType
    key: str = Field(min_length=3, max_length=512)
    value: JsonObject
    source: Literal["tool", "user", "assistant", "inferred"] = "tool"
    confidence: float | None = Field(None, ge=0, le=1)
    status: MemoryStatus | None = None
    evidence_refs: list[str] = Field(default_factory=list, max_length=64)

    @model_validator(mode="after")
    def _key_matches_type(self) -> ExplicitItem:
        prefix = KEY_PREFIX[self.type] + ":"
        if not self.key.startswith(prefix):
            raise ValueError(f"key must start with {prefix!r} for type {self.type.value!r}")
        return self


class TurnEvents(_Parsed, _Strict):
    # No docstring: it would become the model's OpenAPI description. parse() raises InputError.
    _parse_field = "turn_events"
    _parse_title = "turn_events"

    turn_id: str | None = Field(None, max_length=MAX_ID_CHARS, pattern=ID_PATTERN)
    at: datetime | None = None
    namespace: str | None = Field(None, max_length=MAX_NAMESPACE_CHARS, pattern=NAMESPACE_PATTERN)
    messages: list[Message] = Field(min_length=1, max_length=MAX_MESSAGES_PER_TURN)
    refs: list[RefIn] = Field(default_factory=list, max_length=MAX_REFS_PER_TURN)
    items: list[ExplicitItem] = Field(default_factory=list, max_length=MAX_ITEMS_PER_TURN)
    metadata: JsonObject = Field(default_factory=dict)

    _aware = field_validator("at")(_aware)

    @model_validator(mode="after")
    def _unique_ids(self) -> TurnEvents:
        """Ids the caller gives must be unique within the turn: they name nodes."""
        message_ids = [m.message_id for m in self.messages if m.message_id]
        if len(message_ids) != len(set(message_ids)):
            raise ValueError("messages: message_id values must be unique within a turn")
        call_ids = [c.id for m in self.messages for c in m.tool_calls]
        if len(call_ids) != len(set(call_ids)):
            raise ValueError("messages: tool_calls ids must be unique within a turn")
        return self


class MemoryWritten(_Strict):
    id: str
    type: MemoryType
    key: str
    confidence: float
    status: MemoryStatus
    action: Literal["created", "updated", "superseded", "retracted", "unchanged", "versioned"]


class RetentionDecision(_Strict):
    type: str
    key: str | None = None
    text: str
    kept: bool
    reason: str
    confidence: float | None = None


class ConflictDecision(_Strict):
    key: str
    type: str
    action: Literal["superseded", "retracted", "versioned", "merged", "unchanged"]
    old_id: str | None = None
    new_id: str | None = None
    old_value: dict[str, Any] | None = None
    new_value: dict[str, Any] | None = None
    reason: str


class SummaryInfo(_Strict):
    updated: bool = False
    triggered: bool = False
    reason: str | None = None
    version: int | None = None
    source_turn_range: list[int] | None = None


class CommitExplain(_Strict):
    retention: list[RetentionDecision] = Field(default_factory=list)
    conflicts: list[ConflictDecision] = Field(default_factory=list)
    entities: list[dict[str, Any]] = Field(default_factory=list)
    refs: list[dict[str, Any]] = Field(default_factory=list)
    summary: SummaryInfo = Field(default_factory=SummaryInfo)


class CommitResult(_Strict):
    ok: bool = True
    status: Literal["committed", "duplicate", "pending"] = "committed"
    commit_id: str
    session_id: str
    turn_id: str
    namespace: str
    seq: int | None = None
    memory_written: list[MemoryWritten] = Field(default_factory=list)
    summary: SummaryInfo = Field(default_factory=SummaryInfo)
    explain: CommitExplain = Field(default_factory=CommitExplain)
    took_ms: float = 0.0
    warnings: list[str] = Field(default_factory=list)


# What `from graphbrain.contracts import ...` re-exports from this module.
__all__ = ["CommitExplain", "CommitResult", "ConflictDecision", "ExplicitItem", "MemoryWritten", "Message"]
__all__ += ["RefIn", "RetentionDecision", "SummaryInfo", "ToolCall", "TurnEvents"]
