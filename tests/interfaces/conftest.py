"""Fixtures for the HTTP service, the MCP server and the graph page, on the real Neo4j (helpers: iface_support)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from iface_support import Tenants, free_port, seed, tenant_settings

from graphbrain import Brain
from graphbrain.interfaces.http import create_app


@pytest.fixture()
def brain(brain_factory: Callable[..., Brain], backend: str, tmp_path: Path) -> Brain:
    """The shared ``brain``, but journaling into this test's own data dir: some tests here commit turns
    that fail on purpose, and a journal shared by every test run would replay them at each start-up."""
    return brain_factory(**({"storage.data_dir": str(tmp_path / "data")} if backend == "neo4j" else {}))


@pytest.fixture()
def tenants(brain: Brain) -> Tenants:
    return Tenants(brain=brain, a=brain.namespace, b=f"{brain.namespace}-b")


@pytest.fixture()
def client(tenants: Tenants) -> Iterator[TestClient]:
    app = create_app(tenants.brain, tenant_settings(tenants.a, tenants.b), environ={})
    with TestClient(app) as c:
        yield c


@pytest.fixture()
def seeded(tenants: Tenants) -> Tenants:
    seed(tenants.brain, tenants.a)
    seed(tenants.brain, tenants.b)
    return tenants


@pytest.fixture()
def live_server() -> Iterator[Callable[[Any], str]]:
    """Serve an ASGI app with uvicorn on a free loopback port in a thread; returns its base URL."""
    import uvicorn

    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(app: Any) -> str:
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        servers.append((server, thread))
        return f"http://127.0.0.1:{port}"

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture()
def http_page() -> Iterator[str]:
    """A web page on a local HTTP server (127.0.0.1, a free port, a thread): its URL."""
    body = (
        b"<html><head><title>Ops notes</title></head>"
        b"<body><h1>Ops notes</h1><p>Neo4j backups run nightly at two.</p></body></html>"
    )

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/ops.html"
    finally:
        server.shutdown()
        server.server_close()
