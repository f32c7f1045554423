"""Every error the service answers, in one shape: ``{"error": {"type", "message", "fields"}}``.

Graphbrain's exceptions map to a status here (``map_graphbrain_error``); the handlers installed on the
app render them, request-validation failures, HTTP errors and anything unexpected alike.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from graphbrain.admin import NotFoundError
from graphbrain.contracts import safe_text
from graphbrain.errors import (
    EmbeddingError,
    GraphbrainError,
    InputError,
    ReadOnlyViolation,
    SchemaError,
    StoreError,
    StoreFull,
    StoreUnavailable,
    format_validation_errors,
)
from graphbrain.journal import JournalFull, JournalUnwritable

__all__ = [
    "ERRORS",
    "NOT_FOUND",
    "ApiError",
    "ErrorResponse",
    "error_response",
    "install_error_handlers",
    "map_graphbrain_error",
]

log = logging.getLogger("graphbrain.interfaces.http")


class ErrorField(BaseModel):
    field: str
    reason: str


class ErrorDetail(BaseModel):
    type: str
    message: str
    fields: list[ErrorField] = Field(default_factory=list)


class ErrorResponse(BaseModel):
    """Every non-2xx answer has this shape."""

    error: ErrorDetail


class ApiError(Exception):
    """Raised by the adapter itself (auth, scope, admin-only); rendered as an ErrorResponse."""

    def __init__(self, status: int, type_: str, message: str, fields: list[dict[str, str]] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.type = type_
        self.message = message
        self.fields = fields or []

    def response(self) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if self.status == 401 else None
        return error_response(self.status, self.type, self.message, self.fields, headers=headers)


# The error responses every /v1 endpoint documents (its router adds them to each route's).
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse, "description": desc}
    for code, desc in {
        401: "No or unknown bearer token",
        403: "Namespace not bound to the token, or admin only",
        413: "Request body too large",
        422: "Invalid input: each field and reason",
        503: "The database (Neo4j or embedded) unreachable, or the schema not ready",
        507: "Out of room: the commit journal at storage.journal_max_mb, or a full disk; nothing of the request kept",
    }.items()
}
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorResponse, "description": "Not found"}}


def error_response(
    status: int, type_: str, message: str, fields: list[dict[str, Any]] | None = None, **kw: Any
) -> JSONResponse:
    # safe_text: a message may quote what the caller sent, and a lone surrogate cannot be encoded.
    clean = [
        {"field": safe_text(f.get("field", ""), 1000), "reason": safe_text(f.get("reason", ""), 1000)}
        for f in fields or []
    ]
    body = {"error": {"type": type_, "message": safe_text(message, 4000), "fields": clean}}
    return JSONResponse(body, status_code=status, **kw)


def _request_fields(exc: RequestValidationError) -> list[dict[str, Any]]:
    out = []
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        if err.get("type") == "json_invalid":
            # loc is ("body", <character offset>): the body itself is at fault, at that position.
            where = f" at character {loc[1]}" if len(loc) > 1 else ""
            detail = (err.get("ctx") or {}).get("error")
            out.append({"field": "body", "reason": f"invalid JSON{where}" + (f": {detail}" if detail else "")})
            continue
        if loc and loc[0] == "body":  # the body is the request; name the field inside it
            loc = loc[1:]
        out.append({"field": ".".join(loc) or "body", "reason": err.get("msg", "invalid")})
    return out


_STATUS_TYPES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api(_: Request, e: ApiError) -> JSONResponse:
        return e.response()

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, e: RequestValidationError) -> JSONResponse:
        fields = _request_fields(e)
        message = "; ".join(f"{f['field']}: {f['reason']}" for f in fields)
        return error_response(422, "validation_error", message, fields)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, e: StarletteHTTPException) -> JSONResponse:
        type_ = _STATUS_TYPES.get(e.status_code, "http_error")
        return error_response(e.status_code, type_, str(e.detail), headers=getattr(e, "headers", None))

    @app.exception_handler(GraphbrainError)
    async def _graphbrain(_: Request, e: GraphbrainError) -> JSONResponse:
        status, type_ = map_graphbrain_error(e)
        fields = e.errors if isinstance(e, InputError) else []
        message = str(e)
        if status == 500:
            # A database error can quote stored values; the caller gets the kind, the log the detail.
            log.warning("request failed: %s: %s", type(e).__name__, e)
            message = "the database reported an error; see the server log"
        return error_response(status, type_, message, fields)

    @app.exception_handler(ValidationError)
    async def _pydantic(_: Request, e: ValidationError) -> JSONResponse:
        message, fields = format_validation_errors(e)
        return error_response(422, "validation_error", message, fields)

    @app.exception_handler(Exception)
    async def _internal(_: Request, e: Exception) -> JSONResponse:
        # The cause goes to the log only: a traceback may hold data of another tenant.
        log.exception("unhandled error")
        return error_response(500, "internal_error", "internal error; see the server log")


# Most specific first: NotFoundError is an InputError, StoreFull a StoreUnavailable.
_STATUSES: tuple[tuple[type[GraphbrainError], int, str], ...] = (
    (NotFoundError, 404, "not_found"),
    (InputError, 422, "validation_error"),  # PlanError included
    (ReadOnlyViolation, 403, "read_only_violation"),
    (StoreFull, 507, "store_full"),
    (StoreUnavailable, 503, "store_unavailable"),
    (JournalFull, 507, "journal_full"),  # nothing of the turn kept: the client may send it again later
    (JournalUnwritable, 507, "journal_unwritable"),
    (SchemaError, 503, "schema_not_ready"),
    (EmbeddingError, 503, "embedding_unavailable"),
    (StoreError, 500, "store_error"),
)


def map_graphbrain_error(e: GraphbrainError) -> tuple[int, str]:
    """The HTTP status and error type for one of graphbrain's exceptions."""
    for kind, status, type_ in _STATUSES:
        if isinstance(e, kind):
            return status, type_
    return 500, "internal_error"
