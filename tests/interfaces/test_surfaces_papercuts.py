"""What a new user meets on the HTTP and MCP surfaces: clear errors in each surface's own words, a
readiness probe that names its backend, and MCP over streamable HTTP behind the service's tokens where
an agent bound to one namespace reads no other (no cypher_read, no other namespace's memory)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from iface_support import TOKEN_A, TOKEN_ADMIN, TOKEN_B, TOKEN_CYPHER, Tenants, tenant_settings
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from graphbrain import Brain
from graphbrain.errors import ConfigError
from graphbrain.interfaces.http import TokenRegistry, create_app
from graphbrain.interfaces.mcp_server import create_server


def test_invalid_json_names_the_body_and_the_position(client: TestClient, tenants: Tenants) -> None:
    r = client.post(
        "/v1/compose_context",
        content=b'{"session_id": "s1", "user_message": }',
        headers={**tenants.headers(TOKEN_A), "content-type": "application/json"},
    )
    assert r.status_code == 422
    fields = r.json()["error"]["fields"]
    assert fields == [{"field": "body", "reason": fields[0]["reason"]}]
    assert "invalid JSON at character 37: Expecting value" in fields[0]["reason"], fields


@pytest.mark.parametrize("token", ["short", "短令牌"])
def test_a_short_token_states_the_rule(token: str) -> None:
    env = {"GRAPHBRAIN_TOKENS": json.dumps([{"token": token, "namespaces": ["a"]}], ensure_ascii=False)}
    from graphbrain.interfaces.http import ServerSettings

    with pytest.raises(ConfigError) as e:
        TokenRegistry.from_settings(ServerSettings(), env)
    message = str(e.value)
    assert message.startswith("$GRAPHBRAIN_TOKENS[0]: token: must be at least 16 characters"), message
    assert token not in message  # a secret is never echoed


def test_a_short_token_env_states_the_rule() -> None:
    from graphbrain.interfaces.http import ServerSettings, TokenConfig

    settings = ServerSettings(tokens=[TokenConfig(token_env="MY_TOKEN", namespaces=["a"])])
    with pytest.raises(ConfigError, match="at least 16"):
        TokenRegistry.from_settings(settings, {"MY_TOKEN": "abc"})


def test_readyz_names_the_backend(client: TestClient, brain: Brain) -> None:
    body = client.get("/readyz").json()
    assert body["backend"] == brain.store.backend and body["database"] is True
    assert "neo4j" not in body


def test_read_only_errors_say_each_surfaces_own_way(client: TestClient, seeded: Tenants) -> None:
    r = client.post("/v1/cypher", json={"query": "CREATE (x:Scratch) RETURN x"}, headers=seeded.headers(TOKEN_CYPHER))
    assert r.status_code == 403
    message = r.json()["error"]["message"]
    assert '"write": true' in message and "--write" not in message


def test_mcp_argument_errors_give_field_and_reason(brain: Brain) -> None:
    async def session() -> None:
        async with Client(create_server(brain), read_timeout_seconds=60) as c:
            bad = await c.call_tool("commit_turn", {"session_id": "s1", "turn_events": {"messages": []}})
            text = "".join(getattr(x, "text", "") for x in bad.content)
            assert bad.is_error and text.startswith("InputError: invalid arguments for commit_turn")
            assert "turn_events.messages: " in text
            assert "pydantic" not in text and "validation error for" not in text
            bad = await c.call_tool("search_memory", {"text": "x", "top_k": 1000})
            text = "".join(getattr(x, "text", "") for x in bad.content)
            assert "top_k: " in text and "errors.pydantic.dev" not in text

    anyio.run(session)


def _mcp(base: str, token: str, body: Callable[[Client], Any], namespace: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    if namespace:
        headers["X-Graphbrain-Namespace"] = namespace

    async def session() -> Any:
        http = create_mcp_http_client(headers=headers)
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http), read_timeout_seconds=120) as c:
            return await body(c)

    return anyio.run(session)


def test_mcp_over_http_acts_in_the_tokens_namespace_only(seeded: Tenants, live_server: Callable[[Any], str]) -> None:
    import httpx

    brain = seeded.brain
    base = live_server(create_app(brain, tenant_settings(seeded.a, seeded.b), environ={}))
    assert httpx.post(f"{base}/mcp", json={}).status_code == 401
    forbidden = httpx.post(f"{base}/mcp", json={}, headers=seeded.headers(TOKEN_A, seeded.b))
    assert forbidden.status_code == 403

    async def tools_and_memory(c: Client) -> tuple[set[str], Any]:
        names = {t.name for t in (await c.list_tools()).tools}
        listed = await c.call_tool("list_memory", {})
        return names, json.loads("".join(getattr(x, "text", "") for x in listed.content))

    tools_a, listed_a = _mcp(base, TOKEN_A, tools_and_memory)
    assert "cypher_read" not in tools_a and "commit_turn" in tools_a
    mine = {i["id"] for i in brain.list_memory(namespace=seeded.a)}
    assert listed_a["items"] and {i["id"] for i in listed_a["items"]} == mine

    async def commit(c: Client) -> Any:
        r = await c.call_tool(
            "commit_turn",
            {"session_id": "mcp-b", "turn_events": {"messages": [{"role": "user", "content": "我们决定用 Kotlin。"}]}},
        )
        return json.loads("".join(getattr(x, "text", "") for x in r.content))

    assert _mcp(base, TOKEN_B, commit)["namespace"] == seeded.b
    assert brain.list_memory(session_id="mcp-b", namespace=seeded.a) == []

    tools_c, _ = _mcp(base, TOKEN_CYPHER, tools_and_memory)
    assert "cypher_read" in tools_c  # the cypher grant

    async def cypher(c: Client) -> Any:
        r = await c.call_tool("cypher_read", {"query": "MATCH (m:Memory {namespace: $namespace}) RETURN count(m) AS n"})
        return json.loads("".join(getattr(x, "text", "") for x in r.content))

    assert _mcp(base, TOKEN_CYPHER, cypher)["rows"][0]["n"] > 0

    async def ingest_path(c: Client) -> str:
        r = await c.call_tool("ingest", {"path": "/etc/hostname"})
        return "".join(getattr(x, "text", "") for x in r.content)

    assert "admin token" in _mcp(base, TOKEN_A, ingest_path)
    assert "admin token" not in _mcp(base, TOKEN_ADMIN, ingest_path, namespace=seeded.a)


def test_cli_cypher_help_says_what_it_can_see() -> None:
    from click.testing import CliRunner

    from graphbrain.interfaces.cli import main

    text = CliRunner().invoke(main, ["cypher", "--help"]).output
    assert "every namespace" in " ".join(text.split())
    mcp_help = " ".join(CliRunner().invoke(main, ["mcp", "--help"]).output.split())
    assert "--allow-cypher" in mcp_help and "EVERY namespace" in mcp_help


def test_compose_for_an_unknown_session_gives_namespace_memory(client: TestClient, seeded: Tenants) -> None:
    """Documented in the README: 200, the tenant's memory, no summary and no recent turns."""
    r = client.post(
        "/v1/compose_context",
        json={"session_id": "never-seen", "user_message": "What did we decide for the memory store? 存储用什么？"},
        headers=seeded.headers(TOKEN_A),
    )
    assert r.status_code == 200, r.text
    pkg = r.json()
    assert pkg["session_id"] == "never-seen" and pkg["namespace"] == seeded.a
    assert not pkg["working_summary"] and pkg["recent_turns"] == []
    served = " ".join([*(b["text"] for b in pkg["system_blocks"]), *(e["snippet"] for e in pkg["evidence"])])
    assert "Neo4j" in served, "the namespace's memory is still served"
