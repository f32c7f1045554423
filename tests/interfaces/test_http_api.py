"""Every HTTP endpoint against the real Neo4j: the product calls, memory, entities, Cypher, traces, probes."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from iface_support import TOKEN_A, TOKEN_ADMIN, TOKEN_CYPHER, Tenants, turn

from graphbrain.store import SCHEMA_VERSION


def test_probes(client: TestClient) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json()["ok"] is True
    r = client.get("/readyz")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ready"] is True and body["database"] is True and body["backend"] in ("neo4j", "embedded")
    assert body["schema_version"] == SCHEMA_VERSION == body["expected_schema_version"]


def test_commit_compose_retrieve_and_traces(client: TestClient, tenants: Tenants) -> None:
    h = tenants.headers(TOKEN_A)
    r = client.post(
        "/v1/commit_turn",
        headers=h,
        json={"session_id": "s1", "turn_events": turn("t1", "We decided to use Neo4j for the memory store.")},
    )
    assert r.status_code == 200, r.text
    commit = r.json()
    assert commit["status"] == "committed" and commit["namespace"] == tenants.a and commit["seq"] == 1
    assert [w["type"] for w in commit["memory_written"]].count("decisions") == 1

    r = client.get(f"/v1/traces/commit/{commit['commit_id']}", headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["result"]["commit_id"] == commit["commit_id"]

    r = client.post(
        "/v1/compose_context",
        headers=h,
        json={"session_id": "s1", "user_message": "What did we decide about the memory store?"},
    )
    assert r.status_code == 200, r.text
    package = r.json()
    assert package["namespace"] == tenants.a and package["user_message"]["content"].startswith("What did")
    assert any("Neo4j" in b["text"] for b in package["system_blocks"])

    r = client.get(f"/v1/traces/context/{package['context_id']}", headers=h)
    assert r.status_code == 200, r.text
    trace = r.json()
    assert trace["context_id"] == package["context_id"] and trace["session_id"] == "s1"

    plan = {"version": "0.1", "queries": [{"text": "memory store decision", "mode": "hybrid"}]}
    for path in ("/v1/retrieve", "/retrieve"):  # the SmartRAG-compatible alias answers the same contract
        r = client.post(path, headers=h, json=plan)
        assert r.status_code == 200, r.text
        pack = r.json()
        assert pack["plan_id"] and pack["evidences"], pack
        assert any("Neo4j" in e["snippet"] for e in pack["evidences"])


def test_ingest_text_url_and_path(client: TestClient, tenants: Tenants, tmp_path: Path, http_page: str) -> None:
    h = tenants.headers(TOKEN_A)
    r = client.post("/v1/ingest", headers=h, json={"text": "# Runbook\n\nRestart Neo4j with care.", "title": "runbook"})
    assert r.status_code == 200, r.text
    assert r.json()["documents"][0]["status"] == "created" and r.json()["namespace"] == tenants.a

    # A URL on a loopback address: refused for a tenant token (no SSRF into the server's network) ...
    r = client.post("/v1/ingest", headers=h, json={"url": http_page})
    assert r.status_code == 403 and r.json()["error"]["fields"][0]["field"] == "url"
    # ... fetched for an admin token.
    r = client.post("/v1/ingest", headers=tenants.headers(TOKEN_ADMIN, tenants.a), json={"url": http_page})
    assert r.status_code == 200, r.text
    assert r.json()["kind"] == "url" and r.json()["documents"][0]["status"] == "created"

    note = tmp_path / "note.md"
    note.write_text("# Note\n\nA local file.\n", encoding="utf-8")
    r = client.post("/v1/ingest", headers=h, json={"path": str(note)})
    assert r.status_code == 403 and r.json()["error"]["type"] == "forbidden"
    r = client.post("/v1/ingest", headers=tenants.headers(TOKEN_ADMIN, tenants.a), json={"path": str(note)})
    assert r.status_code == 200, r.text
    assert r.json()["kind"] == "file"

    r = client.post("/v1/ingest", headers=h, json={"text": "x", "url": "https://example.org/"})
    assert r.status_code == 422 and "exactly one" in r.json()["error"]["message"]


def test_memory_list_show_forget(client: TestClient, seeded: Tenants) -> None:
    h = seeded.headers(TOKEN_A)
    r = client.get("/v1/memory", headers=h, params={"types": ["decisions", "tasks"]})
    assert r.status_code == 200, r.text
    listed = r.json()
    types = {i["type"] for i in listed["items"]}
    assert types == {"decisions", "tasks"} and listed["count"] == len(listed["items"])

    decision = next(i for i in listed["items"] if i["type"] == "decisions")
    for ref in (decision["id"], decision["key"]):
        r = client.get(f"/v1/memory/{ref}", headers=h)
        assert r.status_code == 200, r.text
        assert r.json()["item"]["id"] == decision["id"] and r.json()["history"]

    r = client.get("/v1/memory", headers=h, params={"key_prefix": "task:", "limit": 1})
    assert r.status_code == 200 and [i["type"] for i in r.json()["items"]] == ["tasks"]

    r = client.delete(f"/v1/memory/{decision['id']}", headers=h)
    assert r.status_code == 200 and r.json()["found"] is True and r.json()["total"] >= 1
    assert client.get(f"/v1/memory/{decision['id']}", headers=h).status_code == 404
    assert client.delete(f"/v1/memory/{decision['id']}", headers=h).status_code == 404

    r = client.delete("/v1/sessions/s1", headers=h)
    assert r.status_code == 200 and r.json()["found"] is True
    assert client.get("/v1/memory", headers=h, params={"session_id": "s1"}).json()["items"] == []
    assert client.delete("/v1/sessions/s1", headers=h).status_code == 404
    # Tenant B's copy of the same session is untouched.
    assert seeded.brain.list_memory(session_id="s1", namespace=seeded.b)


def test_entity(client: TestClient, seeded: Tenants) -> None:
    r = client.get("/v1/entities/Neo4j", headers=seeded.headers(TOKEN_A))
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["entity"]["name"] == "Neo4j" and view["decisions"] and view["turns"] and view["timeline"]
    r = client.get("/v1/entities/NoSuchThing", headers=seeded.headers(TOKEN_A))
    assert r.status_code == 404 and r.json()["error"]["type"] == "not_found"


def test_cypher_read_write_and_roles(client: TestClient, seeded: Tenants) -> None:
    read = {"query": "MATCH (m:Memory {namespace: $namespace}) RETURN count(m) AS n"}
    write = {"query": "CREATE (x:Scratch {namespace: $namespace}) RETURN x.namespace AS ns", "write": True}

    # A tenant token without the cypher grant: refused, read or write.
    for body in (read, write):
        r = client.post("/v1/cypher", headers=seeded.headers(TOKEN_A), json=body)
        assert r.status_code == 403, r.text

    r = client.post("/v1/cypher", headers=seeded.headers(TOKEN_CYPHER), json=read)
    assert r.status_code == 200, r.text
    assert r.json()["columns"] == ["n"] and r.json()["rows"][0]["n"] > 0 and r.json()["truncated"] is False
    r = client.post("/v1/cypher", headers=seeded.headers(TOKEN_CYPHER), json=write)
    assert r.status_code == 403 and "admin" in r.json()["error"]["message"]

    admin = seeded.headers(TOKEN_ADMIN, seeded.a)
    r = client.post("/v1/cypher", headers=admin, json=write)
    assert r.status_code == 200, r.text
    assert r.json()["rows"] == [{"ns": seeded.a}]
    # A write in a read transaction is refused by the server itself, even for an admin.
    r = client.post("/v1/cypher", headers=admin, json={**write, "write": False})
    assert r.status_code == 403 and r.json()["error"]["type"] == "read_only_violation"
    r = client.post("/v1/cypher", headers=admin, json={"query": "MATCH (n RETURN n"})
    assert r.status_code == 400 and r.json()["error"]["fields"][0]["field"] == "query"
    r = client.post("/v1/cypher", headers=admin, json={"query": "UNWIND range(1, 50) AS i RETURN i", "row_cap": 10})
    assert r.status_code == 200 and len(r.json()["rows"]) == 10 and r.json()["truncated"] is True
    seeded.brain.cypher("MATCH (x:Scratch) DELETE x", write=True, namespace=seeded.a)


def test_errors_are_structured(client: TestClient, tenants: Tenants) -> None:
    h = tenants.headers(TOKEN_A)
    r = client.post("/v1/commit_turn", headers=h, json={"session_id": "s1", "turn_events": {"messages": []}})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["type"] == "validation_error" and err["fields"][0]["field"] == "turn_events.messages"

    r = client.post("/v1/retrieve", headers=h, json={"version": "0.1", "queries": [{"text": "x", "mode": "psychic"}]})
    assert r.status_code == 422 and r.json()["error"]["fields"][0]["field"] == "queries.0.mode"

    r = client.get("/v1/memory", headers=h, params={"limit": 0})
    assert r.status_code == 422 and r.json()["error"]["fields"][0]["field"] == "query.limit"

    r = client.post("/v1/compose_context", headers=h, content=b"{not json")
    assert r.status_code == 422 and r.json()["error"]["type"] == "validation_error"

    r = client.get("/v1/nowhere", headers=h)
    assert r.status_code == 404 and r.json()["error"]["type"] == "not_found"
    r = client.get("/v1/traces/context/ctx_missing", headers=h)
    assert r.status_code == 404 and r.json()["error"]["type"] == "not_found"


def test_compose_context_as_of_a_given_time(client: TestClient, tenants: Tenants) -> None:
    h = tenants.headers(TOKEN_A)
    body = {"session_id": "s1", "user_message": "What did we decide last week about retrieval?"}
    r = client.post("/v1/compose_context", headers=h, json={**body, "now": "2026-11-12T12:00:00Z"})
    assert r.status_code == 200, r.text
    tr = r.json()["debug"]["planner"]["time_range"]
    assert tr["from"].startswith("2026-11-02") and tr["to"].startswith("2026-11-09")
    r = client.post("/v1/compose_context", headers=h, json={**body, "now": "2026-11-12T12:00:00"})
    assert r.status_code == 422 and "now" in r.text  # a moment without a zone is ambiguous: said, not guessed
