"""The HTTP service: a FastAPI app over one Brain, every endpoint a thin call to a Brain method.

    app = create_app(lambda: Brain.from_config("brain.yml"), load_server_settings("brain.yml"))
    run("brain.yml", namespace=None)            # uvicorn on 127.0.0.1:8765

Security model (issue 11):

* Bearer tokens, each bound to namespaces (``"*"`` means any). A request names its namespace with the
  ``X-Graphbrain-Namespace`` header or gets the token's first one; a namespace the token is not bound to
  is refused (403). Only admin tokens may run write Cypher or ingest local paths.
* Tokens come from ``server.tokens`` (each either ``token_env``, the name of an environment variable
  holding it, or ``token_sha256``, its hex digest) and from ``$GRAPHBRAIN_TOKENS`` (a JSON list). Only
  SHA-256 digests are kept in memory; no token is ever logged or echoed.
* Auth is on unless ``server.auth: false``, which is refused for any host but loopback.
* Request bodies above ``server.max_body_bytes`` (1 MiB) are refused with 413.
* Every error is ``{"error": {"type", "message", "fields": [{"field", "reason"}]}}``.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import os
import re
import socket
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import yaml
from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, model_validator
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as ASGIScope

from graphbrain import __version__
from graphbrain.admin import NotFoundError
from graphbrain.brain import Brain
from graphbrain.config import find_config
from graphbrain.contracts import (
    ID_PATTERN,
    MAX_ID_CHARS,
    MAX_MESSAGE_CHARS,
    CommitResult,
    ContextPackage,
    EvidencePack,
    MemoryStatus,
    MemoryType,
    RetrievalPlan,
    TurnEvents,
    safe_text,
)
from graphbrain.errors import (
    ConfigError,
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
from graphbrain.resources.results import IngestResult
from graphbrain.store import SCHEMA_VERSION

__all__ = [
    "NAMESPACE_HEADER",
    "LazyBrain",
    "ServerSettings",
    "TokenConfig",
    "create_app",
    "load_server_settings",
    "openapi_document",
    "run",
]

log = logging.getLogger(__name__)

NAMESPACE_HEADER = "X-Graphbrain-Namespace"
DEFAULT_TOKENS_ENV = "GRAPHBRAIN_TOKENS"
NAMESPACE_PATTERN = r"^[A-Za-z0-9_.:\-]{1,128}$"
ANY_NAMESPACE = "*"
MAX_CYPHER_CHARS = 100_000
STATIC_DIR = Path(__file__).resolve().parent / "static"
# The page loads only its own files: a token typed into it can go nowhere but this API.
UI_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


# ====================================================================== settings
class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# A namespace a token is bound to, or "*" for any.
BoundNamespace = Annotated[str, Field(pattern=r"^(\*|[A-Za-z0-9_.:\-]{1,128})$")]


class TokenConfig(_Model):
    """One bearer token: where its secret comes from, which namespaces it may use, whether it is admin."""

    name: str = Field("token", min_length=1, max_length=64, description="A label for logs; never the secret.")
    token_env: str | None = Field(None, description="Environment variable that holds the token.")
    token_sha256: str | None = Field(None, pattern=r"^[0-9a-fA-F]{64}$", description="Hex SHA-256 of the token.")
    namespaces: list[BoundNamespace] = Field(min_length=1)
    admin: bool = False
    # Read-only Cypher sees the whole database (Neo4j Community has no per-namespace access control), so
    # it is a grant of its own, for tokens trusted with every namespace; admin tokens have it.
    cypher: bool = False

    @model_validator(mode="after")
    def _one_source(self) -> TokenConfig:
        if (self.token_env is None) == (self.token_sha256 is None):
            raise ValueError("give exactly one of token_env and token_sha256")
        return self


class ServerSettings(_Model):
    """brain.yml ``server:``: where the service listens and who may call it."""

    host: str = "127.0.0.1"
    port: int = Field(8765, ge=0, le=65535)
    max_body_bytes: int = Field(1024 * 1024, ge=1024, le=1024 * 1024 * 1024)
    # false is honoured only on a loopback host (create_app refuses it elsewhere).
    auth: bool = True
    tokens: list[TokenConfig] = Field(default_factory=list)
    # An environment variable holding a JSON list of {"token", "namespaces", "admin", "name"}.
    tokens_env: str = DEFAULT_TOKENS_ENV
    cypher_row_cap: int = Field(1000, ge=1, le=100_000)
    # Non-admin URL ingest may not reach loopback, private or link-local addresses (no SSRF into the LAN).
    allow_private_urls: bool = False
    ui: bool = True
    # The MCP tools over streamable HTTP at /mcp, behind the same tokens (each call in its token's
    # namespace; cypher_read listed only for tokens with the cypher grant).
    mcp: bool = True


def load_server_settings(config_path: str | os.PathLike[str] | None = None) -> ServerSettings:
    """Read the ``server:`` section of brain.yml (the file ``load_config`` would pick), or the defaults."""
    file = find_config(config_path)
    section: Any = {}
    if file is not None and file.is_file():
        try:
            loaded = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            raise ConfigError(f"{file}: not valid YAML: {e}", file=str(file)) from e
        section = loaded.get("server", {}) if isinstance(loaded, dict) else {}
    try:
        return ServerSettings.model_validate(section or {})
    except ValidationError as e:
        msg, errors = format_validation_errors(e, "server")
        raise ConfigError(f"{file or '<defaults>'}: {msg}", file=str(file), key=errors[0]["field"]) from e


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# ====================================================================== auth
@dataclass(frozen=True)
class Principal:
    """Who is calling: a token's label, the namespaces it may use (None: any) and its role."""

    name: str
    namespaces: tuple[str, ...] | None
    admin: bool
    cypher: bool = False  # may run read-only Cypher (admin implies it)

    def allows(self, namespace: str) -> bool:
        return self.namespaces is None or namespace in self.namespaces


@dataclass(frozen=True)
class Scope:
    """One request's resolved caller and namespace; every Brain call gets ``namespace=scope.namespace``."""

    principal: Principal
    namespace: str


@dataclass(frozen=True)
class _TokenEntry:
    digest: bytes
    principal: Principal


def _principal(name: str, namespaces: list[str], admin: bool, cypher: bool) -> Principal:
    bound = None if ANY_NAMESPACE in namespaces else tuple(namespaces)
    return Principal(name=name, namespaces=bound, admin=admin, cypher=admin or cypher)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


class TokenRegistry:
    """The configured tokens, held as SHA-256 digests only."""

    def __init__(self, entries: list[_TokenEntry]) -> None:
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    @classmethod
    def from_settings(cls, settings: ServerSettings, environ: Mapping[str, str]) -> TokenRegistry:
        entries: list[_TokenEntry] = []
        for i, tok in enumerate(settings.tokens):
            if tok.token_sha256 is not None:
                digest = bytes.fromhex(tok.token_sha256)
            else:
                assert tok.token_env is not None  # the model guarantees one source
                secret = environ.get(tok.token_env)
                if not secret:
                    raise ConfigError(
                        f"server.tokens.{i}.token_env: ${tok.token_env} is not set", key=f"server.tokens.{i}.token_env"
                    )
                if len(secret) < MIN_TOKEN_CHARS:
                    raise ConfigError(
                        f"server.tokens.{i}.token_env: ${tok.token_env} holds a token of {len(secret)} characters; "
                        f"a token needs at least {MIN_TOKEN_CHARS}",
                        key=f"server.tokens.{i}.token_env",
                    )
                digest = _digest(secret)
            entries.append(_TokenEntry(digest, _principal(tok.name, tok.namespaces, tok.admin, tok.cypher)))
        entries += cls._from_env(settings.tokens_env, environ)
        return cls(entries)

    @staticmethod
    def _from_env(var: str, environ: Mapping[str, str]) -> list[_TokenEntry]:
        raw = environ.get(var)
        if not raw:
            return []
        # The message names the variable and the position, never the content: it holds secrets.
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as e:
            raise ConfigError(f"${var}: not valid JSON (at character {e.pos})", key=var) from None
        if not isinstance(data, list):
            raise ConfigError(f"${var}: must be a JSON list of tokens", key=var)
        out: list[_TokenEntry] = []
        for i, item in enumerate(data):
            try:
                parsed = _EnvToken.model_validate(item)
            except ValidationError as e:
                # pydantic's messages state the rule, never the value (which may be a secret).
                problems = "; ".join(
                    f"{'.'.join(str(p) for p in err['loc']) or 'item'}: {_TOKEN_RULES.get(err['type'], err['msg'])}"
                    for err in e.errors()
                )
                raise ConfigError(f"${var}[{i}]: {problems}", key=var) from None
            out.append(
                _TokenEntry(
                    _digest(parsed.token), _principal(parsed.name, parsed.namespaces, parsed.admin, parsed.cypher)
                )
            )
        return out

    def lookup(self, token: str) -> Principal | None:
        presented = _digest(token)
        found: Principal | None = None
        # Compare against every entry, so the time taken does not tell how far the search went.
        for entry in self._entries:
            if hmac.compare_digest(entry.digest, presented) and found is None:
                found = entry.principal
        return found


MIN_TOKEN_CHARS = 16
_TOKEN_RULES = {
    "string_too_short": f"must be at least {MIN_TOKEN_CHARS} characters (a token is a secret: make it long and random)",
    "string_too_long": "must be at most 4096 characters",
}


class _EnvToken(_Model):
    token: str = Field(min_length=MIN_TOKEN_CHARS, max_length=4096)
    namespaces: list[BoundNamespace] = Field(min_length=1)
    admin: bool = False
    cypher: bool = False
    name: str = Field("env-token", min_length=1, max_length=64)


# ====================================================================== errors
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


def _error(
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


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api(_: Request, e: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if e.status == 401 else None
        return _error(e.status, e.type, e.message, e.fields, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, e: RequestValidationError) -> JSONResponse:
        fields = _request_fields(e)
        message = "; ".join(f"{f['field']}: {f['reason']}" for f in fields)
        return _error(422, "validation_error", message, fields)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, e: StarletteHTTPException) -> JSONResponse:
        type_ = _STATUS_TYPES.get(e.status_code, "http_error")
        return _error(e.status_code, type_, str(e.detail), headers=getattr(e, "headers", None))

    @app.exception_handler(GraphbrainError)
    async def _graphbrain(_: Request, e: GraphbrainError) -> JSONResponse:
        status, type_ = _map_graphbrain_error(e)
        fields = e.errors if isinstance(e, InputError) else []
        message = str(e)
        if status == 500:
            # A database error can quote stored values; the caller gets the kind, the log the detail.
            log.warning("request failed: %s: %s", type(e).__name__, e)
            message = "the database reported an error; see the server log"
        return _error(status, type_, message, fields)

    @app.exception_handler(ValidationError)
    async def _pydantic(_: Request, e: ValidationError) -> JSONResponse:
        message, fields = format_validation_errors(e)
        return _error(422, "validation_error", message, fields)

    @app.exception_handler(Exception)
    async def _internal(_: Request, e: Exception) -> JSONResponse:
        # The cause goes to the log only: a traceback may hold data of another tenant.
        log.exception("unhandled error")
        return _error(500, "internal_error", "internal error; see the server log")


def _map_graphbrain_error(e: GraphbrainError) -> tuple[int, str]:
    if isinstance(e, NotFoundError):  # before InputError, its base
        return 404, "not_found"
    if isinstance(e, InputError):  # PlanError included
        return 422, "validation_error"
    if isinstance(e, ReadOnlyViolation):
        return 403, "read_only_violation"
    if isinstance(e, StoreFull):  # before StoreUnavailable, its base
        return 507, "store_full"
    if isinstance(e, StoreUnavailable):
        return 503, "store_unavailable"
    if isinstance(e, JournalFull):  # nothing of the turn kept: the client may send it again later
        return 507, "journal_full"
    if isinstance(e, JournalUnwritable):
        return 507, "journal_unwritable"
    if isinstance(e, SchemaError):
        return 503, "schema_not_ready"
    if isinstance(e, EmbeddingError):
        return 503, "embedding_unavailable"
    if isinstance(e, StoreError):
        return 500, "store_error"
    return 500, "internal_error"


class _BodyTooLarge(StarletteHTTPException):
    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"the request body is larger than {max_bytes} bytes (server.max_body_bytes)")


class BodySizeLimit:
    """Refuse request bodies over ``max_bytes`` with a 413 ErrorResponse.

    By Content-Length before anything is read; without one (chunked), by counting what arrives: the
    error raised from ``receive`` is an HTTPException, which FastAPI lets through its body parsing, so
    it reaches the same handler as every other error.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: ASGIScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            e = _BodyTooLarge(self.max_bytes)
            await _error(413, "payload_too_large", str(e.detail))(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _BodyTooLarge(self.max_bytes)
            return message

        await self.app(scope, limited, send)


# ====================================================================== request and response bodies
SessionId = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN)]


class CommitTurnRequest(_Model):
    session_id: SessionId
    turn_events: TurnEvents


class ComposeContextRequest(_Model):
    session_id: SessionId
    user_message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    agent_state: dict[str, Any] | None = None
    now: AwareDatetime | None = Field(
        None,
        description="The moment the question is asked (ISO 8601 with a zone; default: the server's clock): "
        "what 'last week' means and which turns are recent, to replay a history as of its own dates.",
    )


class IngestRequest(_Model):
    """Exactly one of ``text``, ``url`` and ``path`` (``path``: admin tokens only, a file on the server)."""

    text: str | None = Field(None, min_length=1, max_length=MAX_MESSAGE_CHARS * 5)
    url: str | None = Field(None, min_length=1, max_length=4096, pattern=r"^https?://")
    path: str | None = Field(None, min_length=1, max_length=4096)
    title: str | None = Field(None, max_length=1024)
    source_uri: str | None = Field(None, max_length=4096)
    format: Literal["markdown", "text", "html"] | None = None
    tags: list[Annotated[str, Field(max_length=256)]] = Field(default_factory=list, max_length=64)
    topics: list[Annotated[str, Field(max_length=256)]] = Field(default_factory=list, max_length=64)
    language: str | None = Field(None, max_length=16)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_source(self) -> IngestRequest:
        given = [name for name in ("text", "url", "path") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of text, url and path")
        if self.format is not None and self.text is None:
            raise ValueError("format applies to text only")
        return self


class CypherRequest(_Model):
    query: str = Field(min_length=1, max_length=MAX_CYPHER_CHARS)
    params: dict[str, Any] = Field(default_factory=dict)
    write: bool = False
    row_cap: int | None = Field(None, ge=1, le=100_000, description="At most server.cypher_row_cap.")


class CypherResponse(BaseModel):
    columns: list[str]
    rows: list[dict[str, Any]]
    truncated: bool


class MemoryList(BaseModel):
    items: list[dict[str, Any]]
    count: int
    limit: int
    offset: int


class Health(BaseModel):
    ok: bool
    version: str


class Readiness(BaseModel):
    ready: bool
    backend: str = Field(description="The database serving this process: neo4j or embedded (FalkorDB).")
    database: bool = Field(description="The database named by backend answers.")
    schema_version: int | None
    expected_schema_version: int
    detail: str


_ERRORS: dict[int | str, dict[str, Any]] = {
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
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorResponse, "description": "Not found"}}


# ====================================================================== app state
BrainSource = Brain | Callable[[], Brain]


class LazyBrain:
    """One Brain: given, or made on first use (so a server starts, and says why, while Neo4j is down)."""

    def __init__(self, source: BrainSource) -> None:
        self._brain = source if isinstance(source, Brain) else None
        self._factory = None if isinstance(source, Brain) else source
        self._lock = threading.Lock()

    def get(self) -> Brain:
        if self._brain is None:
            with self._lock:
                if self._brain is None:
                    assert self._factory is not None
                    self._brain = self._factory()
        return self._brain

    def close(self) -> None:
        # Only a Brain made here is ours to close; a given one belongs to the caller.
        if self._factory is not None and self._brain is not None:
            self._brain.close()
            self._brain = None


@dataclass
class _State:
    settings: ServerSettings
    tokens: TokenRegistry
    brains: LazyBrain


def _state(request: Request) -> _State:
    state: _State = request.app.state.graphbrain
    return state


def get_brain(request: Request) -> Brain:
    return _state(request).brains.get()


_bearer = HTTPBearer(auto_error=False, description="A graphbrain token (server.tokens / $GRAPHBRAIN_TOKENS).")


def get_scope(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    namespace: Annotated[
        str | None,
        Header(
            alias=NAMESPACE_HEADER,
            description="The namespace to act in; default: the token's first.",
            max_length=128,
        ),
    ] = None,
) -> Scope:
    state = _state(request)
    token = credentials.credentials if credentials is not None else None
    return resolve_scope(state.settings, state.tokens, token, namespace, lambda: get_brain(request).namespace)


def resolve_scope(
    settings: ServerSettings,
    tokens: TokenRegistry,
    token: str | None,
    namespace: str | None,
    default_namespace: Callable[[], str],
) -> Scope:
    """Who calls (the bearer token) and in which namespace (the header, else the token's first, else the
    brain's): the one check every endpoint — /mcp included — goes through. Raises ApiError."""
    if settings.auth:
        if not token:
            raise ApiError(401, "unauthorized", "a bearer token is required (Authorization: Bearer <token>)")
        principal = tokens.lookup(token)
        if principal is None:
            raise ApiError(401, "unauthorized", "unknown bearer token")
    else:
        # auth off is allowed on loopback only (create_app checks); a local caller may use any namespace.
        principal = Principal(name="anonymous", namespaces=None, admin=False)
    if namespace is not None:
        if not re.fullmatch(NAMESPACE_PATTERN, namespace):
            raise ApiError(
                422,
                "validation_error",
                f"{NAMESPACE_HEADER}: letters, digits and _.:- only, at most 128",
                [{"field": NAMESPACE_HEADER, "reason": "invalid namespace"}],
            )
        chosen = namespace
    elif principal.namespaces:
        chosen = principal.namespaces[0]
    else:
        chosen = default_namespace()
    if not principal.allows(chosen):
        raise ApiError(403, "forbidden", f"this token is not bound to namespace {chosen!r}")
    return Scope(principal=principal, namespace=chosen)


def _require_admin(scope: Scope, what: str) -> None:
    if not scope.principal.admin:
        raise ApiError(403, "forbidden", f"{what} needs an admin token")


def _same_namespace(given: str | None, scope: Scope, field: str) -> None:
    """A body may repeat the request's namespace but never name another one."""
    if given is not None and given != scope.namespace:
        raise ApiError(
            403,
            "forbidden",
            f"{field} names namespace {given!r}, but this request acts in {scope.namespace!r}",
            [{"field": field, "reason": "differs from the request's namespace"}],
        )


def _check_public_url(url: str) -> None:
    """Refuse URLs whose host resolves to a loopback, private, link-local or reserved address."""
    try:
        host = urlsplit(url).hostname
    except ValueError as e:  # "http://[::1": an unbalanced IPv6 bracket
        raise ApiError(422, "validation_error", f"url: {e}", [{"field": "url", "reason": str(e)}]) from None
    if not host:
        raise ApiError(422, "validation_error", "url: no host", [{"field": "url", "reason": "no host"}])
    try:
        infos = socket.getaddrinfo(host, None)
    except UnicodeError as e:  # the IDNA codec refuses the host (a label over 63, a bidi control...)
        reason = f"not a valid host name ({e})"
        raise ApiError(422, "validation_error", f"url: {reason}", [{"field": "url", "reason": reason}]) from None
    except OSError:
        return  # unresolvable: the fetch fails with its own clear error
    for info in infos:
        addr = ipaddress.ip_address(info[4][0])
        if not addr.is_global:
            raise ApiError(
                403,
                "forbidden",
                f"url: {host} is a non-public address; only admin tokens may ingest from it",
                [{"field": "url", "reason": "non-public address"}],
            )


BrainDep = Annotated[Brain, Depends(get_brain)]
ScopeDep = Annotated[Scope, Depends(get_scope)]


# ====================================================================== the app
def create_app(
    brain: BrainSource, settings: ServerSettings | None = None, *, environ: Mapping[str, str] | None = None
) -> FastAPI:
    """The FastAPI app over ``brain`` (a Brain, or a callable that makes one on first use).

    Raises ConfigError when auth is off on a non-loopback host, or on with no token configured.
    """
    settings = settings or ServerSettings()
    tokens = TokenRegistry.from_settings(settings, os.environ if environ is None else environ)
    if not settings.auth and not is_loopback(settings.host):
        raise ConfigError(
            f"server.auth: false is allowed on a loopback host only, not {settings.host!r}", key="server.auth"
        )
    if settings.auth and not len(tokens):
        raise ConfigError(
            f"server.auth is on but no token is configured: set ${settings.tokens_env} or server.tokens",
            key="server.tokens",
        )
    holder = LazyBrain(brain)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            holder.close()

    app = FastAPI(
        title="graphbrain",
        version=__version__,
        # /docs is served below from Swagger UI's files in the package (no CDN); no ReDoc (CDN only).
        docs_url=None,
        redoc_url=None,
        summary="A Neo4j-backed knowledge memory for LLM agents: commit_turn / compose_context.",
        description=(
            "Bearer-token auth; each token is bound to namespaces. Name the namespace with the "
            f"`{NAMESPACE_HEADER}` header (default: the token's first). Errors are "
            '`{"error": {"type", "message", "fields": [{"field", "reason"}]}}`.'
        ),
        lifespan=lifespan,
    )
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.state.graphbrain = _State(settings=settings, tokens=tokens, brains=holder)
    _install_error_handlers(app)
    _add_routes(app)
    _add_docs(app)
    if settings.ui:
        _add_ui(app)
    if settings.mcp:
        _add_mcp(app, holder, tokens)
    return app


def _add_routes(app: FastAPI) -> None:
    # ------------------------------------------------------------ probes (no auth: for orchestrators)
    @app.get("/healthz", response_model=Health, tags=["probes"], summary="Liveness: the process answers")
    def healthz() -> Health:
        return Health(ok=True, version=__version__)

    @app.get(
        "/readyz",
        response_model=Readiness,
        tags=["probes"],
        summary="Readiness: the database reachable and the schema current",
        responses={503: {"model": Readiness, "description": "Not ready"}},
    )
    def readyz(request: Request) -> JSONResponse:
        reachable, version, detail, backend = False, None, "ok", "unknown"
        try:
            brain = get_brain(request)
            backend = brain.store.backend
            reachable = brain.store.ping()
            if reachable:
                version = brain.store.schema_version()
                brain.check_schema()  # raises SchemaError naming what to run
            else:
                detail = f"the {backend} database does not answer ({brain.store.target})"
        except GraphbrainError as e:
            detail = str(e)
        ready = reachable and detail == "ok"
        body = Readiness(
            ready=ready,
            backend=backend,
            database=reachable,
            schema_version=version,
            expected_schema_version=SCHEMA_VERSION,
            detail=detail,
        )
        return JSONResponse(body.model_dump(), status_code=200 if ready else 503)

    # ------------------------------------------------------------ the product
    @app.post(
        "/v1/commit_turn",
        response_model=CommitResult,
        tags=["turns"],
        summary="Record a turn and distil it into typed memory",
        responses=_ERRORS,
    )
    def commit_turn(body: CommitTurnRequest, scope: ScopeDep, brain: BrainDep) -> CommitResult:
        _same_namespace(body.turn_events.namespace, scope, "turn_events.namespace")
        events = body.turn_events.model_copy(update={"namespace": scope.namespace})
        return brain.commit_turn(body.session_id, events)

    @app.post(
        "/v1/compose_context",
        response_model=ContextPackage,
        tags=["turns"],
        summary="Compose the ContextPackage for the next model call",
        responses=_ERRORS,
    )
    def compose_context(body: ComposeContextRequest, scope: ScopeDep, brain: BrainDep) -> ContextPackage:
        return brain.compose_context(
            body.session_id, body.user_message, body.agent_state, namespace=scope.namespace, now=body.now
        )

    def _retrieve(plan: RetrievalPlan, scope: Scope, brain: Brain) -> EvidencePack:
        _same_namespace(plan.namespace, scope, "namespace")
        return brain.retrieve(plan, namespace=scope.namespace)

    @app.post(
        "/v1/retrieve",
        response_model=EvidencePack,
        tags=["retrieval"],
        summary="Execute a RetrievalPlan (SmartRAG-compatible): RetrievalPlan in, EvidencePack out",
        responses=_ERRORS,
    )
    def retrieve(plan: RetrievalPlan, scope: ScopeDep, brain: BrainDep) -> EvidencePack:
        return _retrieve(plan, scope, brain)

    @app.post(
        "/retrieve",
        response_model=EvidencePack,
        tags=["retrieval"],
        summary="Alias of /v1/retrieve at the path SmartRAG clients call",
        responses=_ERRORS,
        operation_id="retrieve_smartrag_alias",
    )
    def retrieve_alias(plan: RetrievalPlan, scope: ScopeDep, brain: BrainDep) -> EvidencePack:
        return _retrieve(plan, scope, brain)

    @app.post(
        "/v1/ingest",
        response_model=IngestResult,
        tags=["resources"],
        summary="Add raw text, a URL or (admin) a server-side path to the resource library",
        responses=_ERRORS,
    )
    def ingest(body: IngestRequest, scope: ScopeDep, brain: BrainDep) -> Any:
        options: dict[str, Any] = {
            "namespace": scope.namespace,
            "title": body.title,
            "tags": body.tags,
            "topics": body.topics,
            "language": body.language,
            "metadata": body.metadata or None,
        }
        if body.text is not None:
            source: Any = {"text": body.text, "title": body.title, "format": body.format or "markdown"}
            options["source_type"] = "manual"
            options["source_uri"] = body.source_uri
        elif body.url is not None:
            if not scope.principal.admin and not _state_settings(app).allow_private_urls:
                _check_public_url(body.url)
            source = body.url
        else:
            _require_admin(scope, "ingesting a server-side path")
            source = body.path
        try:
            return brain.ingest(source, **options)
        except InputError as e:
            # The Ingestor calls what it was given "source"; this body calls it text, url or path.
            given = "text" if body.text is not None else ("url" if body.url is not None else "path")
            e.errors = [{**f, "field": given} if f.get("field") == "source" else f for f in e.errors]
            raise

    # ------------------------------------------------------------ memory
    @app.get("/v1/memory", response_model=MemoryList, tags=["memory"], summary="List memory items", responses=_ERRORS)
    def list_memory(
        scope: ScopeDep,
        brain: BrainDep,
        types: Annotated[list[MemoryType] | None, Query(description="Memory types; repeat the parameter")] = None,
        status: Annotated[MemoryStatus | Literal["all"], Query()] = "active",
        key_prefix: Annotated[str | None, Query(max_length=512)] = None,
        session_id: Annotated[str | None, Query(max_length=MAX_ID_CHARS)] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 50,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> MemoryList:
        items = brain.list_memory(
            types=[t.value for t in types] if types else None,
            status=status,
            key_prefix=key_prefix,
            session_id=session_id,
            limit=limit,
            offset=offset,
            namespace=scope.namespace,
        )
        return MemoryList(items=items, count=len(items), limit=limit, offset=offset)

    @app.get(
        "/v1/memory/{item}",
        response_model=dict[str, Any],
        tags=["memory"],
        summary="One memory item (by id or type key) with its history and provenance",
        responses={**_ERRORS, **_NOT_FOUND},
    )
    def show_memory(
        item: Annotated[str, PathParam(max_length=512, description="An item id or a key such as decision:db")],
        scope: ScopeDep,
        brain: BrainDep,
    ) -> Any:
        return _found(brain.show_memory(item, namespace=scope.namespace), f"memory item {item!r}")

    @app.delete(
        "/v1/memory/{item_id}",
        response_model=dict[str, Any],
        tags=["memory"],
        summary="Forget one memory item: its node, edges and index entries",
        responses={**_ERRORS, **_NOT_FOUND},
    )
    def forget_item(
        item_id: Annotated[str, PathParam(max_length=MAX_ID_CHARS)], scope: ScopeDep, brain: BrainDep
    ) -> Any:
        return _forgotten(brain.forget(item_id=item_id, namespace=scope.namespace), f"memory item {item_id!r}")

    @app.delete(
        "/v1/sessions/{session_id}",
        response_model=dict[str, Any],
        tags=["memory"],
        summary="Forget a session: its turns, messages and the memory derived only from them",
        responses={**_ERRORS, **_NOT_FOUND},
    )
    def forget_session(
        session_id: Annotated[str, PathParam(max_length=MAX_ID_CHARS)], scope: ScopeDep, brain: BrainDep
    ) -> Any:
        return _forgotten(brain.forget(session_id=session_id, namespace=scope.namespace), f"session {session_id!r}")

    @app.get(
        "/v1/entities/{name}",
        response_model=dict[str, Any],
        tags=["graph"],
        summary="An entity: aliases, neighbourhood (entities, tasks, decisions, turns, documents) and timeline",
        responses={**_ERRORS, **_NOT_FOUND},
    )
    def get_entity(name: Annotated[str, PathParam(max_length=512)], scope: ScopeDep, brain: BrainDep) -> Any:
        return _found(brain.entity(name, namespace=scope.namespace), f"entity {name!r}")

    @app.post(
        "/v1/cypher",
        response_model=CypherResponse,
        tags=["graph"],
        summary="Run Cypher: read-only (a READ transaction) unless write=true with an admin token",
        responses=_ERRORS,
    )
    def cypher(body: CypherRequest, scope: ScopeDep, brain: BrainDep) -> CypherResponse:
        if body.write:
            _require_admin(scope, "write Cypher")
        if not scope.principal.cypher:
            # A READ transaction still reads every namespace: $namespace is a filter the query may skip.
            raise ApiError(
                403, "forbidden", "Cypher needs a token with the cypher grant (or admin): it can read every namespace"
            )
        cap = min(body.row_cap or _state_settings(app).cypher_row_cap, _state_settings(app).cypher_row_cap)
        try:
            result = brain.cypher(body.query, body.params, write=body.write, row_cap=cap, namespace=scope.namespace)
        except ReadOnlyViolation as e:
            raise ReadOnlyViolation(f'{e}; send "write": true (admin tokens only) to change the graph') from e
        except StoreUnavailable:
            raise
        except StoreError as e:
            # The caller's query is at fault (syntax, unknown function...), not the service.
            raise ApiError(400, "cypher_error", str(e), [{"field": "query", "reason": str(e)}]) from e
        return CypherResponse(columns=list(result.columns), rows=list(result.rows), truncated=bool(result.truncated))

    @app.get(
        "/v1/traces/context/{context_id}",
        response_model=dict[str, Any],
        tags=["traces"],
        summary="The trace of one compose_context: plan, evidence chosen and dropped, budget",
        responses={**_ERRORS, **_NOT_FOUND},
    )
    def context_trace(
        context_id: Annotated[str, PathParam(max_length=MAX_ID_CHARS)], scope: ScopeDep, brain: BrainDep
    ) -> Any:
        return _found(brain.get_context_trace(context_id, namespace=scope.namespace), f"context trace {context_id!r}")

    @app.get(
        "/v1/traces/commit/{commit_id}",
        response_model=dict[str, Any],
        tags=["traces"],
        summary="The trace of one commit_turn: retention, conflicts, memory written",
        responses={**_ERRORS, **_NOT_FOUND},
    )
    def commit_trace(
        commit_id: Annotated[str, PathParam(max_length=MAX_ID_CHARS)], scope: ScopeDep, brain: BrainDep
    ) -> Any:
        return _found(brain.get_commit_trace(commit_id, namespace=scope.namespace), f"commit trace {commit_id!r}")


def _state_settings(app: FastAPI) -> ServerSettings:
    state: _State = app.state.graphbrain
    return state.settings


def _found(value: Any, what: str) -> Any:
    """Brain lookups answer None (or an empty mapping) for what is not in the namespace: that is a 404."""
    if value is None or (isinstance(value, Mapping) and not value):
        raise ApiError(404, "not_found", f"{what} not found in this namespace")
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return value


def _forgotten(result: dict[str, Any], what: str) -> dict[str, Any]:
    """Brain.forget reports found=False for what is not there; over HTTP that is a 404."""
    if not result.get("found", True):
        raise ApiError(404, "not_found", f"{what} not found in this namespace")
    return result


class McpGate:
    """The MCP tools over streamable HTTP at ``/mcp``, behind the service's own tokens.

    Every request is authenticated and scoped like the REST endpoints (``resolve_scope``); the tools
    then act in that namespace (``mcp_server.current_caller``). Two servers stand behind the gate: one
    without ``cypher_read`` for every token, one with it for tokens holding the cypher grant, so an
    agent bound to one namespace is never offered a tool that reads the others. Stateless (each request
    stands alone) with JSON answers.
    """

    PATH = "/mcp"

    def __init__(self, holder: LazyBrain, tokens: TokenRegistry, settings: ServerSettings) -> None:
        from mcp.server.transport_security import TransportSecuritySettings

        from graphbrain.interfaces.mcp_server import create_server

        self.holder = holder
        self.tokens = tokens
        self.settings = settings
        # Bearer tokens are the protection here; the SDK's Host check would refuse a container's name.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        self.servers = {
            allow: create_server(holder.get, allow_cypher=allow, allow_paths=False) for allow in (False, True)
        }
        self.apps = {
            allow: server.streamable_http_app(
                streamable_http_path=self.PATH,
                stateless_http=True,
                json_response=True,
                transport_security=security,
            )
            for allow, server in self.servers.items()
        }

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with self.servers[False].session_manager.run(), self.servers[True].session_manager.run():
            yield

    async def __call__(self, scope: ASGIScope, receive: Receive, send: Send) -> None:
        from graphbrain.interfaces.mcp_server import Caller, current_caller

        headers = Headers(scope=scope)
        auth = headers.get("authorization") or ""
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else None
        try:
            resolved = resolve_scope(
                self.settings, self.tokens, token, headers.get(NAMESPACE_HEADER), lambda: self.holder.get().namespace
            )
        except ApiError as e:
            extra = {"WWW-Authenticate": "Bearer"} if e.status == 401 else None
            await _error(e.status, e.type, e.message, e.fields, headers=extra)(scope, receive, send)
            return
        principal = resolved.principal
        caller = Caller(namespace=resolved.namespace, admin=principal.admin, cypher=principal.cypher)
        reset = current_caller.set(caller)
        try:
            await self.apps[principal.cypher]({**scope, "path": self.PATH}, receive, send)
        finally:
            current_caller.reset(reset)


def _add_mcp(app: FastAPI, holder: LazyBrain, tokens: TokenRegistry) -> None:
    from starlette.routing import Route

    gate = McpGate(holder, tokens, _state_settings(app))
    for path in (McpGate.PATH, McpGate.PATH + "/"):
        app.router.routes.append(Route(path, gate, include_in_schema=False))
    app.router.lifespan_context = _with(app.router.lifespan_context, gate.running)


def _with(lifespan: Any, also: Callable[[], Any]) -> Any:
    """A lifespan that runs ``also()`` (an async context manager) inside ``lifespan``."""

    @asynccontextmanager
    async def both(app: Any) -> AsyncIterator[Any]:
        async with lifespan(app) as state, also():
            yield state

    return both


def _add_docs(app: FastAPI) -> None:
    """Swagger UI at /docs from the swagger-ui-bundle-v2 package's files: it works offline."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from swagger_ui_bundle import swagger_ui_path

    @app.get("/docs", include_in_schema=False)
    def docs() -> Any:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title="graphbrain · API",
            swagger_js_url="/docs/static/swagger-ui-bundle.js",
            swagger_css_url="/docs/static/swagger-ui.css",
            swagger_favicon_url="/docs/static/favicon-32x32.png",
            swagger_ui_parameters={"persistAuthorization": False},
        )

    app.mount("/docs/static", StaticFiles(directory=str(swagger_ui_path)), name="docs-static")


def _add_ui(app: FastAPI) -> None:
    headers = {"Content-Security-Policy": UI_CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}

    @app.get("/ui", include_in_schema=False)
    def ui() -> FileResponse:
        return FileResponse(STATIC_DIR / "ui.html", media_type="text/html", headers=headers)

    app.mount("/ui/static", StaticFiles(directory=STATIC_DIR), name="ui-static")


# ====================================================================== serve
def run(
    config_path: str | os.PathLike[str] | None = None,
    namespace: str | None = None,
    host: str | None = None,
    port: int | None = None,
) -> None:
    """Serve with uvicorn. ``host``/``port`` default to brain.yml's ``server:`` (127.0.0.1:8765)."""
    import uvicorn

    settings = load_server_settings(config_path)
    updates: dict[str, Any] = {}
    if host is not None:
        updates["host"] = host
    if port is not None:
        updates["port"] = port
    settings = settings.model_copy(update=updates)
    overrides = {"namespace": namespace} if namespace else None

    def make_brain() -> Brain:
        # The schema is checked by /readyz, so the service can start before Neo4j does.
        return Brain.from_config(config_path, overrides=overrides, check_schema=False)

    app = create_app(make_brain, settings)
    log.info("graphbrain HTTP on %s:%s (auth %s)", settings.host, settings.port, "on" if settings.auth else "off")
    uvicorn.run(app, host=settings.host, port=settings.port, proxy_headers=False, server_header=False)


def openapi_document() -> str:
    """The service's OpenAPI document as committed in openapi.json (stable key order, one trailing newline).

    The schema does not depend on settings or on a database, so no Brain is made.
    """

    def no_brain() -> Brain:
        raise RuntimeError("the OpenAPI document needs no Brain")

    app = create_app(no_brain, ServerSettings(auth=False))
    return json.dumps(app.openapi(), indent=2, ensure_ascii=False) + "\n"
