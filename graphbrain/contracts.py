"""The wire contracts, in one place: CONTRACTS.md and seed-retrieval_plan.md as pydantic v2 models.

Field names are the wire names. Input models validate at the edge (sizes, enums, time ranges) and
name the field and the reason. The RetrievalPlan ignores unknown fields, as protocol §10 asks, and
reports them through ``RetrievalPlan.unknown_fields()`` so the executor can name them in
``explain.ignored_fields``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from graphbrain.errors import InputError, PlanError, format_validation_errors

# Limits for caller input; generous for real use, small enough that hostile input is refused early.
MAX_MESSAGE_CHARS = 200_000
MAX_MESSAGES_PER_TURN = 200
MAX_REFS_PER_TURN = 200
MAX_ITEMS_PER_TURN = 200
MAX_PLAN_QUERIES = 32
MAX_QUERY_CHARS = 4_000
MAX_ID_CHARS = 256
ID_PATTERN = r"^[^\x00-\x1f]{1,256}$"
NAMESPACE_PATTERN = r"^[A-Za-z0-9_.:\-]+$"
MAX_NAMESPACE_CHARS = 128
# Free-form JSON (metadata, tool args and results, item values, hints) nests at most this deep.
MAX_JSON_DEPTH = 64


def utcnow() -> datetime:
    return datetime.now(UTC)


def _storable_model(model: BaseModel) -> None:
    """Every string a model holds must be storable. pydantic checks a ``str`` for lone surrogates only
    when the field has constraints, so plain ``str`` / ``list[str]`` fields (and unknown fields, kept
    and echoed in the plan JSON) are checked here. Nested models check themselves."""
    values = {**{name: getattr(model, name) for name in type(model).model_fields}, **(model.model_extra or {})}
    for name, value in values.items():
        if not isinstance(value, BaseModel) and (problem := json_problem(value, name)):
            raise ValueError(problem)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="after")
    def _storable(self) -> _Strict:
        _storable_model(self)
        return self


class _Open(BaseModel):
    """A protocol model: unknown fields are kept aside (and reported), never an error."""

    model_config = ConfigDict(extra="allow")

    @model_validator(mode="after")
    def _storable(self) -> _Open:
        _storable_model(self)
        return self


def _aware(v: datetime | None) -> datetime | None:
    """Naive times are UTC; a time that leaves years 1..9999 once in UTC cannot be stored: refused."""
    if v is None:
        return v
    if v.tzinfo is None:
        v = v.replace(tzinfo=UTC)
    try:
        v.astimezone(UTC)
    except OverflowError:
        raise ValueError("out of range: in UTC it must fall within years 1 to 9999") from None
    return v


# ====================================================================== text and free-form JSON
def safe_text(value: object, limit: int = 80) -> str:
    """A value as text that can always be encoded (for error messages): lone surrogates escaped, cut."""
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def text_problem(value: str) -> str | None:
    """Why a caller's string cannot be stored, or None. Python strings may hold lone surrogates
    (``"\\ud800"`` from JSON, ``surrogateescape`` file names); UTF-8, Neo4j and SQLite cannot."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "must be valid Unicode text (no lone surrogate code points)"
    return None


def check_text(value: str | None, field: str) -> str | None:
    """``value`` unchanged, or InputError naming ``field`` when it cannot be stored as text."""
    if isinstance(value, str) and (problem := text_problem(value)):
        raise InputError(f"{field}: {problem}", [{"field": field, "reason": problem}])
    return value


def json_problem(value: Any, path: str = "", depth: int = 0) -> str | None:
    """Why free-form JSON cannot be stored (a lone surrogate in a key or string, nesting deeper than
    ``MAX_JSON_DEPTH``), as ``"path: reason"``; None when it can."""
    where = path or "value"
    if depth > MAX_JSON_DEPTH:
        return f"{where}: nested deeper than {MAX_JSON_DEPTH} levels"
    if isinstance(value, str):
        problem = text_problem(value)
        return f"{where}: {problem}" if problem else None
    if isinstance(value, Mapping):
        for k, v in value.items():
            sub = f"{path}.{safe_text(k, 40)}" if path else safe_text(k, 40)
            if isinstance(k, str) and (problem := text_problem(k)):
                return f"{sub}: key {problem}"
            if found := json_problem(v, sub, depth + 1):
                return found
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            if found := json_problem(v, f"{path}[{i}]", depth + 1):
                return found
    return None


def _storable_json(v: Any) -> Any:
    if problem := json_problem(v):
        raise ValueError(problem)
    return v


def check_json(value: Any, field: str) -> Any:
    """``value`` unchanged, or InputError naming ``field`` (and the path inside it) when it cannot be stored."""
    if problem := json_problem(value):
        raise InputError(f"{field}.{problem}", [{"field": field, "reason": problem}])
    return value


# A caller's free-form JSON: any shape, but storable (valid Unicode, bounded depth).
FreeJson = Annotated[Any, AfterValidator(_storable_json)]
JsonObject = Annotated[dict[str, Any], AfterValidator(_storable_json)]
# A weight or priority given by a caller: finite (NaN would make every ordering arbitrary).
Weight = Annotated[float, Field(ge=0, le=10)]
FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]


def validate_namespace(namespace: Any, field: str = "namespace") -> str:
    """A tenant name as every surface spells it: letters, digits and ``_.:-``, 1..128 characters."""
    if not isinstance(namespace, str) or not re.fullmatch(NAMESPACE_PATTERN, namespace) or len(namespace) > 128:
        reason = f"letters, digits and _.:- only, 1 to {MAX_NAMESPACE_CHARS} characters"
        raise InputError(f"{field}: {reason}", [{"field": field, "reason": reason}])
    return namespace


# ====================================================================== memory types
class MemoryType(StrEnum):
    profile = "profile"
    preferences = "preferences"
    goals = "goals"
    tasks = "tasks"
    decisions = "decisions"
    entities = "entities"
    events = "events"
    cases = "cases"
    patterns = "patterns"


# Key prefix per type (CONTRACTS.md §2).
KEY_PREFIX: dict[MemoryType, str] = {
    MemoryType.profile: "profile",
    MemoryType.preferences: "pref",
    MemoryType.goals: "goal",
    MemoryType.tasks: "task",
    MemoryType.decisions: "decision",
    MemoryType.entities: "entity",
    MemoryType.events: "event",
    MemoryType.cases: "case",
    MemoryType.patterns: "pattern",
}

# Graph label per type.
TYPE_LABEL: dict[MemoryType, str] = {
    MemoryType.profile: "Profile",
    MemoryType.preferences: "Preference",
    MemoryType.goals: "Goal",
    MemoryType.tasks: "Task",
    MemoryType.decisions: "Decision",
    MemoryType.entities: "EntityMemory",
    MemoryType.events: "Event",
    MemoryType.cases: "Case",
    MemoryType.patterns: "Pattern",
}

OVERWRITE_TYPES = frozenset({MemoryType.preferences, MemoryType.goals, MemoryType.tasks})
VERSIONED_TYPES = frozenset(
    {MemoryType.decisions, MemoryType.events, MemoryType.cases, MemoryType.patterns, MemoryType.profile}
)

MemoryStatus = Literal["active", "superseded", "retracted"]
TaskStatus = Literal["todo", "doing", "done", "blocked"]


class MemoryItem(_Strict):
    id: str
    namespace: str
    type: MemoryType
    key: str
    value: dict[str, Any]
    text: str
    confidence: float = Field(ge=0, le=1)
    status: MemoryStatus = "active"
    source: Literal["user", "assistant", "tool", "inferred"] = "user"
    source_session_id: str | None = None
    source_turn_id: str | None = None
    source_message_id: str | None = None
    evidence_refs: list[str] = Field(default_factory=list)
    version: int = 1
    created_at: datetime
    updated_at: datetime


# ====================================================================== commit_turn input
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


class TurnEvents(_Strict):
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

    @classmethod
    def parse(cls, data: Any) -> TurnEvents:
        """Accept a TurnEvents, a dict or a JSON string; raise InputError naming each bad field."""
        if isinstance(data, cls):
            return data
        try:
            if isinstance(data, (str, bytes)):
                return cls.model_validate_json(data)
            return cls.model_validate(data)
        except ValidationError as e:
            msg, errors = format_validation_errors(e, "turn_events")
            raise InputError(f"invalid turn_events: {msg}", errors) from e


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


# ====================================================================== RetrievalPlan
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


class RetrievalPlan(_Open):
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

    @classmethod
    def parse(cls, data: Any) -> RetrievalPlan:
        if isinstance(data, cls):
            return data
        try:
            if isinstance(data, (str, bytes)):
                return cls.model_validate_json(data)
            return cls.model_validate(data)
        except ValidationError as e:
            msg, errors = format_validation_errors(e, "plan")
            raise PlanError(f"invalid RetrievalPlan: {msg}", errors) from e

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


# ====================================================================== EvidencePack
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


# ====================================================================== ContextPackage
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


def model_schema_names() -> list[str]:
    return ["TurnEvents", "CommitResult", "RetrievalPlan", "EvidencePack", "ContextPackage"]
