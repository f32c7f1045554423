"""The FastAPI app over one Brain (``create_app``), its body-size limit, and serving it with uvicorn."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as ASGIScope

from graphbrain import __version__
from graphbrain.brain import Brain
from graphbrain.errors import ConfigError
from graphbrain.interfaces.http.auth import NAMESPACE_HEADER, TokenRegistry
from graphbrain.interfaces.http.deps import BrainSource, LazyBrain, State
from graphbrain.interfaces.http.errors import error_response, install_error_handlers
from graphbrain.interfaces.http.mcp_gate import add_mcp
from graphbrain.interfaces.http.pages import add_docs, add_ui
from graphbrain.interfaces.http.routes import ROUTERS
from graphbrain.interfaces.http.settings import ServerSettings, load_server_settings
from graphbrain.interfaces.serving import is_loopback

__all__ = ["BodySizeLimit", "create_app", "openapi_document", "run"]

log = logging.getLogger("graphbrain.interfaces.http")


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
            await error_response(413, "payload_too_large", str(e.detail))(scope, receive, send)
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
    app.state.graphbrain = State(settings=settings, tokens=tokens, brains=holder)
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    add_docs(app)
    if settings.ui:
        add_ui(app)
    if settings.mcp:
        add_mcp(app, holder, tokens, settings)
    return app


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
        brain = Brain.from_config(config_path, overrides=overrides, check_schema=False)
        brain.warm_up()  # the models load with the brain, and the server's heap is frozen after them
        return brain

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
