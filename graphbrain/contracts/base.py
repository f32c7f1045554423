"""Shared ground of the wire contracts: input limits, the strict/open model bases, storable text and JSON."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from graphbrain.errors import InputError, format_validation_errors

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


class _Storable(BaseModel):
    """Refuses a model holding a string no store can keep (see ``_storable_model``)."""

    @model_validator(mode="after")
    def _storable(self) -> Self:
        _storable_model(self)
        return self


class _Strict(_Storable):
    model_config = ConfigDict(extra="forbid")


class _Open(_Storable):
    """A protocol model: unknown fields are kept aside (and reported), never an error."""

    model_config = ConfigDict(extra="allow")


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


def _storable(value: Any, depth: int) -> bool:
    """Whether ``json_problem`` finds nothing, without building a path per key: every model the
    pipeline builds is checked, and almost every one is clean."""
    if depth > MAX_JSON_DEPTH:
        return False
    if isinstance(value, str):
        return value.isascii() or text_problem(value) is None
    if isinstance(value, Mapping):
        return all(
            (not isinstance(k, str) or k.isascii() or text_problem(k) is None) and _storable(v, depth + 1)
            for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        return all(_storable(v, depth + 1) for v in value)
    return True


def json_problem(value: Any, path: str = "", depth: int = 0) -> str | None:
    """Why free-form JSON cannot be stored (a lone surrogate in a key or string, nesting deeper than
    ``MAX_JSON_DEPTH``), as ``"path: reason"``; None when it can."""
    if _storable(value, depth):
        return None
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


class _Parsed(BaseModel):
    """``parse()`` for a top-level input model: accept the model, a dict or a JSON string, and raise
    ``_parse_error`` naming each bad field (prefixed with ``_parse_field`` and titled ``_parse_title``)."""

    _parse_field: ClassVar[str]
    _parse_title: ClassVar[str]
    _parse_error: ClassVar[type[InputError]] = InputError

    @classmethod
    def parse(cls, data: Any) -> Self:
        if isinstance(data, cls):
            return data
        try:
            if isinstance(data, (str, bytes)):
                return cls.model_validate_json(data)
            return cls.model_validate(data)
        except ValidationError as e:
            msg, errors = format_validation_errors(e, cls._parse_field)
            raise cls._parse_error(f"invalid {cls._parse_title}: {msg}", errors) from e


# What `from graphbrain.contracts import ...` re-exports from this module.
__all__ = ["FiniteFloat", "FreeJson", "ID_PATTERN", "JsonObject", "MAX_ID_CHARS", "MAX_ITEMS_PER_TURN"]
__all__ += ["MAX_JSON_DEPTH", "MAX_MESSAGES_PER_TURN", "MAX_MESSAGE_CHARS", "MAX_NAMESPACE_CHARS"]
__all__ += ["MAX_PLAN_QUERIES", "MAX_QUERY_CHARS", "MAX_REFS_PER_TURN", "NAMESPACE_PATTERN", "Weight"]
__all__ += ["check_json", "check_text", "json_problem", "safe_text", "text_problem", "utcnow"]
__all__ += ["validate_namespace"]
