"""/mcp: the MCP tools over streamable HTTP, behind the service's own bearer tokens."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.types import Receive, Send
from starlette.types import Scope as ASGIScope

from graphbrain.interfaces.http.auth import NAMESPACE_HEADER, TokenRegistry, resolve_scope
from graphbrain.interfaces.http.errors import ApiError
from graphbrain.interfaces.http.settings import ServerSettings
from graphbrain.interfaces.serving import LazyBrain

__all__ = ["McpGate", "add_mcp"]


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
            await e.response()(scope, receive, send)
            return
        principal = resolved.principal
        caller = Caller(namespace=resolved.namespace, admin=principal.admin, cypher=principal.cypher)
        reset = current_caller.set(caller)
        try:
            await self.apps[principal.cypher]({**scope, "path": self.PATH}, receive, send)
        finally:
            current_caller.reset(reset)


def add_mcp(app: FastAPI, holder: LazyBrain, tokens: TokenRegistry, settings: ServerSettings) -> None:
    from starlette.routing import Route

    gate = McpGate(holder, tokens, settings)
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
