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

The modules: ``settings`` (brain.yml ``server:``), ``auth`` (tokens, Scope), ``errors`` (the error shape
and status mapping), ``deps`` (what routes are given), ``routes/`` (one router per area), ``pages``
(/docs, /ui), ``mcp_gate`` (/mcp) and ``app`` (create_app, run).
"""

from __future__ import annotations

from graphbrain.interfaces.http.app import create_app, openapi_document, run
from graphbrain.interfaces.http.auth import NAMESPACE_HEADER, TokenRegistry
from graphbrain.interfaces.http.settings import ServerSettings, TokenConfig, load_server_settings
from graphbrain.interfaces.serving import LazyBrain, is_loopback

__all__ = [
    "NAMESPACE_HEADER",
    "LazyBrain",
    "ServerSettings",
    "TokenConfig",
    "TokenRegistry",
    "create_app",
    "is_loopback",
    "load_server_settings",
    "openapi_document",
    "run",
]
