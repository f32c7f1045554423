"""Fixtures for the resource library on the real Neo4j: an Ingestor, Cypher checks, a local HTTP server."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.resources.ingest import Ingestor

# A route answers with (status, content type, body) or a callable that handles the request itself.
Route = tuple[int, str, bytes] | Callable[[BaseHTTPRequestHandler], None]


@pytest.fixture()
def ingestor(brain: Brain) -> Ingestor:
    return Ingestor(brain.config, brain.store, lambda: brain.embedder)


@pytest.fixture()
def cy(brain: Brain) -> Callable[..., list[dict[str, Any]]]:
    """Run a check query in the test's namespace: ``cy("MATCH (d:Document {namespace: $ns}) ...")``."""

    def run(query: str, /, **params: Any) -> list[dict[str, Any]]:
        return brain.store.cypher(query, {"ns": brain.namespace, **params}, write=True).rows

    return run


@pytest.fixture()
def http_server() -> Iterator[Callable[[dict[str, Route]], str]]:
    """A local HTTP server (127.0.0.1, a free port, a thread) with fixed routes; returns its base URL."""
    servers: list[ThreadingHTTPServer] = []

    def start(routes: dict[str, Route]) -> str:
        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                route = routes.get(self.path.split("?", 1)[0])
                if route is None:
                    self.send_response(404)
                    self.send_header("Content-Type", "text/plain")
                    self.end_headers()
                    self.wfile.write(b"not found")
                    return
                if callable(route):
                    route(self)
                    return
                status, ctype, body = route
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = _serve
            do_POST = _serve

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        server.block_on_close = False
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()
