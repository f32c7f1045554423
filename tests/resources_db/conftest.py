"""Fixtures for the resource library on a real database: an Ingestor, Cypher checks, a local HTTP server.

``chunk_fulltext`` and ``chunk_vector`` query the chunk full-text / vector index in the way the backend
speaks (Neo4j's ``db.index.*`` procedures, FalkorDB's ``db.idx.*`` over the store's token copies), so the
tests that check what the indexes find run on both.
"""

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
def chunk_fulltext(brain: Brain) -> Callable[..., list[dict[str, Any]]]:
    """Chunks of the test's namespace the full-text index finds for ``q`` (Lucene syntax), best first:
    ``chunk_fulltext("wombat", "node.id AS id")``; ``returns`` is a RETURN list over ``node``."""

    def run(q: str, returns: str = "node.id AS id") -> list[dict[str, Any]]:
        if brain.store.backend == "embedded":
            from graphbrain.store.falkordb_store import fts_query

            # RediSearch's TF-IDF ties often: break ties as BM25 would (more query terms, shorter text),
            # as retrieve/exact_resources.falkordb.cypher does.
            query = (
                "CALL db.idx.fulltext.queryNodes('Chunk', $q) YIELD node, score "
                "WITH node, score, split(coalesce(node.text_fts, ''), ' ') AS tokens, split($q, ' | ') AS terms "
                "WITH node, score, size([x IN tokens WHERE x IN terms]) AS tf, size(tokens) AS len "
                "WHERE node.namespace = $ns "
                "WITH node, score, tf, len ORDER BY score DESC, tf DESC, len, node.id "
                f"RETURN {returns}"
            )
            params = {"q": fts_query(q)}
        else:
            query = (
                "CALL db.index.fulltext.queryNodes('chunk_text', $q) YIELD node, score "
                "WHERE node.namespace = $ns WITH node, score ORDER BY score DESC "
                f"RETURN {returns}"
            )
            params = {"q": q}
        return brain.store.cypher(query, {"ns": brain.namespace, **params}).rows

    return run


@pytest.fixture()
def chunk_vector(brain: Brain) -> Callable[..., list[dict[str, Any]]]:
    """The ``k`` chunks nearest ``vector`` (then those of the test's namespace), best first, with
    ``score`` as Neo4j's ``(1 + cos) / 2`` on both backends; ``returns`` is a RETURN list over ``node``."""

    def run(vector: list[float], k: int, returns: str = "node.id AS id") -> list[dict[str, Any]]:
        if brain.store.backend == "embedded":
            query = (
                "CALL db.idx.vector.queryNodes('Chunk', 'embedding', $k, vecf32($v)) YIELD node, score "
                "WITH node, 1.0 - score / 2.0 AS score WHERE node.namespace = $ns "
                f"WITH node, score ORDER BY score DESC RETURN {returns}"
            )
        else:
            query = (
                "CALL db.index.vector.queryNodes('chunk_embedding', $k, $v) YIELD node, score "
                f"WHERE node.namespace = $ns WITH node, score ORDER BY score DESC RETURN {returns}"
            )
        return brain.store.cypher(query, {"ns": brain.namespace, "k": k, "v": vector}).rows

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
