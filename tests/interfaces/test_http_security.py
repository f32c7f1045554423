"""The HTTP service's security (issue 11): tokens, namespace isolation between tenants, sizes, binding."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from iface_support import TOKEN_A, TOKEN_ADMIN, TOKEN_B, Tenants, sha, turn

from graphbrain import Brain
from graphbrain.errors import ConfigError
from graphbrain.interfaces.http import ServerSettings, TokenConfig, create_app, load_server_settings
from graphbrain.store.neo4j_store import Neo4jStore

EVERY_ENDPOINT = [
    ("POST", "/v1/commit_turn"),
    ("POST", "/v1/compose_context"),
    ("POST", "/v1/retrieve"),
    ("POST", "/retrieve"),
    ("POST", "/v1/ingest"),
    ("GET", "/v1/memory"),
    ("GET", "/v1/memory/x"),
    ("DELETE", "/v1/memory/x"),
    ("DELETE", "/v1/sessions/x"),
    ("GET", "/v1/entities/x"),
    ("POST", "/v1/cypher"),
    ("GET", "/v1/traces/context/x"),
    ("GET", "/v1/traces/commit/x"),
]


@pytest.mark.parametrize(("method", "path"), EVERY_ENDPOINT)
def test_auth_refused_without_a_token(client: TestClient, method: str, path: str) -> None:
    for headers in ({}, {"Authorization": "Bearer not-a-known-token-at-all"}, {"Authorization": "Basic eDp5"}):
        r = client.request(method, path, headers=headers, json={})
        assert r.status_code == 401, (method, path, r.text)
        assert r.json()["error"]["type"] == "unauthorized"
        assert r.headers["WWW-Authenticate"] == "Bearer"


def test_namespace_isolation_between_two_tokens(client: TestClient, seeded: Tenants) -> None:
    a, b = seeded.headers(TOKEN_A), seeded.headers(TOKEN_B)
    a_items = client.get("/v1/memory", headers=a).json()["items"]
    b_items = client.get("/v1/memory", headers=b).json()["items"]
    assert a_items and b_items
    # The same text in both namespaces, but never the other tenant's records.
    assert not {i["id"] for i in a_items} & {i["id"] for i in b_items}
    decision_a = next(i for i in a_items if i["type"] == "decisions")

    # B cannot read, show, forget or trace A's records, even by their ids.
    assert client.get(f"/v1/memory/{decision_a['id']}", headers=b).status_code == 404
    assert client.delete(f"/v1/memory/{decision_a['id']}", headers=b).status_code == 404
    assert client.get(f"/v1/memory/{decision_a['id']}", headers=a).status_code == 200  # still there

    ent_a = client.get("/v1/entities/Neo4j", headers=a).json()["entity"]["id"]
    ent_b = client.get("/v1/entities/Neo4j", headers=b).json()["entity"]["id"]
    assert ent_a != ent_b
    assert client.get(f"/v1/entities/{ent_a}", headers=b).status_code == 404

    pkg = client.post("/v1/compose_context", headers=a, json={"session_id": "s1", "user_message": "what next?"})
    context_id = pkg.json()["context_id"]
    assert client.get(f"/v1/traces/context/{context_id}", headers=a).status_code == 200
    assert client.get(f"/v1/traces/context/{context_id}", headers=b).status_code == 404
    commit = client.post("/v1/commit_turn", headers=a, json={"session_id": "s9", "turn_events": turn("t9", "hi")})
    assert client.get(f"/v1/traces/commit/{commit.json()['commit_id']}", headers=b).status_code == 404

    # Retrieval in B never returns A's evidence.
    plan = {"version": "0.1", "queries": [{"text": "Neo4j memory store"}]}
    pack_b = client.post("/v1/retrieve", headers=b, json=plan).json()
    assert pack_b["evidences"] and all(decision_a["id"] not in json.dumps(e) for e in pack_b["evidences"])

    # Cypher reads the whole database, so a tenant token may not run it at all.
    r = client.post("/v1/cypher", headers=b, json={"query": "MATCH (m:Memory) RETURN m.namespace AS ns"})
    assert r.status_code == 403

    # B may not name A's namespace, in the header or in a body; nothing is written in A.
    before = seeded.brain.list_memory(status="all", limit=1000, namespace=seeded.a)
    r = client.get("/v1/memory", headers=seeded.headers(TOKEN_B, seeded.a))
    assert r.status_code == 403 and seeded.a in r.json()["error"]["message"]
    body = {"session_id": "s1", "turn_events": turn("t5", "We decided to use Postgres.", namespace=seeded.a)}
    assert client.post("/v1/commit_turn", headers=b, json=body).status_code == 403
    assert client.post("/v1/retrieve", headers=b, json={**plan, "namespace": seeded.a}).status_code == 403
    assert seeded.brain.list_memory(status="all", limit=1000, namespace=seeded.a) == before

    # An admin token bound to "*" may act in either, by naming it.
    for ns in (seeded.a, seeded.b):
        r = client.get("/v1/memory", headers=seeded.headers(TOKEN_ADMIN, ns))
        assert r.status_code == 200 and r.json()["items"]


def test_bad_namespace_header_is_a_422_naming_it(client: TestClient, tenants: Tenants) -> None:
    r = client.get("/v1/memory", headers=tenants.headers(TOKEN_ADMIN, "bad ns!"))
    assert r.status_code == 422 and r.json()["error"]["fields"][0]["field"] == "X-Graphbrain-Namespace"


def test_oversize_body_refused(tenants: Tenants) -> None:
    settings = ServerSettings(max_body_bytes=4096, tokens=[TokenConfig(token_sha256=sha(TOKEN_A), namespaces=["x"])])
    app = create_app(tenants.brain, settings, environ={})
    big = {"session_id": "s1", "turn_events": turn("t1", "x" * 10_000, namespace="x")}
    with TestClient(app) as c:
        h = {"Authorization": f"Bearer {TOKEN_A}"}
        r = c.post("/v1/commit_turn", headers=h, json=big)
        assert r.status_code == 413 and r.json()["error"]["type"] == "payload_too_large"

        def chunks() -> Iterator[bytes]:  # no Content-Length: the limit counts what arrives
            data = json.dumps(big).encode()
            for i in range(0, len(data), 1000):
                yield data[i : i + 1000]

        r = c.post("/v1/commit_turn", headers={**h, "Content-Type": "application/json"}, content=chunks())
        assert r.status_code == 413 and r.json()["error"]["type"] == "payload_too_large"
    # Nothing of the refused turn was written.
    assert tenants.brain.list_memory(namespace="x") == []


def test_default_limit_is_one_mebibyte(client: TestClient, tenants: Tenants) -> None:
    text = "y" * (1024 * 1024)
    r = client.post("/v1/ingest", headers=tenants.headers(TOKEN_A), json={"text": text})
    assert r.status_code == 413


def test_binding_and_token_configuration(tenants: Tenants) -> None:
    brain = tenants.brain
    with pytest.raises(ConfigError, match="loopback"):
        create_app(brain, ServerSettings(host="0.0.0.0", auth=False), environ={})
    with pytest.raises(ConfigError, match="no token"):
        create_app(brain, ServerSettings(host="0.0.0.0"), environ={})
    with pytest.raises(ConfigError, match="GB_TOKEN_X"):
        create_app(brain, ServerSettings(tokens=[TokenConfig(token_env="GB_TOKEN_X", namespaces=["a"])]), environ={})

    # auth off is allowed on loopback when configured: no token needed, any namespace, never admin.
    with TestClient(create_app(brain, ServerSettings(auth=False), environ={})) as c:
        assert c.get("/v1/memory").status_code == 200
        assert c.get("/v1/memory", headers={"X-Graphbrain-Namespace": tenants.b}).status_code == 200
        assert c.post("/v1/cypher", json={"query": "RETURN 1 AS one", "write": True}).status_code == 403

    # Tokens from the environment, by JSON list or by a named variable.
    secret = "env-secret-token-0123456789"
    env = {
        "GRAPHBRAIN_TOKENS": json.dumps([{"token": secret, "namespaces": [tenants.a], "name": "from-env"}]),
        "GB_TOKEN_Y": TOKEN_B,
    }
    settings = ServerSettings(tokens=[TokenConfig(token_env="GB_TOKEN_Y", namespaces=[tenants.b])])
    with TestClient(create_app(brain, settings, environ=env)) as c:
        assert c.get("/v1/memory", headers={"Authorization": f"Bearer {secret}"}).status_code == 200
        assert c.get("/v1/memory", headers={"Authorization": f"Bearer {TOKEN_B}"}).status_code == 200
        assert c.get("/v1/memory", headers={"Authorization": f"Bearer {TOKEN_A}"}).status_code == 401

    # A malformed token list is refused without echoing it (it holds secrets).
    with pytest.raises(ConfigError) as exc:
        create_app(brain, ServerSettings(), environ={"GRAPHBRAIN_TOKENS": f'[{{"token": "{secret}", '})
    assert secret not in str(exc.value)
    with pytest.raises(ConfigError) as exc:
        create_app(brain, ServerSettings(), environ={"GRAPHBRAIN_TOKENS": json.dumps([{"token": secret}])})
    assert secret not in str(exc.value) and "namespaces" in str(exc.value)


def test_server_settings_from_brain_yml(tmp_path: Path) -> None:
    cfg = tmp_path / "brain.yml"
    cfg.write_text(
        "server:\n  port: 9999\n  max_body_bytes: 2048\n  tokens:\n"
        "    - {name: ops, token_env: OPS_TOKEN, namespaces: ['*'], admin: true}\n",
        encoding="utf-8",
    )
    s = load_server_settings(cfg)
    assert s.port == 9999 and s.max_body_bytes == 2048 and s.tokens[0].admin and s.host == "127.0.0.1"
    cfg.write_text("server:\n  tokens:\n    - {namespaces: [a]}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="exactly one of token_env and token_sha256"):
        load_server_settings(cfg)
    cfg.write_text("server:\n  prot: 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="server.prot"):
        load_server_settings(cfg)


def test_tokens_never_logged(client: TestClient, tenants: Tenants, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    client.get("/v1/memory", headers=tenants.headers(TOKEN_A))
    client.get("/v1/memory", headers={"Authorization": "Bearer wrong-token-value-xyz"})
    client.post("/v1/cypher", headers=tenants.headers(TOKEN_ADMIN, tenants.a), json={"query": "MATCH (n RETURN n"})
    assert TOKEN_A not in caplog.text and TOKEN_ADMIN not in caplog.text and "wrong-token-value-xyz" not in caplog.text


def test_a_brain_made_on_first_use_is_closed_with_the_app(brain: Brain, backend: str) -> None:
    if backend != "neo4j":
        pytest.skip("builds Neo4j stores of its own")
    made: list[Brain] = []
    closed: list[Brain] = []

    class Recording(Brain):
        def close(self) -> None:
            closed.append(self)
            super().close()

    def factory() -> Brain:
        made.append(Recording(brain.config, Neo4jStore(brain.config.storage.neo4j)))
        return made[-1]

    with TestClient(create_app(factory, ServerSettings(auth=False), environ={})) as c:
        assert c.get("/healthz").status_code == 200 and not made  # liveness needs no database
        assert c.get("/readyz").status_code == 200 and len(made) == 1
        assert c.get("/v1/memory").status_code == 200 and len(made) == 1
        assert not closed
    assert closed == made
    # A Brain handed in belongs to the caller: the app leaves it open.
    with TestClient(create_app(brain, ServerSettings(auth=False), environ={})) as c:
        c.get("/v1/memory")
    assert brain.store.ping()


def test_readyz_503_when_neo4j_is_unreachable(brain: Brain, backend: str) -> None:
    if backend != "neo4j":
        pytest.skip("builds Neo4j stores of its own")
    from graphbrain.config import load_config

    cfg = load_config(
        None,
        overrides={
            "storage.neo4j.uri": "bolt://127.0.0.1:1",
            "storage.neo4j.connection_timeout_s": 1,
            "storage.neo4j.max_retry_time_s": 0,
        },
        use_env=False,
    )
    dead = Brain(cfg, Neo4jStore(cfg.storage.neo4j))
    try:
        with TestClient(create_app(dead, ServerSettings(auth=False), environ={})) as c:
            r = c.get("/readyz")
            assert r.status_code == 503 and r.json()["ready"] is False and r.json()["database"] is False
            r = c.get("/v1/memory")
            assert r.status_code == 503 and r.json()["error"]["type"] == "store_unavailable"
            assert c.get("/healthz").status_code == 200
    finally:
        dead.close()
