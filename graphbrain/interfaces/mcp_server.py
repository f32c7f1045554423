"""The MCP server: graphbrain's memory as tools for an agent (official ``mcp`` SDK, ``MCPServer``).

    python -m graphbrain.interfaces.mcp_server --config brain.yml --namespace me          # stdio
    python -m graphbrain.interfaces.mcp_server --transport http --port 8766              # streamable HTTP

One server acts in one namespace (``--namespace`` or brain.yml's). Each tool is a thin call to a Brain
method; answers are compact JSON so they cost the agent few tokens. Errors come back as tool errors
whose text names the field and the reason (bad arguments included), so the agent can correct the call.

``cypher_read`` is offered only when the server is started for an admin (``--allow-cypher``): Cypher
can read every namespace in the database ($namespace is a filter a query may leave out), so an agent
bound to one namespace never gets it.

This module's HTTP transport has no token auth of its own, so it binds to loopback only. ``graphbrain
serve`` also serves these tools over streamable HTTP at ``/mcp``, behind its bearer tokens: each call
acts in the token's namespace (``current_caller``), and only tokens with the cypher grant see
``cypher_read``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import AwareDatetime, Field, ValidationError

from graphbrain import __version__, heap
from graphbrain.admin import NotFoundError
from graphbrain.brain import Brain
from graphbrain.contracts import MAX_MESSAGE_CHARS, Mode, TurnEvents, safe_text
from graphbrain.errors import ConfigError, GraphbrainError, InputError, ReadOnlyViolation, format_validation_errors
from graphbrain.interfaces.serving import LazyBrain, is_loopback

__all__ = ["Caller", "create_server", "current_caller", "main", "run"]

INSTRUCTIONS = (
    "graphbrain is your long-term memory. After each turn call commit_turn with the turn's messages so "
    "decisions, preferences, tasks and facts are remembered. Before answering, call compose_context for a "
    "ready context package, or search_memory for targeted evidence. get_entity explores what is known "
    "about a name; list_memory browses stored items; forget removes what the user asks to forget."
)

# Rows an agent gets from cypher_read at most: a table bigger than this is not read, it is skimmed.
CYPHER_ROW_CAP = 200
Scope = Literal["memory", "turns", "resources"]

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
_DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True)


def _compact(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str)


def _tool_error(e: GraphbrainError) -> ToolError:
    """An error text the agent can act on: the kind, the message and each bad field."""
    text = f"{type(e).__name__}: {e}"
    if isinstance(e, InputError) and e.errors:
        text += " | fields: " + "; ".join(f"{f.get('field')}: {f.get('reason')}" for f in e.errors)
    return ToolError(safe_text(text, 4000))  # the message may quote a lone surrogate the caller sent


@dataclass(frozen=True)
class Caller:
    """Who calls a tool when the tools are served behind ``graphbrain serve``'s tokens: the namespace the
    request acts in and what the token may do."""

    namespace: str
    admin: bool = False
    cypher: bool = False


# Set by the HTTP service for each /mcp request (the SDK runs a tool in the sender's context).
current_caller: ContextVar[Caller | None] = ContextVar("graphbrain_mcp_caller", default=None)


class _Server(MCPServer):
    """MCPServer whose argument errors read like graphbrain's own: field and reason, no pydantic text."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as e:
            if not isinstance(e.__cause__, ValidationError):
                raise
            _, errors = format_validation_errors(e.__cause__)
            raise _tool_error(InputError(f"invalid arguments for {name}", errors)) from e.__cause__


def create_server(
    brain: Brain | Callable[[], Brain],
    *,
    namespace: str | None = None,
    allow_paths: bool = False,
    allow_cypher: bool = False,
) -> MCPServer:
    """An MCPServer whose tools act on ``brain`` in ``namespace`` (default: the Brain's own; behind the
    HTTP service, the caller's).

    ``brain`` is a Brain or a callable returning one (called per tool call: pass a cached one, such as
    ``LazyBrain(factory).get``).

    ``allow_paths`` lets ``ingest`` read local files; off by default, so a prompt-injected agent cannot
    copy the user's files into memory (behind the HTTP service: admin tokens only). ``allow_cypher``
    offers ``cypher_read``, which can read every namespace: for a server started by an admin only.
    """
    get_brain: Callable[[], Brain] = (lambda: brain) if isinstance(brain, Brain) else brain
    server = _Server(name="graphbrain", version=__version__, instructions=INSTRUCTIONS)

    def call(fn: Callable[[Brain, str], Any]) -> Any:
        try:
            b = get_brain()  # inside: a Brain that cannot start is an error the agent should read
            caller = current_caller.get()
            return fn(b, caller.namespace if caller is not None else (namespace or b.namespace))
        except GraphbrainError as e:
            raise _tool_error(e) from e

    def paths_allowed() -> bool:
        caller = current_caller.get()
        return caller.admin if caller is not None else allow_paths

    @server.tool(annotations=_WRITE, structured_output=False)
    def commit_turn(
        session_id: Annotated[str, Field(min_length=1, max_length=256, description="The conversation's id")],
        turn_events: Annotated[TurnEvents, Field(description="The turn: messages (user, assistant, tool), refs")],
        explain: Annotated[bool, Field(description="Include retention and conflict decisions")] = False,
    ) -> str:
        """Record a finished turn (the user's message, your reply, tool calls and results) as memory.

        Call once after every turn. graphbrain stores the turn verbatim and extracts decisions,
        preferences, goals, tasks and entities from it, superseding what they replace.
        Returns JSON: status (committed / duplicate / pending), commit_id, turn_id, seq,
        memory_written [{type, key, action, confidence}], summary, warnings (and explain when asked).
        """

        def go(b: Brain, ns: str) -> str:
            events = turn_events.model_copy(update={"namespace": ns})
            result = b.commit_turn(session_id, events)
            out = result.model_dump(mode="json", exclude=None if explain else {"explain"})
            out["memory_written"] = [
                {k: w[k] for k in ("type", "key", "action", "confidence", "id")} for w in out["memory_written"]
            ]
            return _compact(out)

        return str(call(go))

    @server.tool(annotations=_WRITE, structured_output=False)
    def compose_context(
        session_id: Annotated[str, Field(min_length=1, max_length=256)],
        user_message: Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE_CHARS)],
        agent_state: Annotated[dict[str, Any] | None, Field(description="e.g. {current_task, tool_state}")] = None,
        format: Annotated[
            Literal["json", "text"], Field(description="json: the ContextPackage; text: one prompt")
        ] = "json",
        now: Annotated[
            AwareDatetime | None,
            Field(
                description="when the question is asked, ISO 8601 with a zone (default: now): what 'last week' means"
            ),
        ] = None,
    ) -> str:
        """Build the context for answering user_message: profile, preferences, goals, active tasks,
        decisions, the working summary, recent turns and cited evidence ([E1], [E2] ...), within the
        token budget.

        Call before answering a message that may depend on earlier conversations or documents.
        Returns the ContextPackage as JSON (context_id, system_blocks, working_summary, recent_turns,
        evidence with scores; debug left out), or with format="text" one prompt with the slots in order.
        """

        def go(b: Brain, ns: str) -> str:
            pkg = b.compose_context(session_id, user_message, agent_state, namespace=ns, now=now)
            if format == "text":
                return f"context_id: {pkg.context_id}\n\n{pkg.to_text()}"
            return _compact(pkg.model_dump(mode="json", exclude={"debug"}))

        return str(call(go))

    @server.tool(annotations=_READ, structured_output=False)
    def search_memory(
        text: Annotated[str, Field(min_length=1, max_length=4000, description="What to look for")],
        modes: Annotated[
            list[Mode] | None,
            Field(
                min_length=1,
                max_length=5,
                description="exact (ids, names, quoted strings), semantic, hybrid (the default), "
                "relational (via entities), associative (related topics); one query per mode",
            ),
        ] = None,
        types: Annotated[
            list[str] | None,
            Field(description="Memory types: profile preferences goals tasks decisions entities events cases patterns"),
        ] = None,
        scope: Annotated[list[Scope] | None, Field(description="memory, turns, resources; default all")] = None,
        top_k: Annotated[int, Field(ge=1, le=100)] = 10,
    ) -> str:
        """Search memory, past turns and the resource library for evidence about text.

        Call when you need specific facts (a decision, a preference, a document passage) rather than a
        whole context package. Returns JSON: evidences [{id, kind, title, source_uri, snippet, score,
        mode, ref}] best first, plan_id, warnings.
        """
        plan: dict[str, Any] = {
            "version": "0.1",
            "purpose": "qa",
            "queries": [{"text": text, "mode": m.value} for m in modes or [Mode.hybrid]],
            "budget": {"top_k": top_k},
            "global_filters": {k: v for k, v in {"types": types, "scope": scope}.items() if v},
        }

        def go(b: Brain, ns: str) -> str:
            pack = b.retrieve(plan, namespace=ns)
            evidences = [
                {
                    "id": e.id,
                    "kind": e.kind,
                    "title": e.title,
                    "source_uri": e.source_uri,
                    "snippet": e.snippet,
                    "score": round(e.score, 4),
                    "mode": e.provenance.mode.value,
                    "ref": e.ref,
                }
                for e in pack.evidences
            ]
            return _compact({"evidences": evidences, "plan_id": pack.plan_id, "warnings": pack.warnings})

        return str(call(go))

    @server.tool(annotations=_READ, structured_output=False)
    def get_entity(name: Annotated[str, Field(min_length=1, max_length=512)]) -> str:
        """Everything known about an entity (a person, project, library, file...): its aliases, related
        entities, the tasks and decisions that mention it, the turns and documents it appears in, and a
        dated timeline.

        Call when the user names something and you need its history. Returns JSON (entity, related,
        tasks, decisions, turns, documents, timeline); an unknown name returns {"found": false}.
        """

        def go(b: Brain, ns: str) -> str:
            try:
                return _compact({"found": True, **b.entity(name, namespace=ns)})
            except NotFoundError:
                return _compact({"found": False, "name": name})

        return str(call(go))

    @server.tool(annotations=_READ, structured_output=False)
    def list_memory(
        types: Annotated[list[str] | None, Field(description='e.g. ["decisions", "tasks"]; default all')] = None,
        status: Annotated[Literal["active", "superseded", "retracted", "all"], Field()] = "active",
        key_prefix: Annotated[str | None, Field(max_length=512, description='e.g. "task:"')] = None,
        session_id: Annotated[str | None, Field(max_length=256)] = None,
        limit: Annotated[int, Field(ge=1, le=200)] = 50,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> str:
        """Browse stored memory items, newest first, filtered by type, status, key prefix or session.

        Call to review what is remembered (e.g. all open tasks) or to find an item's id before forget.
        Returns JSON: items [{id, type, key, text, status, confidence, ...}].
        """
        items = call(
            lambda b, ns: b.list_memory(
                types=types,
                status=status,
                key_prefix=key_prefix,
                session_id=session_id,
                limit=limit,
                offset=offset,
                namespace=ns,
            )
        )
        return _compact({"items": items, "count": len(items)})

    @server.tool(annotations=_DESTRUCTIVE, structured_output=False)
    def forget(
        item_id: Annotated[str | None, Field(max_length=256, description="A memory item's id")] = None,
        key: Annotated[str | None, Field(max_length=512, description="A memory key, e.g. pref:editor.indent")] = None,
        session_id: Annotated[str | None, Field(max_length=256, description="Forget a whole session")] = None,
    ) -> str:
        """Permanently delete a memory item (by id or key) or a whole session with its turns.

        Call only when the user asks to forget something. Give exactly one of item_id, key, session_id.
        Returns JSON with what was removed.
        """
        given = [v for v in (item_id, key, session_id) if v]
        if len(given) != 1:
            raise ToolError("give exactly one of item_id, key and session_id")
        return _compact(call(lambda b, ns: b.forget(item_id=item_id, key=key, session_id=session_id, namespace=ns)))

    @server.tool(annotations=_WRITE, structured_output=False)
    def ingest(
        text: Annotated[str | None, Field(max_length=MAX_MESSAGE_CHARS * 5, description="Raw text or Markdown")] = None,
        url: Annotated[str | None, Field(max_length=4096, pattern=r"^https?://", description="A web page")] = None,
        path: Annotated[str | None, Field(max_length=4096, description="A local file (if the server allows)")] = None,
        title: Annotated[str | None, Field(max_length=1024)] = None,
        tags: Annotated[list[str] | None, Field(max_length=64)] = None,
    ) -> str:
        """Add a document to the resource library so later searches and context packages can cite it.

        Call when the user shares notes, a spec or a link worth keeping. Give exactly one of text, url,
        path. Re-ingesting the same source updates it. Returns JSON: document_id, status, sections, chunks.
        """
        given = [v for v in (text, url, path) if v]
        if len(given) != 1:
            raise ToolError("give exactly one of text, url and path")
        if path and not paths_allowed():
            how = "an admin token" if current_caller.get() is not None else "start it with --allow-paths"
            raise ToolError(f"this server does not ingest local paths ({how})")
        source: Any = {"text": text, "title": title} if text else (url or path)
        options: dict[str, Any] = {"title": title, "tags": tags or []}
        if text:
            options["source_type"] = "manual"

        def go(b: Brain, ns: str) -> str:
            res = b.ingest(source, namespace=ns, **options)
            docs = [
                {k: d[k] for k in ("document_id", "status", "title", "sections", "chunks", "error")}
                for d in res.model_dump(mode="json")["documents"]
            ]
            return _compact({"document_id": res.document_id, "documents": docs})

        return str(call(go))

    if not allow_cypher:
        return server

    @server.tool(annotations=_READ, structured_output=False)
    def cypher_read(
        query: Annotated[str, Field(min_length=1, max_length=20_000, description="A read-only Cypher query")],
        params: Annotated[dict[str, Any] | None, Field(description="Query parameters ($name)")] = None,
    ) -> str:
        """Run a read-only Cypher query on the whole memory graph (labels: Memory, Entity, Session, Turn,
        Message, Document, Section, Chunk). It can read EVERY namespace in the database: each node has a
        namespace property and $namespace is set to this server's, so filter on it; nothing else does.

        Call for questions the other tools cannot answer (counts, paths). Writes are refused.
        Returns JSON: columns, rows (at most 200), truncated.
        """

        def go(b: Brain, ns: str) -> Any:
            try:
                return b.cypher(query, params or {}, write=False, row_cap=CYPHER_ROW_CAP, namespace=ns)
            except ReadOnlyViolation as e:
                raise ReadOnlyViolation(f"{e}; cypher_read only reads, and no MCP tool writes Cypher") from e

        result = call(go)
        return _compact({"columns": result.columns, "rows": result.rows, "truncated": result.truncated})

    return server


def run(
    config_path: str | None = None,
    namespace: str | None = None,
    transport: Literal["stdio", "http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = 8766,
    *,
    allow_paths: bool = False,
    allow_cypher: bool = False,
) -> None:
    """Serve the tools over stdio (for a local agent) or streamable HTTP (loopback only)."""
    if transport == "http" and not is_loopback(host):
        raise ConfigError(
            f"the MCP HTTP transport has no auth of its own: bind it to loopback, not {host!r} "
            "(graphbrain serve offers the same tools at /mcp behind its bearer tokens)"
        )
    overrides = {"namespace": namespace} if namespace else None

    def make_brain() -> Brain:
        brain = Brain.from_config(config_path, overrides=overrides)
        brain.warm_up()  # the models load with the brain, and the server's heap is frozen after them
        return brain

    brain = LazyBrain(make_brain)
    server = create_server(brain.get, namespace=namespace, allow_paths=allow_paths, allow_cypher=allow_cypher)
    try:
        if transport == "stdio":
            server.run("stdio")
        else:
            server.run("streamable-http", host=host, port=port)
    finally:
        brain.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m graphbrain.interfaces.mcp_server", description=__doc__)
    parser.add_argument("--config", default=None, help="brain.yml (default: $GRAPHBRAIN_CONFIG or ./brain.yml)")
    parser.add_argument("--namespace", default=None, help="the namespace every tool acts in")
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--allow-paths", action="store_true", help="let the ingest tool read local files")
    parser.add_argument(
        "--allow-cypher", action="store_true", help="offer cypher_read, which can read every namespace (admins)"
    )
    args = parser.parse_args(argv)
    heap.own_process()  # ``python -m graphbrain.interfaces.mcp_server``: the process is the server's
    run(
        args.config,
        args.namespace,
        args.transport,
        args.host,
        args.port,
        allow_paths=args.allow_paths,
        allow_cypher=args.allow_cypher,
    )


if __name__ == "__main__":
    main()
