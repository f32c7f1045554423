"""Test fixtures: a real database server for every test — Neo4j, the embedded FalkorDB, or both.

``GRAPHBRAIN_TEST_BACKENDS`` (comma-separated: ``neo4j``, ``embedded``; default ``neo4j``) says which
backends the storage tests run on; with more than one, every test that takes ``brain`` or
``brain_factory`` runs once per backend (ids ``[neo4j]`` / ``[embedded]``). With one, test ids are
unchanged.

Neo4j: the suite reuses a server at $NEO4J_URI when one answers; otherwise it starts the project's own
(`scripts/neo4j.sh start`: Docker when there is an engine, else the Maven-built local launcher).
Embedded: one FalkorDB server per test session under a temporary data dir, started by the session
store and kept up until the session ends (each Brain's own store shares it).
Each test that takes ``brain`` gets a clean graph (all data deleted, schema kept) and its own namespace.
Tests that are inherently Neo4j-only (its ``SHOW`` commands, procedures, Neo4j-only Cypher written in
the test itself) carry the ``neo4j_only`` marker and are skipped on the embedded backend.
"""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from graphbrain import Brain
from graphbrain.config import BrainConfig, load_config
from graphbrain.errors import StoreError
from graphbrain.store.base import Store
from graphbrain.store.neo4j_store import Neo4jStore

ROOT = Path(__file__).resolve().parents[1]
# Each embedded server a test starts stops with its last user, as it did before servers outlived their
# command (test data dirs are temporary); tests of the idle stop set their own value.
os.environ.setdefault("GRAPHBRAIN_EMBEDDED_IDLE_STOP_S", "0")
BACKENDS = [b.strip() for b in os.environ.get("GRAPHBRAIN_TEST_BACKENDS", "neo4j").split(",") if b.strip()]

# Tests whose own code is Neo4j-only (SHOW commands, db.index.* procedures, Neo4j 5 syntax such as
# COUNT {} or dynamic labels); they run on Neo4j only. Matched by node id prefix.
NEO4J_ONLY: dict[str, str] = {
    "tests/test_schema.py::test_indexes_configured": "Neo4j index names and SHOW INDEXES",
    "tests/test_schema.py::test_every_id_has_a_uniqueness_constraint": "SHOW CONSTRAINTS",
    "tests/test_schema.py::test_cjk_fulltext_mixed_languages": "db.index.fulltext in the test",
    "tests/test_schema.py::test_from_config_reports_missing_schema": "storage.neo4j.uri override",
    "tests/test_schema.py::test_the_active_indexes": "db.index.* on indexes only Neo4j has",
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "neo4j_only: runs on the Neo4j backend only")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for prefix, reason in NEO4J_ONLY.items():
            if item.nodeid.startswith(prefix):
                item.add_marker(pytest.mark.neo4j_only(reason=reason))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # Parametrise only with several backends, so single-backend test ids stay as they were.
    if "backend" in metafunc.fixturenames and len(BACKENDS) > 1:
        metafunc.parametrize("backend", BACKENDS, indirect=True, scope="session")


@pytest.fixture(scope="session")
def backend(request: pytest.FixtureRequest) -> str:
    name = str(getattr(request, "param", BACKENDS[0]))
    if name not in ("neo4j", "embedded"):
        raise ValueError(f"GRAPHBRAIN_TEST_BACKENDS: unknown backend {name!r}")
    return name


@pytest.fixture(autouse=True)
def _backend_marks(request: pytest.FixtureRequest) -> None:
    if "backend" not in request.fixturenames or request.getfixturevalue("backend") == "neo4j":
        return
    marker = request.node.get_closest_marker("neo4j_only")
    if marker is not None:
        pytest.skip(f"Neo4j only: {marker.kwargs.get('reason')}")


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
            check=True,
            capture_output=True,
            text=True,
            timeout=900,
        )
        uri = out.stdout.strip().splitlines()[-1]
    os.environ["NEO4J_URI"] = uri
    return uri


# Tests journal into a scratch dir, never into the working directory's .graphbrain/.
TEST_DATA_DIR = Path(tempfile.mkdtemp(prefix="graphbrain-tests-"))


def make_config(neo4j_uri: str, **overrides: object) -> BrainConfig:
    base = {
        "storage.neo4j.uri": neo4j_uri,
        "namespace": f"t{uuid.uuid4().hex[:10]}",
        "storage.data_dir": str(TEST_DATA_DIR / uuid.uuid4().hex[:8]),
    }
    base.update(overrides)
    return load_config(ROOT / "brain.yml", overrides=base)


@pytest.fixture(scope="session")
def embedded_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("graphbrain-embedded")


def make_embedded_config(data_dir: Path, **overrides: object) -> BrainConfig:
    # The turn journal lives in storage.data_dir, which here is also the session-wide database dir:
    # left on, one test's pending turns would be replayed into the next test's commits.
    base: dict[str, Any] = {"storage.backend": "embedded", "storage.data_dir": str(data_dir), "storage.journal": False}
    base.update({"namespace": f"t{uuid.uuid4().hex[:10]}"}, **overrides)
    return load_config(ROOT / "brain.yml", overrides=base)


def _embedded_store(cfg: BrainConfig) -> Store:
    from graphbrain.store.falkordb_store import FalkorStore

    return FalkorStore(cfg.storage)


@pytest.fixture(scope="session")
def embedded_session_store(embedded_data_dir: Path) -> Iterator[Store]:
    """Starts the session's FalkorDB server, applies the schema, and keeps the server up until the end."""
    cfg = make_embedded_config(embedded_data_dir)
    store = _embedded_store(cfg)
    store.ensure_schema(cfg.embedding.dimension)
    yield store
    store.close()


@pytest.fixture(scope="session")
def schema_ready(neo4j_uri: str) -> None:
    cfg = make_config(neo4j_uri)
    store = Neo4jStore(cfg.storage.neo4j)
    try:
        store.ensure_schema(cfg.embedding.dimension)
    finally:
        store.close()


@pytest.fixture()
def clean_graph(request: pytest.FixtureRequest, backend: str) -> None:
    if backend == "embedded":
        request.getfixturevalue("embedded_session_store").drop_all_data()
        return
    neo4j_uri = request.getfixturevalue("neo4j_uri")
    request.getfixturevalue("schema_ready")
    cfg = make_config(neo4j_uri)
    store = Neo4jStore(cfg.storage.neo4j)
    try:
        store.drop_all_data()
    finally:
        store.close()


def _factory(request: pytest.FixtureRequest, backend: str) -> Any:
    if backend == "embedded":
        data_dir = request.getfixturevalue("embedded_data_dir")

        def make_embedded(**overrides: object) -> Brain:
            cfg = make_embedded_config(data_dir, **overrides)
            return Brain(cfg, _embedded_store(cfg))

        return make_embedded
    neo4j_uri = request.getfixturevalue("neo4j_uri")

    def make_neo4j(**overrides: object) -> Brain:
        cfg = make_config(neo4j_uri, **overrides)
        return Brain(cfg, Neo4jStore(cfg.storage.neo4j))

    return make_neo4j


@pytest.fixture()
def brain(request: pytest.FixtureRequest, backend: str, clean_graph: None) -> Iterator[Brain]:
    """A Brain on a clean graph, in a namespace of its own; after a test that passed, every memory item's
    Active label still agrees with its status (whatever the test made the product write)."""
    b = _factory(request, backend)()
    try:
        yield b
        _assert_active_labels_agree(b)
    finally:
        b.close()


def _assert_active_labels_agree(b: Brain) -> None:
    try:
        wrong = b.store.cypher(
            "MATCH (m:Memory) WHERE coalesce(m.status = 'active', false) <> m:Active "
            "RETURN m.id AS id, m.status AS status LIMIT 5"
        ).rows
    except StoreError:  # the test left the database away (chaos, restarts): nothing to read
        return
    assert wrong == [], f"memory items whose Active label disagrees with their status: {wrong}"


@pytest.fixture()
def brain_factory(request: pytest.FixtureRequest, backend: str, clean_graph: None) -> Iterator[object]:
    """Make Brains with config overrides (dotted keys), all closed at teardown."""
    made: list[Brain] = []
    make = _factory(request, backend)

    def factory(**overrides: object) -> Brain:
        b = make(**overrides)
        made.append(b)
        return b

    yield factory
    for b in made:
        b.close()
