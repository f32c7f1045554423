"""Test fixtures: a real Neo4j, never a mock.

The suite reuses a server at $NEO4J_URI when one answers; otherwise it starts the project's own
(`scripts/neo4j.sh start`: Docker when there is an engine, else the Maven-built local launcher).
Each test that takes ``brain`` gets a clean graph (all data deleted, schema kept) and its own namespace.
"""

from __future__ import annotations

import os
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from graphbrain import Brain
from graphbrain.config import BrainConfig, load_config
from graphbrain.store.neo4j_store import Neo4jStore

ROOT = Path(__file__).resolve().parents[1]


def _reachable(uri: str) -> bool:
    u = urlparse(uri)
    try:
        with socket.create_connection((u.hostname or "127.0.0.1", u.port or 7687), timeout=1.0):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def neo4j_uri() -> str:
    uri = os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687")
    if not _reachable(uri):
        out = subprocess.run(
            ["bash", str(ROOT / "scripts" / "neo4j.sh"), "start"],
            check=True, capture_output=True, text=True, timeout=900,
        )
        uri = out.stdout.strip().splitlines()[-1]
    os.environ["NEO4J_URI"] = uri
    return uri


def make_config(neo4j_uri: str, **overrides: object) -> BrainConfig:
    base = {"storage.neo4j.uri": neo4j_uri, "namespace": f"t{uuid.uuid4().hex[:10]}"}
    base.update(overrides)
    return load_config(ROOT / "brain.yml", overrides=base)


@pytest.fixture(scope="session")
def schema_ready(neo4j_uri: str) -> None:
    cfg = make_config(neo4j_uri)
    store = Neo4jStore(cfg.storage.neo4j)
    try:
        store.ensure_schema(cfg.embedding.dimension)
    finally:
        store.close()


@pytest.fixture()
def clean_graph(neo4j_uri: str, schema_ready: None) -> None:
    cfg = make_config(neo4j_uri)
    store = Neo4jStore(cfg.storage.neo4j)
    try:
        store.drop_all_data()
    finally:
        store.close()


@pytest.fixture()
def brain(neo4j_uri: str, clean_graph: None) -> Iterator[Brain]:
    """A Brain on a clean graph, in a namespace of its own."""
    cfg = make_config(neo4j_uri)
    b = Brain(cfg, Neo4jStore(cfg.storage.neo4j))
    try:
        yield b
    finally:
        b.close()


@pytest.fixture()
def brain_factory(neo4j_uri: str, clean_graph: None) -> Iterator[object]:
    """Make Brains with config overrides (dotted keys), all closed at teardown."""
    made: list[Brain] = []

    def factory(**overrides: object) -> Brain:
        cfg = make_config(neo4j_uri, **overrides)
        b = Brain(cfg, Neo4jStore(cfg.storage.neo4j))
        made.append(b)
        return b

    yield factory
    for b in made:
        b.close()
