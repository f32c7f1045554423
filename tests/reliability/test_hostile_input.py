"""Bad input and Cypher injection, through every entry point, against the real Neo4j.

Hostile strings (quotes, backticks, Cypher that closes a map and deletes everything, ``$params``,
``{{placeholders}}``, Lucene syntax, bidi overrides, zero-width joiners, combining marks, homoglyphs,
surrogate-escape-like text and a real lone surrogate, emoji, CJK mixed with English, NUL, control
characters, just over the documented limits, one mebibyte) go into Brain.commit_turn (message content,
session_id, turn_id, namespace, message ids, tool call names/args/results, ref uri/title, explicit
item keys/values, metadata), compose_context (user_message, session_id, agent_state), retrieve
(query text in every mode, filters, hints, unknown fields), ingest (a temp file's text, title and
tags; raw text), the admin services (list / show / forget / entity / export / traces / remove by
id, key, name, namespace), every HTTP route, the MCP tools and the CLI.

Each call has two allowed outcomes: refused with a clear error naming the field (InputError, an HTTP
4xx whose body names it, a tool error or CLI message naming it; never a 5xx, a traceback or a raw
driver error), with the counts of nodes and relationships of ALL namespaces unchanged; or accepted,
with the text stored verbatim as a parameter. A second tenant, seeded first with the same entity
names, is read back unchanged at the end.

One world (two seeded tenants) is shared by the whole module; each test sweeps one entry point over
every string and reports every string that misbehaved at once.
"""

# Every lambda below is called at once, inside the loop that defines it (Sweep.call): B023 cannot bite.
# ruff: noqa: B023

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from mcp import Client

from graphbrain import Brain
from graphbrain.admin import NotFoundError
from graphbrain.config import load_config
from graphbrain.contracts import MAX_ID_CHARS, MAX_MESSAGE_CHARS, MAX_QUERY_CHARS
from graphbrain.errors import GraphbrainError, InputError
from graphbrain.interfaces.cli import main as cli_main
from graphbrain.interfaces.http import ServerSettings, TokenConfig, create_app
from graphbrain.interfaces.mcp_server import create_server
from graphbrain.store.neo4j_store import Neo4jStore

ROOT = Path(__file__).resolve().parents[2]
CONFIG = str(ROOT / "brain.yml")
DELETE_ALL = "'}) DETACH DELETE n //"
DELETE_ALL_BT = "`) MATCH (n) DETACH DELETE n //"
LONE_SURROGATE = "lone \ud800 surrogate"

HOSTILE: dict[str, str] = {
    "single_quote": "it's",
    "double_quote": 'say "hi"',
    "backtick": "`name`",
    "close_map_delete": DELETE_ALL,
    "backtick_delete": DELETE_ALL_BT,
    "param": "$ns $namespace",
    "placeholder": "{{dimension}}",
    "lucene_star": "*",
    "lucene_fuzzy": "neo4j~2",
    "lucene_ops": "AND OR NOT",
    "lucene_unclosed": '"unclosed',
    "backslash": "\\",
    "colon": "field:value",
    "lucene_mix": "+a -b (c) {d} [e TO f] ^g ?h /i/ && || !",
    "rtl_override": "\u202egnp.exe\u202c",
    "zero_width": "Neo\u200d4\u200cj\u2060\ufeff",
    "combining": "e\u0301\u0301\u0308 Z\u0335\u0327",
    "homoglyph": "Nео4ј Ｎｅｏ４ｊ",  # Cyrillic е о ј, fullwidth
    "surrogate_escape_text": "\\ud800\\udc00 %ED%A0%80",
    "lone_surrogate": LONE_SURROGATE,
    "emoji": "😀👩‍👩‍👧 🇨🇳",
    "cjk_mixed": "我们决定用 Neo4j 做 memory store，而不是 Postgres",
    "nul": "a\x00b",
    "control": "\x1b[31mred\x07",
    "newlines": "line\r\nbreak\ttab",
    "blank": "   ",
    "over_id_limit": "i" * (MAX_ID_CHARS + 1),
    "over_query_limit": "q " * (MAX_QUERY_CHARS // 2 + 1),
    "over_message_limit": "m" * (MAX_MESSAGE_CHARS + 1),
    "one_mebibyte": "M" * (1 << 20),
    "seeded_name": "Neo4j",
}
IDS = list(HOSTILE)
# What the MCP client and HTTP headers can carry at all: a lone surrogate cannot be put in a request.
ENCODABLE = {k: v for k, v in HOSTILE.items() if k != "lone_surrogate"}
# The CLI and the MCP tools are thin adapters over the same Brain calls: a representative subset.
ADAPTER_SUBSET = [
    "close_map_delete", "backtick_delete", "param", "lucene_mix", "rtl_override", "cjk_mixed", "nul",
    "control", "over_id_limit", "over_message_limit", "lone_surrogate", "seeded_name",
]  # fmt: skip

TOKEN_A = "tok-a-" + "a" * 32
TOKEN_CYPHER = "tok-c-" + "c" * 32
TOKEN_ADMIN = "tok-admin-" + "d" * 32
RAW_DRIVER = ("neo4j.exceptions", "Neo.ClientError", "Neo.DatabaseError", "Traceback", "CypherSyntaxError")


# ================================================================================================ world
@dataclass
class World:
    a: Brain  # the tenant every hostile call acts in
    b: Brain  # the other tenant: same entity names, seeded first, never touched
    tmp: Path
    b_snapshot: list[Any] = field(default_factory=list)
    namespaces_before: set[str] = field(default_factory=set)
    n: int = 0

    def next(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def counts(self) -> tuple[int, int]:
        """Nodes and relationships of every namespace (and of none)."""
        rows = self.a.store.cypher(
            "CALL () { MATCH (n) RETURN count(n) AS nodes } CALL () { MATCH ()-[r]->() RETURN count(r) AS rels } "
            "RETURN nodes, rels"
        ).rows
        return int(rows[0]["nodes"]), int(rows[0]["rels"])

    def namespaces(self) -> set[str]:
        rows = self.a.store.cypher(
            "MATCH (n) WHERE n.namespace IS NOT NULL RETURN DISTINCT n.namespace AS ns", row_cap=100_000
        ).rows
        return {r["ns"] for r in rows}

    def seed_intact(self) -> bool:
        """Tenant B exactly as seeded, and tenant A's seed (session s1, the Ops document) still there."""
        seeded = self.a.store.cypher(
            "MATCH (t:Turn {namespace: $ns, session_id: 's1'}) WHERE t.turn_id IN ['t1', 't2'] "
            "WITH count(t) AS turns MATCH (d:Document {namespace: $ns, title: 'Ops notes'}) "
            "RETURN turns, count(d) AS docs",
            {"ns": self.a.namespace},
        ).rows
        return _snapshot(self.b) == self.b_snapshot and seeded == [{"turns": 2, "docs": 1}]

    def one(self, query: str, **params: Any) -> Any:
        rows = self.a.store.cypher(query, {"ns": self.a.namespace, **params}).rows
        assert rows, (query, params)
        return rows[0]["v"]


def _turn(turn_id: str, user: str) -> dict[str, Any]:
    return {"turn_id": turn_id, "messages": [{"message_id": f"{turn_id}-u", "role": "user", "content": user}]}


def _seed(brain: Brain) -> None:
    brain.commit_turn("s1", _turn("t1", "We decided to use Neo4j for the memory store."))
    brain.commit_turn("s1", _turn("t2", "TODO: benchmark Neo4j vector search this week."))
    brain.ingest({"text": "# Ops\n\nNeo4j backups run nightly.", "title": "Ops notes"})


def _snapshot(brain: Brain) -> list[Any]:
    rows = brain.store.cypher(
        "MATCH (n {namespace: $ns}) OPTIONAL MATCH (n)-[r]-() "
        "WITH n, count(r) AS degree ORDER BY n.id "
        "RETURN labels(n) AS labels, n.id AS id, n.key AS key, n.content AS content, n.text AS text, "
        "n.status AS status, degree",
        {"ns": brain.namespace},
        row_cap=100_000,
    ).rows
    return [json.dumps(r, sort_keys=True, default=str) for r in rows]


@pytest.fixture(scope="module")
def world(neo4j_uri: str, schema_ready: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("hostile")
    suffix = uuid.uuid4().hex[:8]

    def make(ns: str) -> Brain:
        cfg = load_config(
            ROOT / "brain.yml",
            overrides={"storage.neo4j.uri": neo4j_uri, "namespace": ns, "storage.data_dir": str(tmp / ns)},
        )
        return Brain(cfg, Neo4jStore(cfg.storage.neo4j))

    b = make(f"hostile-b-{suffix}")
    a = make(f"hostile-a-{suffix}")
    _seed(b)  # the other tenant first, with the very same names
    _seed(a)
    w = World(a=a, b=b, tmp=tmp, b_snapshot=_snapshot(b))
    w.namespaces_before = w.namespaces()
    try:
        yield w
    finally:
        # Leave no mebibyte strings behind for the next module's clean-graph step.
        for ns in sorted(w.namespaces() - w.namespaces_before | {a.namespace, b.namespace}):
            a.forget(whole_namespace=True, namespace=ns)
        a.close()
        b.close()


# ============================================================================================ outcomes
@dataclass
class Sweep:
    """Every misbehaviour of one entry point, reported together."""

    world: World
    problems: list[str] = field(default_factory=list)

    def call(self, label: str, fields: tuple[str, ...], fn: Callable[[], Any]) -> tuple[bool, Any]:
        """(accepted, value). A refusal must be an InputError naming one of ``fields`` and change nothing."""
        before = self.world.counts()
        try:
            return True, fn()
        except NotFoundError as e:  # looked up as given and not there: an answer, not a failure
            self.unchanged(label, before)
            return True, e
        except InputError as e:
            text = str(e) + " " + json.dumps(e.errors, default=str)
            if not any(f in text for f in fields):
                self.problems.append(f"{label}: refusal names none of {fields}: {str(e)[:200]}")
            self.unchanged(label, before)
            return False, e
        except GraphbrainError as e:
            self.problems.append(f"{label}: {type(e).__name__} (not an input error): {str(e)[:200]}")
        except Exception as e:  # a raw driver error, a crash
            self.problems.append(f"{label}: raw {type(e).__name__}: {str(e)[:200]}")
        return False, None

    def unchanged(self, label: str, before: tuple[int, int]) -> None:
        after = self.world.counts()
        if after != before:
            self.problems.append(f"{label}: refused but the graph changed {before} -> {after}")

    def equal(self, label: str, got: Any, want: Any) -> None:
        if got != want:
            self.problems.append(f"{label}: stored {str(got)[:80]!r}, sent {str(want)[:80]!r}")

    def done(self) -> None:
        assert not self.problems, "\n".join(self.problems)


# ========================================================================================= commit_turn
def _free_text_turn(turn_id: str, s: str, parts: set[str]) -> dict[str, Any]:
    """A turn with ``s`` in the free-text fields named in ``parts`` and harmless text elsewhere."""

    def pick(part: str, default: str) -> str:
        return s if part in parts else default

    return {
        "turn_id": turn_id,
        "metadata": {"project": pick("metadata", "p"), "note": [pick("metadata", "n")]},
        "messages": [
            {"message_id": "u", "role": "user", "content": pick("content", "We decided to keep Neo4j.")},
            {
                "message_id": "a",
                "role": "assistant",
                "content": pick("content", "ok"),
                "tool_calls": [
                    {"id": "c1", "name": pick("tool_name", "search"), "args": {"q": pick("tool_args", "x")}}
                ],
            },
            {"message_id": "t", "role": "tool", "tool_call_id": "c1", "content": "r", "result": pick("result", "r")},
        ],
        "refs": [{"type": "url", "uri": "https://example.com/doc", "title": pick("ref_title", "Doc")}],
        "items": [{"type": "decisions", "key": "decision:hostile:probe", "value": {"choice": pick("item_value", "v")}}],
    }


FREE_TEXT = {
    "content": ("content",),
    "tool_name": ("name", "tool_calls"),
    "tool_args": ("args",),
    "result": ("result",),
    "ref_title": ("title",),
    "item_value": ("value", "items"),
    "metadata": ("metadata",),
}


def _check_free_text(sw: Sweep, label: str, turn_id: str, s: str, parts: set[str]) -> None:
    w, tid = sw.world, turn_id
    if "content" in parts:
        got = w.one("MATCH (m:Message {namespace: $ns, turn_id: $t, message_id: 'u'}) RETURN m.content AS v", t=tid)
        sw.equal(f"{label} content", got, s)
    if "tool_name" in parts or "tool_args" in parts:
        got = w.one(
            "MATCH (c:ToolCall {namespace: $ns, turn_id: $t}) RETURN {name: c.name, args: c.args_json} AS v", t=tid
        )
        if "tool_name" in parts:
            sw.equal(f"{label} tool name", got["name"], s)
        if "tool_args" in parts:
            sw.equal(f"{label} tool args", json.loads(got["args"])["q"], s)
    if "result" in parts:
        got = w.one("MATCH (m:Message {namespace: $ns, turn_id: $t, message_id: 't'}) RETURN m.result_json AS v", t=tid)
        sw.equal(f"{label} tool result", json.loads(got), s)
    if "ref_title" in parts:
        got = w.one("MATCH (:Turn {namespace: $ns, turn_id: $t})-[:REFERENCES]->(r:Ref) RETURN r.title AS v", t=tid)
        sw.equal(f"{label} ref title", got, s)
    if "metadata" in parts:
        got = w.one("MATCH (t:Turn {namespace: $ns, turn_id: $t}) RETURN t.metadata_json AS v", t=tid)
        sw.equal(f"{label} metadata", json.loads(got)["project"], s)
    if "item_value" in parts:
        got = w.one("MATCH (t:Turn {namespace: $ns, turn_id: $t}) RETURN t.items_json AS v", t=tid)
        sw.equal(f"{label} item value", json.loads(got)[0]["value"]["choice"], s)


@pytest.mark.parametrize("name", IDS)
def test_commit_turn_free_text(world: World, name: str) -> None:
    """Every free-text field at once; when refused, field by field (a refusal is cheap: no database)."""
    s, sw = HOSTILE[name], Sweep(world)
    everything = set(FREE_TEXT)
    tid = world.next("ft")
    fields = tuple(f for part in everything for f in FREE_TEXT[part])
    ok, _ = sw.call(f"{name} all", fields, lambda: world.a.commit_turn("s-free", _free_text_turn(tid, s, everything)))
    if ok:
        _check_free_text(sw, name, tid, s, everything)
    else:
        for part in FREE_TEXT:
            tid = world.next("ft")
            ok, _ = sw.call(
                f"{name} {part}",
                FREE_TEXT[part],
                lambda: world.a.commit_turn("s-free", _free_text_turn(tid, s, {part})),
            )
            if ok:
                _check_free_text(sw, f"{name} {part}", tid, s, {part})
    sw.done()


def test_commit_turn_identifiers(world: World) -> None:
    """session_id, turn_id, message_id, tool call id, item key, ref uri and namespace, one at a time."""
    sw = Sweep(world)
    a = world.a
    for name, s in HOSTILE.items():
        ok, res = sw.call(
            f"{name} session_id", ("session_id",), lambda: a.commit_turn(s, _turn(world.next("sid"), "hi"))
        )
        if ok:
            sw.equal(f"{name} session_id", res.session_id, s)
            got = world.one("MATCH (x:Session {namespace: $ns, session_id: $s}) RETURN x.session_id AS v", s=s)
            sw.equal(f"{name} session_id stored", got, s)
        ok, res = sw.call(f"{name} turn_id", ("turn_id",), lambda: a.commit_turn("s-id", _turn(s, "hi")))
        if ok:
            got = world.one(
                "MATCH (t:Turn {namespace: $ns, session_id: 's-id', turn_id: $t}) RETURN t.turn_id AS v", t=s
            )
            sw.equal(f"{name} turn_id", got, s)
        tid = world.next("mid")
        ev = {"turn_id": tid, "messages": [{"message_id": s, "role": "user", "content": "hi"}]}
        ok, _ = sw.call(f"{name} message_id", ("message_id",), lambda: a.commit_turn("s-id", ev))
        if ok:
            got = world.one("MATCH (m:Message {namespace: $ns, turn_id: $t}) RETURN m.message_id AS v", t=tid)
            sw.equal(f"{name} message_id", got, s)
        tid = world.next("call")
        ev = {
            "turn_id": tid,
            "messages": [{"role": "assistant", "content": "x", "tool_calls": [{"id": s, "name": "n"}]}],
        }
        ok, _ = sw.call(f"{name} tool call id", ("tool_calls", "id"), lambda: a.commit_turn("s-id", ev))
        if ok:
            got = world.one("MATCH (c:ToolCall {namespace: $ns, turn_id: $t}) RETURN c.call_id AS v", t=tid)
            sw.equal(f"{name} tool call id", got, s)
        tid = world.next("key")
        ev = {**_turn(tid, "hi"), "items": [{"type": "decisions", "key": "decision:" + s, "value": {"choice": "c"}}]}
        ok, res = sw.call(f"{name} item key", ("key", "items"), lambda: a.commit_turn("s-id", ev))
        if ok:
            written = [x.key for x in res.memory_written if x.type.value == "decisions"]
            if written:
                got = world.one(
                    "MATCH (m:Memory {namespace: $ns, id: $id}) RETURN m.key AS v", id=res.memory_written[0].id
                )
                sw.equal(f"{name} item key", got, "decision:" + s)
        ev = {**_turn(world.next("ref"), "hi"), "refs": [{"type": "artifact", "uri": s}]}
        sw.call(f"{name} ref uri", ("uri", "refs"), lambda: a.commit_turn("s-id", ev))
        ev = {**_turn(world.next("ref"), "hi"), "refs": [{"type": "file", "uri": s}]}
        sw.call(f"{name} file ref uri", ("uri", "refs"), lambda: a.commit_turn("s-id", ev))
        ev = {**_turn(world.next("ns"), "hi"), "namespace": s}
        ok, res = sw.call(f"{name} namespace", ("namespace",), lambda: a.commit_turn("s-id", ev))
        if ok:
            sw.equal(f"{name} namespace", res.namespace, s)
    sw.done()


# ===================================================================================== compose_context
@pytest.mark.parametrize("name", IDS)
def test_compose_context(world: World, name: str) -> None:
    s, sw, a = HOSTILE[name], Sweep(world), world.a
    state = {"current_task": s, "tool_state": {s[:100]: [s]}}
    ok, pkg = sw.call(
        f"{name} all", ("user_message", "session_id", "agent_state"), lambda: a.compose_context(s, s, state)
    )
    if ok:
        sw.equal(f"{name} user_message", pkg.user_message.content, s)
        sw.equal(f"{name} session_id", pkg.session_id, s)
        sw.done()
        return
    for label, fields, fn in (
        ("user_message", ("user_message",), lambda: a.compose_context("s1", s)),
        ("session_id", ("session_id",), lambda: a.compose_context(s, "what did we decide?")),
        ("agent_state", ("agent_state",), lambda: a.compose_context("s1", "continue", state)),
    ):
        ok, pkg = sw.call(f"{name} {label}", fields, fn)
        if ok and label == "user_message":
            sw.equal(f"{name} user_message", pkg.user_message.content, s)
    sw.done()


# ============================================================================================= retrieve
MODES = ("exact", "semantic", "hybrid", "relational", "associative")


@pytest.mark.parametrize("name", IDS)
def test_retrieve(world: World, name: str) -> None:
    s, sw, a = HOSTILE[name], Sweep(world), world.a
    queries = [{"text": s, "mode": m, "hints": {"entities": [s], "min_similarity": 0.1, s[:50]: s}} for m in MODES]
    filters = {
        "tag_ids": [s],
        "session_ids": [s],
        "language": [s],
        "source_uri_prefix": [s],
        "document_ids": [s],
        "scope": ["memory", "turns", "resources"],
    }
    plan = {"version": "0.1", "request_id": s, "queries": queries, "global_filters": filters, "unknown": s}
    ok, pack = sw.call(
        f"{name} all", ("queries", "request_id", "global_filters", "hints", "plan"), lambda: a.retrieve(plan)
    )
    if ok:
        sw.equal(f"{name} echoed query", pack.plan["queries"][0]["text"], s)
        sw.equal(f"{name} echoed request_id", pack.request_id, s)
    for label, fields, p in (
        ("text", ("queries",), {"version": "0.1", "queries": [{"text": s, "mode": m} for m in MODES]}),
        ("filters", ("global_filters",), {"version": "0.1", "queries": [{"text": "Neo4j"}], "global_filters": filters}),
        ("hints", ("hints",), {"version": "0.1", "queries": [{**q, "text": "Neo4j"} for q in queries]}),
    ):
        if not ok:
            sw.call(f"{name} {label}", fields, lambda p=p: a.retrieve(p))
    sw.done()


# =============================================================================================== ingest
@pytest.mark.parametrize("name", IDS)
def test_ingest(world: World, name: str) -> None:
    s, sw, a = HOSTILE[name], Sweep(world), world.a
    sw.call(f"{name} text", ("text", "title", "source"), lambda: a.ingest({"text": s, "title": s}))
    sw.call(f"{name} path", ("source",), lambda: a.ingest(s))
    sw.call(f"{name} remove", ("document",), lambda: a.remove_document(s))
    path = world.tmp / f"doc-{name}.md"
    path.write_bytes(f"# Heading\n\n{s}\n\nNeo4j notes.\n".encode("utf-8", "surrogatepass"))  # bad UTF-8 too
    ok, res = sw.call(f"{name} file", ("title", "tags", "source"), lambda: a.ingest(str(path), title=s, tags=[s[:200]]))
    if ok:
        doc = res.documents[0]
        if doc.status != "failed":
            got = world.one("MATCH (d:Document {namespace: $ns, id: $id}) RETURN d.title AS v", id=doc.document_id)
            sw.equal(f"{name} title", got, s.strip() or "Heading")
    sw.done()


# ================================================================================================ admin
def test_admin_services(world: World) -> None:
    sw, a = Sweep(world), world.a
    for name, s in HOSTILE.items():
        for label, fields, fn in (
            ("list key_prefix", ("key_prefix",), lambda: a.list_memory(key_prefix=s)),
            ("list session", ("session_id",), lambda: a.list_memory(session_id=s, status="all")),
            ("list types", ("types",), lambda: a.list_memory(types=[s])),
            ("list status", ("status",), lambda: a.list_memory(status=s)),
            ("show", ("item",), lambda: a.show_memory(s)),
            ("entity", ("name",), lambda: a.entity(s)),
            ("commit trace", ("commit_id",), lambda: a.get_commit_trace(s)),
            ("context trace", ("context_id",), lambda: a.get_context_trace(s)),
            ("list namespace", ("namespace",), lambda: a.list_memory(namespace=s)),
            ("export namespace", ("namespace",), lambda: a.export("json", namespace=s)),
            (
                "retrieve namespace",
                ("namespace",),
                lambda: a.retrieve({"version": "0.1", "queries": [{"text": "x"}]}, namespace=s),
            ),
        ):
            sw.call(f"{name} {label}", fields, fn)
        # An earlier sweep may have made a session of that very name: forgetting it is right, but a forget
        # takes nothing it did not name (the other tenant, this tenant's seed), whatever the text says.
        for label, kw in (
            ("forget id", {"item_id": s}),
            ("forget key", {"key": s}),
            ("forget session", {"session_id": s}),
        ):
            before = world.counts()
            ok, out = sw.call(f"{name} {label}", tuple(kw), lambda kw=kw: a.forget(**kw))
            if ok and isinstance(out, dict) and not out["found"] and world.counts() != before:
                sw.problems.append(f"{name} {label}: found nothing yet deleted something: {out}")
            if not world.seed_intact():
                sw.problems.append(f"{name} {label}: deleted what it did not name: {out}")
    ok, graphml = sw.call("export graphml", (), lambda: a.export("graphml"))
    assert ok and isinstance(graphml, str) and "graphml" in graphml
    sw.done()


# ================================================================================================= HTTP
def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@pytest.fixture(scope="module")
def http(world: World) -> Iterator[TestClient]:
    ns = world.a.namespace
    settings = ServerSettings(
        tokens=[
            TokenConfig(name="a", token_sha256=_sha(TOKEN_A), namespaces=[ns]),
            TokenConfig(name="cypher", token_sha256=_sha(TOKEN_CYPHER), namespaces=[ns], cypher=True),
            TokenConfig(name="admin", token_sha256=_sha(TOKEN_ADMIN), namespaces=["*"], admin=True),
        ]
    )
    with TestClient(create_app(world.a, settings, environ={}), raise_server_exceptions=False) as c:
        yield c


def _auth(token: str = TOKEN_A, **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Content-Type": "application/json", **extra}


def _check_response(sw: Sweep, label: str, r: Any, before: tuple[int, int], fields: tuple[str, ...]) -> bool:
    """True when accepted (2xx). A refusal is a 4xx ErrorResponse naming a field (422), nothing written."""
    if r.status_code < 400:
        return True
    if r.status_code >= 500:
        sw.problems.append(f"{label}: HTTP {r.status_code}: {r.text[:200]}")
        return False
    body = r.json()
    if any(marker in r.text for marker in RAW_DRIVER):
        sw.problems.append(f"{label}: a raw driver error reached the caller: {r.text[:200]}")
    if r.status_code == 422 and not any(f in json.dumps(body["error"]) for f in fields):
        sw.problems.append(f"{label}: 422 names none of {fields}: {r.text[:200]}")
    sw.unchanged(label, before)
    return False


def _post(c: TestClient, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
    # ensure_ascii: a lone surrogate travels as the JSON escape a real client would send
    return c.post(path, content=json.dumps(body, ensure_ascii=True).encode(), headers=headers or _auth())


@pytest.mark.parametrize("name", IDS)
def test_http_routes(world: World, http: TestClient, name: str) -> None:
    s, sw = HOSTILE[name], Sweep(world)
    q = quote(s[:600].encode("utf-8", "surrogatepass"), safe="")

    def run(label: str, fields: tuple[str, ...], send: Callable[[], Any]) -> Any:
        before = world.counts()
        r = send()
        return r if _check_response(sw, f"{name} {label}", r, before, fields) else None

    tid = world.next("http")
    events = _free_text_turn(tid, s, set(FREE_TEXT))
    r = run(
        "commit",
        ("turn_events",),
        lambda: _post(http, "/v1/commit_turn", {"session_id": "s-http", "turn_events": events}),
    )
    if r is not None:
        _check_free_text(sw, f"{name} http", tid, s, set(FREE_TEXT))
    run(
        "commit session",
        ("session_id",),
        lambda: _post(http, "/v1/commit_turn", {"session_id": s, "turn_events": _turn(world.next("h"), "hi")}),
    )
    run(
        "commit namespace",
        ("namespace",),
        lambda: _post(
            http,
            "/v1/commit_turn",
            {"session_id": "s", "turn_events": {**_turn(world.next("h"), "hi"), "namespace": s}},
        ),
    )
    r = run(
        "compose",
        ("user_message", "agent_state", "session_id"),
        lambda: _post(http, "/v1/compose_context", {"session_id": "s1", "user_message": s, "agent_state": {"k": s}}),
    )
    if r is not None:
        sw.equal(f"{name} http compose", r.json()["user_message"]["content"], s)
    plan = {"version": "0.1", "queries": [{"text": s, "mode": m} for m in MODES], "global_filters": {"tag_ids": [s]}}
    for path in ("/v1/retrieve", "/retrieve"):
        run(f"retrieve {path}", ("queries", "global_filters"), lambda path=path: _post(http, path, plan))
    if len(s) <= 10_000:  # a giant single word is the known slow ingest (test_ingest marks it)
        run(
            "ingest text",
            ("text", "title", "tags"),
            lambda: _post(http, "/v1/ingest", {"text": s, "title": s[:1024], "tags": [s[:256]]}),
        )
    run(
        "ingest path",
        ("path",),
        lambda: _post(
            http, "/v1/ingest", {"path": s[:4096]}, _auth(TOKEN_ADMIN, **{"X-Graphbrain-Namespace": world.a.namespace})
        ),
    )
    run("ingest url", ("url",), lambda: _post(http, "/v1/ingest", {"url": "http://" + s[:4000]}))
    run(
        "list",
        ("key_prefix", "session_id"),
        lambda: http.get(f"/v1/memory?key_prefix={q}&session_id={q}", headers=_auth()),
    )
    run("list types", ("types", "status"), lambda: http.get(f"/v1/memory?types={q}&status={q}", headers=_auth()))
    for label, path in (
        ("show", f"/v1/memory/{q}"), ("entity", f"/v1/entities/{q}"),
        ("commit trace", f"/v1/traces/commit/{q}"), ("context trace", f"/v1/traces/context/{q}"),
    ):  # fmt: skip
        run(label, ("item", "name", "commit_id", "context_id"), lambda path=path: http.get(path, headers=_auth()))
    for label, path in (("forget item", f"/v1/memory/{q}"), ("forget session", f"/v1/sessions/{q}")):
        run(label, ("item_id", "session_id"), lambda path=path: http.delete(path, headers=_auth()))
        if not world.seed_intact():
            sw.problems.append(f"{name} {label}: deleted what it did not name")
    r = run(
        "cypher param",
        ("params",),
        lambda: _post(http, "/v1/cypher", {"query": "RETURN $p AS p", "params": {"p": s}}, _auth(TOKEN_CYPHER)),
    )
    if r is not None:
        sw.equal(f"{name} cypher param", r.json()["rows"][0]["p"], s)
    # The caller's own Cypher: its syntax error (the server's words) is the useful answer, as a 400.
    before = world.counts()
    r = _post(http, "/v1/cypher", {"query": s[:100_000]}, _auth(TOKEN_CYPHER))
    if r.status_code >= 500 or (r.status_code >= 400 and "query" not in json.dumps(r.json()["error"])):
        sw.problems.append(f"{name} cypher text: HTTP {r.status_code}: {r.text[:200]}")
    sw.unchanged(f"{name} cypher text", before)
    if name in ENCODABLE and len(s) < 4000:
        header: dict[str, Any] = {**_auth(), "X-Graphbrain-Namespace": s.encode("utf-8")}  # the raw bytes
        run("namespace header", ("X-Graphbrain-Namespace",), lambda: http.get("/v1/memory", headers=header))
    sw.done()


# ================================================================================================== MCP
def _mcp_text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def test_mcp_tools(world: World) -> None:
    sw = Sweep(world)

    async def session() -> None:
        async with Client(create_server(world.a, allow_cypher=True), read_timeout_seconds=120) as client:
            for name in ADAPTER_SUBSET:
                if name not in ENCODABLE:
                    continue
                s = HOSTILE[name]
                tid = world.next("mcp")
                calls: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
                    ("commit_turn", {"session_id": "s-mcp", "turn_events": _free_text_turn(tid, s, set(FREE_TEXT))},
                     ("content", "name", "title", "turn_events")),
                    ("commit_turn", {"session_id": s, "turn_events": _turn(world.next("m"), "hi")}, ("session_id",)),
                    ("compose_context", {"session_id": "s1", "user_message": s, "agent_state": {"k": s}},
                     ("user_message", "agent_state")),
                    ("search_memory", {"text": s[:4000], "types": [s[:50]]}, ("text", "types", "queries")),
                    ("get_entity", {"name": s[:512]}, ("name",)),
                    ("list_memory", {"key_prefix": s[:512], "session_id": s[:256]}, ("key_prefix", "session_id")),
                    ("forget", {"key": s[:512]}, ("key",)),
                    ("ingest", {"text": s[: MAX_MESSAGE_CHARS * 5], "title": s[:1024]}, ("text", "title")),
                    ("cypher_read", {"query": "RETURN $p AS p", "params": {"p": s}}, ("params",)),
                ]  # fmt: skip
                for tool, args, fields in calls:
                    before = world.counts()
                    res = await client.call_tool(tool, args)
                    text = _mcp_text(res)
                    label = f"{name} mcp {tool}"
                    if res.is_error:
                        if any(m in text for m in RAW_DRIVER) or "Internal" in text:
                            sw.problems.append(f"{label}: {text[:200]}")
                        elif not any(f in text for f in fields):
                            sw.problems.append(f"{label}: error names none of {fields}: {text[:200]}")
                        sw.unchanged(label, before)
                    elif tool == "forget" and not world.seed_intact():
                        sw.problems.append(f"{label}: deleted what it did not name: {text[:200]}")
                    elif tool == "cypher_read":
                        sw.equal(label, json.loads(text)["rows"][0]["p"], s)
                    elif tool == "commit_turn" and "turn_events" in args:
                        _check_free_text(sw, label, tid, s, set(FREE_TEXT))

    anyio.run(session)
    sw.done()


# ================================================================================================== CLI
def test_cli_commands(world: World, neo4j_uri: str) -> None:
    sw, runner, ns = Sweep(world), CliRunner(), world.a.namespace
    env = {"NEO4J_URI": neo4j_uri, "GRAPHBRAIN_DATA_DIR": str(world.tmp / "cli")}

    def cli(label: str, fields: tuple[str, ...], *args: str, stdin: str | None = None, namespace: str = ns) -> Any:
        before = world.counts()
        argv = [*args, "--config", CONFIG, "--namespace", namespace, "--json"]
        r = runner.invoke(cli_main, argv, input=stdin, env=env)
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            sw.problems.append(f"{label}: raised {type(r.exception).__name__}: {str(r.exception)[:200]}")
            return None
        if r.exit_code == 0:
            return r
        err = r.stderr if r.stderr_bytes is not None else r.output
        if not err.startswith("error: ") or any(m in err for m in RAW_DRIVER):
            sw.problems.append(f"{label}: exit {r.exit_code}, not a clean error: {err[:200]}")
        elif fields and not any(f in err for f in fields):
            sw.problems.append(f"{label}: error names none of {fields}: {err[:200]}")
        sw.unchanged(label, before)
        return None

    for name in ADAPTER_SUBSET:
        s = HOSTILE[name]
        arg = s.replace("\x00", "\\0")  # an argv entry cannot hold NUL; the JSON paths carry the real one
        tid = world.next("cli")
        payload = json.dumps({"session_id": "s-cli", **_free_text_turn(tid, s, set(FREE_TEXT))}, ensure_ascii=True)
        if cli(f"{name} commit", ("content", "name", "title", "turn_events"), "commit", "-", stdin=payload):
            _check_free_text(sw, f"{name} cli", tid, s, set(FREE_TEXT))
        cli(
            f"{name} commit session",
            ("session_id",),
            "commit",
            "-",
            stdin=json.dumps({"session_id": s, **_turn(world.next("c"), "hi")}),
        )
        r = cli(f"{name} context", ("user_message", "session_id"), "context", "s1", arg)
        if r is not None:
            sw.equal(f"{name} cli context", json.loads(r.stdout)["user_message"]["content"], arg)
        plan = json.dumps({"version": "0.1", "queries": [{"text": s, "mode": m} for m in MODES]}, ensure_ascii=True)
        cli(f"{name} retrieve", ("queries",), "retrieve", "-", stdin=plan)
        cli(f"{name} ingest", ("text", "title", "source"), "ingest", "--manual", arg, "--title", arg)
        cli(f"{name} entity", ("name",), "entity", arg)
        cli(f"{name} memory list", ("key_prefix", "session_id"), "memory", "list", "--prefix", arg, "--session", arg)
        cli(f"{name} memory show", ("item",), "memory", "show", arg)
        cli(f"{name} memory forget", ("key",), "memory", "forget", "--key", arg, "--yes")
        if not world.seed_intact():
            sw.problems.append(f"{name} cli forget: deleted what it did not name")
        r = cli(f"{name} cypher param", ("param",), "cypher", "RETURN $p AS p", "--param", f"p={json.dumps(s)}")
        if r is not None:
            sw.equal(f"{name} cli cypher", json.loads(r.stdout)["rows"][0]["p"], s)
        cli(f"{name} --namespace", ("namespace",), "memory", "list", namespace=arg)
    sw.done()


# ========================================================================================= afterwards
def test_detach_delete_text_reads_back_verbatim(world: World, http: TestClient) -> None:
    """Text that is Cypher is stored as a parameter: it reads back equal, and the graph is all still there."""
    text = f"Note: {DELETE_ALL} and {DELETE_ALL_BT} MATCH (n) DETACH DELETE n; CALL db.clearQueryCaches()"
    before = world.counts()
    res = world.a.commit_turn("s-verbatim", _turn("v1", text))
    got = world.one("MATCH (m:Message {namespace: $ns, turn_id: 'v1'}) RETURN m.content AS v")
    assert got == text
    assert world.counts()[0] > before[0]  # added to, not emptied
    item = {"type": "decisions", "key": "decision:verbatim:cypher", "value": {"choice": text}}
    res = world.a.commit_turn("s-verbatim", {**_turn("v2", "ok"), "items": [item]})
    shown = world.a.show_memory("decision:verbatim:cypher")
    assert shown["item"]["value"] == {"choice": text}
    over_http = http.get(f"/v1/memory/{quote('decision:verbatim:cypher')}", headers=_auth()).json()
    assert over_http["item"]["value"] == {"choice": text}
    assert res.status == "committed"


def test_zz_other_tenant_intact(world: World) -> None:
    """Runs last: the second tenant, seeded first with the same names, is exactly as it was."""
    assert _snapshot(world.b) == world.b_snapshot
    assert world.b.entity("Neo4j")["entity"]["name"] == "Neo4j"
    assert [i["type"] for i in world.b.list_memory(types=["decisions"])] == ["decisions"]
    assert world.seed_intact()
    # A namespace a hostile call created is one the namespace pattern lets through, nothing else.
    allowed = {world.a.namespace, world.b.namespace} | {s for s in HOSTILE.values() if s.isascii()}
    assert world.namespaces() - world.namespaces_before <= allowed
