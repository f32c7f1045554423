"""The MCP server through the SDK's own client: over stdio (a real subprocess) and in memory."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from iface_support import seed, turn
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from graphbrain import Brain
from graphbrain.interfaces.mcp_server import create_server

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {
    "commit_turn",
    "compose_context",
    "search_memory",
    "get_entity",
    "list_memory",
    "forget",
    "ingest",
}


def _text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def _json(result: Any) -> Any:
    assert not result.is_error, _text(result)
    return json.loads(_text(result))


def test_stdio_session_lists_and_calls_the_tools(brain: Brain, neo4j_uri: str, backend: str) -> None:
    if backend != "neo4j":
        pytest.skip("the subprocess serves brain.yml's Neo4j")
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "graphbrain.interfaces.mcp_server",
            "--config",
            str(ROOT / "brain.yml"),
            "--namespace",
            brain.namespace,
        ],
        env={
            **{k: v for k, v in os.environ.items() if k.startswith("NEO4J_")},
            "NEO4J_URI": neo4j_uri,
            "GRAPHBRAIN_DATA_DIR": brain.config.storage.data_dir,  # this test's journal, not the repo's
        },
        cwd=str(ROOT),
    )

    async def session() -> None:
        async with Client(params, read_timeout_seconds=180) as client:
            listed = await client.list_tools()
            tools = {t.name: t for t in listed.tools}
            assert set(tools) == TOOLS
            for t in tools.values():  # written for an agent: when to call it and what comes back
                assert t.description and "Call" in t.description and "Returns" in t.description
            search, forget = tools["search_memory"].annotations, tools["forget"].annotations
            assert search is not None and search.read_only_hint is True
            assert forget is not None and forget.destructive_hint is True

            events = turn("t1", "We decided to use Neo4j for the memory store.")
            committed = _json(await client.call_tool("commit_turn", {"session_id": "s1", "turn_events": events}))
            assert committed["status"] == "committed" and committed["namespace"] == brain.namespace
            assert any(w["type"] == "decisions" for w in committed["memory_written"])
            assert "explain" not in committed  # compact unless asked

            found = _json(
                await client.call_tool("search_memory", {"text": "which database for the memory store", "top_k": 5})
            )
            assert found["evidences"] and any("Neo4j" in e["snippet"] for e in found["evidences"])
            assert set(found["evidences"][0]) == {
                "id",
                "kind",
                "title",
                "source_uri",
                "snippet",
                "score",
                "mode",
                "ref",
            }

            bad = await client.call_tool("commit_turn", {"session_id": "s1", "turn_events": {"messages": []}})
            assert bad.is_error and "messages" in _text(bad)

    anyio.run(session)
    # The subprocess wrote into the namespace it was given, visible to this process's Brain.
    assert [i["type"] for i in brain.list_memory(types=["decisions"])] == ["decisions"]


@pytest.fixture()
def client_of(brain: Brain) -> Any:
    def make(**kw: Any) -> Client:
        return Client(create_server(brain, **kw), read_timeout_seconds=120)

    return make


def test_every_tool_in_memory(brain: Brain, client_of: Any, tmp_path: Path) -> None:
    seed(brain, brain.namespace)
    note = tmp_path / "n.md"
    note.write_text("# N\n\nLocal.\n", encoding="utf-8")

    async def session() -> None:
        async with client_of() as client:
            pkg = _json(await client.call_tool("compose_context", {"session_id": "s1", "user_message": "what next?"}))
            assert pkg["context_id"] and "debug" not in pkg and pkg["namespace"] == brain.namespace
            text = _text(
                await client.call_tool("compose_context", {"session_id": "s1", "user_message": "hi", "format": "text"})
            )
            assert text.startswith("context_id: ctx_") and "### user" in text
            # An as-of time: "last week" is the week before the given moment (the trace keeps the plan).
            asked = {"session_id": "s1", "user_message": "What did we decide last week?", "now": "2026-11-12T12:00:00Z"}
            then = _json(await client.call_tool("compose_context", asked))
            plan = brain.store.cypher(
                "MATCH (c:ContextTrace {id: $id}) RETURN c.plans AS plan", {"id": then["context_id"]}
            ).rows[0]["plan"]
            assert "2026-11-02" in plan

            ent = _json(await client.call_tool("get_entity", {"name": "Neo4j"}))
            assert ent["found"] is True and ent["entity"]["name"] == "Neo4j" and ent["decisions"]
            assert _json(await client.call_tool("get_entity", {"name": "Nope"})) == {"found": False, "name": "Nope"}

            items = _json(await client.call_tool("list_memory", {"types": ["tasks"]}))["items"]
            assert [i["type"] for i in items] == ["tasks"]
            assert "cypher_read" not in {t.name for t in (await client.list_tools()).tools}
        async with client_of(allow_cypher=True) as client:  # started for an admin
            rows = _json(
                await client.call_tool(
                    "cypher_read", {"query": "MATCH (m:Memory {namespace: $namespace}) RETURN count(m) AS n"}
                )
            )
            assert rows["columns"] == ["n"] and rows["rows"][0]["n"] > 0
            refused = await client.call_tool("cypher_read", {"query": "CREATE (x:Scratch) RETURN x"})
            assert refused.is_error and "ReadOnlyViolation" in _text(refused)
            assert "--write" not in _text(refused)
        async with client_of() as client:
            doc = _json(await client.call_tool("ingest", {"text": "# Ops\n\nBackups nightly.", "title": "ops"}))
            assert doc["document_id"] and doc["documents"][0]["status"] == "created"
            no_path = await client.call_tool("ingest", {"path": str(note)})
            assert no_path.is_error and "allow-paths" in _text(no_path)

            gone = _json(await client.call_tool("forget", {"item_id": items[0]["id"]}))
            assert gone["found"] is True
            two = await client.call_tool("forget", {"item_id": "x", "session_id": "s1"})
            assert two.is_error and "exactly one" in _text(two)

        async with client_of(allow_paths=True) as client:
            doc = _json(await client.call_tool("ingest", {"path": str(note)}))
            assert doc["documents"][0]["status"] == "created"

    anyio.run(session)
    assert brain.list_memory(types=["tasks"]) == []
