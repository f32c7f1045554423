"""Every CLI command through click's CliRunner, against the real Neo4j (NEO4J_URI and a namespace)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import networkx as nx
import pytest
import yaml
from admin_world import S1_WORD, build_world, fulltext_hits, one, turn
from click.testing import CliRunner, Result

from graphbrain import Brain
from graphbrain.interfaces.cli import main
from graphbrain.interfaces.cli.inputs import parse_param

ROOT = Path(__file__).resolve().parents[2]
CONFIG = str(ROOT / "brain.yml")

Cli = Callable[..., Result]


@pytest.fixture()
def cli(brain: Brain, request: pytest.FixtureRequest, tmp_path: Path) -> Cli:
    """Run ``graphbrain <args> --config brain.yml --namespace <the test's>``; JSON mode by default.

    On the embedded backend the CLI gets a copy of brain.yml pointing at the test's FalkorDB data dir
    (journal off, as for the test's own Brain); on Neo4j, brain.yml with $NEO4J_URI."""
    config, env = CONFIG, {}
    if brain.store.backend == "embedded":
        doc = yaml.safe_load(Path(CONFIG).read_text(encoding="utf-8")) or {}
        storage = doc.setdefault("storage", {})
        storage.update(backend="embedded", data_dir=str(brain.config.storage.data_dir), journal=False)
        config = str(tmp_path / "brain.yml")
        Path(config).write_text(yaml.safe_dump(doc), encoding="utf-8")
    else:
        env["NEO4J_URI"] = request.getfixturevalue("neo4j_uri")

    def run(*args: str, input: str | None = None, as_json: bool = True, ok: bool = True) -> Result:
        argv = [*args, "--config", config, "--namespace", brain.namespace] + (["--json"] if as_json else [])
        result = CliRunner().invoke(main, argv, input=input, env=env, catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return run


def data(result: Result) -> Any:
    return json.loads(result.stdout)


def all_commands() -> Iterator[list[str]]:
    def walk(group: click.Group, path: list[str]) -> Iterator[list[str]]:
        for name, cmd in sorted(group.commands.items()):
            yield [*path, name]
            if isinstance(cmd, click.Group):
                yield from walk(cmd, [*path, name])

    yield []
    yield from walk(main, [])


# ------------------------------------------------------------------------------------------------ help
@pytest.mark.parametrize("path", list(all_commands()), ids=lambda p: " ".join(p) or "graphbrain")
def test_help(path: list[str]) -> None:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output
    cmd: Any = main
    for name in path:
        cmd = cmd.commands[name]
    if not isinstance(cmd, click.Group):
        assert "--config" in result.output and "--namespace" in result.output and "--json" in result.output


def test_expected_commands() -> None:
    assert set(main.commands) >= {
        "init", "demo", "commit", "context", "retrieve", "ingest", "cypher", "entity", "memory",
        "export", "serve", "mcp", "doctor", "bench", "traces",
    }  # fmt: skip
    assert set(main.commands["memory"].commands) == {"list", "show", "forget"}  # type: ignore[attr-defined]
    assert set(main.commands["traces"].commands) == {"show", "prune"}  # type: ignore[attr-defined]
    assert "ingest" in main.commands["bench"].commands  # type: ignore[attr-defined]


def test_parse_param() -> None:
    assert parse_param("n=3") == ("n", 3)
    assert parse_param("flag=true") == ("flag", True)
    assert parse_param('xs=["a", 1]') == ("xs", ["a", 1])
    assert parse_param("name=Neo4j 5.26") == ("name", "Neo4j 5.26")
    assert parse_param("code=007") == ("code", "007")
    assert parse_param("q=a=b") == ("q", "a=b")


# ------------------------------------------------------------------------------------------------ commit
def test_commit_file_stdin_and_bad_json(cli: Cli, brain: Brain, tmp_path: Path) -> None:
    f = tmp_path / "turn.json"
    f.write_text(json.dumps({"session_id": "s1", **turn("t1", "We decided to use Neo4j for the memory store.")}))
    out = data(cli("commit", str(f)))
    assert out["status"] == "committed" and out["session_id"] == "s1" and out["seq"] == 1
    assert any(w["type"] == "decisions" for w in out["memory_written"])

    stdin = json.dumps(turn("t2", "TODO: write the schema."))
    out = data(cli("commit", "-", "--session", "s1", input=stdin))
    assert out["seq"] == 2

    session = {"session_id": "s9", "turns": [turn("a", "I prefer tabs."), turn("b", "TODO: ship it.")]}
    human = cli("commit", "-", input=json.dumps(session), as_json=False)
    assert "s9" in human.stdout and "memory written" in human.stdout
    assert one(brain, "MATCH (t:Turn {namespace: $ns}) RETURN count(t)", ns=brain.namespace) == 4

    bad = tmp_path / "bad.json"
    bad.write_text('{"session_id": "s1",\n  "messages": [}\n')
    res = cli("commit", str(bad), ok=False)
    assert res.exit_code == 1 and str(bad) in res.stderr and "line 2 column" in res.stderr
    res = cli("commit", "-", input=json.dumps(turn("t3", "hi")), ok=False)
    assert res.exit_code == 1 and "--session" in res.stderr
    res = cli("commit", "-", "--session", "s1", input=json.dumps({"turn_id": "x", "messages": []}), ok=False)
    assert res.exit_code == 1 and "turn_events.messages" in res.stderr
    res = cli("commit", str(tmp_path / "missing.json"), ok=False)
    assert res.exit_code == 1 and "no such file" in res.stderr


# ------------------------------------------------------------------------------------------------ memory
def test_memory_list_show_forget(cli: Cli, brain: Brain) -> None:
    ns = brain.namespace
    build_world(brain)
    items = data(cli("memory", "list", "--status", "all", "--type", "tasks"))
    assert items and {i["type"] for i in items} == {"tasks"}
    table = cli("memory", "list", "--prefix", "pref:", as_json=False).stdout
    assert "pref:coding:indentation" in table and "status" in table.splitlines()[0]

    shown = data(cli("memory", "show", "pref:coding:indentation"))
    assert len(shown["history"]) == 2 and shown["provenance"]["messages"][0]["message_id"] == "t3-u"
    human = cli("memory", "show", "pref:coding:indentation", as_json=False).stdout
    assert "history" in human and "derived from messages" in human
    res = cli("memory", "show", "pref:nope:nothing", ok=False)
    assert res.exit_code == 1 and "no memory item" in res.stderr

    # forget asks first; "n" leaves everything in place
    res = cli("memory", "forget", "--session", "s1", input="n\n", as_json=False, ok=False)
    assert res.exit_code == 1 and one(brain, "MATCH (s:Session {namespace: $ns}) RETURN count(s)", ns=ns) == 2
    out = cli("memory", "forget", "--session", "s1", input="y\n", as_json=False).stdout
    assert "forgot session s1" in out and "turns" in out
    assert one(brain, "MATCH (n) WHERE n.namespace = $ns AND n.session_id = 's1' RETURN count(n)", ns=ns) == 0
    assert fulltext_hits(brain, "message_search", S1_WORD, ns) == 0

    forgot = data(cli("memory", "forget", "--key", "pref:coding:indentation", "--yes"))
    assert forgot["found"] and forgot["deleted"]["memory"] >= 1
    assert one(brain, "MATCH (m:Memory {namespace: $ns, key: 'pref:coding:indentation'}) RETURN count(m)", ns=ns) == 0

    res = cli("memory", "forget", "--key", "a:b", "--session", "s2", "--yes", ok=False)
    assert res.exit_code == 1 and "exactly one" in res.stderr
    gone = data(cli("memory", "forget", "--all-namespace", "--yes"))
    assert gone["found"] and one(brain, "MATCH (n) WHERE n.namespace = $ns RETURN count(n)", ns=ns) == 0


# ------------------------------------------------------------------------------------------------ explore
def test_entity_cmd(cli: Cli, brain: Brain) -> None:
    build_world(brain)
    view = data(cli("entity", "Neo4j"))
    assert view["entity"]["canonical"] == "neo4j" and view["turns"] and view["timeline"]
    human = cli("entity", "neo4j", as_json=False).stdout
    for section in ("related", "decisions", "turns", "timeline"):
        assert section in human
    res = cli("entity", "nothing-of-the-sort", ok=False)
    assert res.exit_code == 1 and "no entity" in res.stderr


def test_export_cmd(cli: Cli, brain: Brain, tmp_path: Path) -> None:
    build_world(brain)
    path = tmp_path / "m.graphml"
    out = data(cli("export", "--format", "graphml", "-o", str(path)))
    assert out == {"path": str(path), "format": "graphml"}
    g = nx.read_graphml(path, force_multigraph=True)
    assert g.number_of_nodes() == one(brain, "MATCH (m:Memory {namespace: $ns}) RETURN count(m)", ns=brain.namespace)
    doc = json.loads(cli("export", "--format", "json", as_json=False).stdout)
    assert len(doc["nodes"]) == g.number_of_nodes() and doc["edges"]
    assert cli("export", as_json=False).stdout.startswith("<?xml")


def test_cypher_cmd(cli: Cli, brain: Brain) -> None:
    build_world(brain)
    query = "MATCH (m:Memory {namespace: $namespace}) WHERE m.type = $t RETURN m.key AS k"
    rows = data(cli("cypher", query, "-p", "t=decisions"))
    assert rows["columns"] == ["k"] and rows["rows"] == [{"k": "decision:graphbrain:memory-store"}]
    assert data(cli("cypher", "RETURN $n + 1 AS v", "--param", "n=41"))["rows"] == [{"v": 42}]
    table = cli("cypher", "UNWIND range(1, 5) AS i RETURN i", "--row-cap", "3", as_json=False).stdout
    assert "truncated at 3" in table

    res = cli("cypher", "CREATE (n:Scratch {namespace: $namespace}) RETURN n", ok=False)
    assert res.exit_code == 1 and "read-only" in res.stderr and "--write" in res.stderr
    assert one(brain, "MATCH (n:Scratch) RETURN count(n)") == 0
    made = data(cli("cypher", "CREATE (n:Scratch {namespace: $namespace}) RETURN n.namespace AS ns", "--write"))
    assert made["rows"] == [{"ns": brain.namespace}]
    res = cli("cypher", "RETURN 1", "--param", "bad key=1", ok=False)
    assert res.exit_code == 1 and "KEY=VALUE" in res.stderr
    res = cli("cypher", "MATCH (n RETURN n", ok=False)
    assert res.exit_code == 1 and "error:" in res.stderr


def test_traces_cmds(cli: Cli, brain: Brain) -> None:
    w = build_world(brain)
    cid = w.commits["s1/t1"].commit_id
    trace = data(cli("traces", "show", cid))
    assert trace["kind"] == "commit" and trace["result"]["commit_id"] == cid
    human = cli("traces", "show", cid, as_json=False).stdout
    assert "memory written" in human and "retention" in human
    res = cli("traces", "show", "ctx-none", ok=False)
    assert res.exit_code == 1 and "no trace" in res.stderr

    res = cli("traces", "prune", "--keep-last", "1", input="n\n", as_json=False, ok=False)
    assert res.exit_code == 1
    pruned = data(cli("traces", "prune", "--keep-last", "1", "--yes"))
    assert pruned["commit_traces"] == 5
    assert one(brain, "MATCH (c:CommitTrace {namespace: $ns}) RETURN count(c)", ns=brain.namespace) == 1
    res = cli("traces", "prune", "--yes", ok=False)
    assert res.exit_code == 1 and "--keep-last" in res.stderr


# ------------------------------------------------------------------------------------------------ ingest / retrieve
def test_ingest_with_progress_and_retrieve(cli: Cli, brain: Brain, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Alpha\n\nThe capybara deployment runs on Tuesdays.\n")
    (docs / "b.md").write_text("# Beta\n\nBackups of the graph run nightly.\n")
    (docs / "c.txt").write_text("Plain notes about the ocelot cache.\n")
    res = cli("ingest", str(docs), "--tag", "ops", "--glob", "**/*.md")
    out = data(res)
    assert out["counts"]["created"] == 2 and out["chunks_written"] >= 2
    assert "ingesting" in res.stderr  # the progress bar (non-tty: its label)
    again = cli("ingest", str(docs), "--glob", "**/*.md", as_json=False)
    assert "2 unchanged" in again.stdout
    manual = data(cli("ingest", "--manual", "The okapi rule: never deploy on Fridays.", "--title", "Okapi"))
    assert manual["counts"]["created"] == 1 and manual["documents"][0]["title"] == "Okapi"
    res = cli("ingest", ok=False)
    assert res.exit_code == 1 and "--manual" in res.stderr

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": "0.1", "queries": [{"text": "capybara deployment", "mode": "exact"}]}))
    pack = data(cli("retrieve", str(plan)))
    assert pack["evidences"] and "capybara" in pack["evidences"][0]["snippet"]
    assert pack["evidences"][0]["source_uri"].endswith("a.md")
    human = cli("retrieve", "-", input=plan.read_text(), as_json=False).stdout
    assert "capybara" in human and "candidates" in human
    plan.write_text('{"version": "0.1", "queries": [')
    res = cli("retrieve", str(plan), ok=False)
    assert res.exit_code == 1 and "invalid JSON" in res.stderr and str(plan) in res.stderr
    plan.write_text(json.dumps({"version": "0.1", "queries": []}))
    res = cli("retrieve", str(plan), ok=False)
    assert res.exit_code == 1 and "queries" in res.stderr


def test_bench_ingest(cli: Cli, brain: Brain, tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nSome text about the graph store and its indexes.\n")
    report = data(cli("bench", "ingest", str(tmp_path)))
    assert isinstance(report, dict) and report


# ------------------------------------------------------------------------------------------------ context / demo
def test_context_cmd(cli: Cli, brain: Brain) -> None:
    build_world(brain)
    pkg = data(cli("context", "s1", "What did we decide for the memory store?"))
    assert pkg["session_id"] == "s1" and pkg["user_message"]["content"].startswith("What did we decide")
    assert "constraints" in pkg and "context_id" in pkg
    trace = data(cli("traces", "show", pkg["context_id"]))
    assert trace["kind"] == "context" and trace["session_id"] == "s1"
    assert "context_id" in cli("traces", "show", pkg["context_id"], as_json=False).stdout
    rendered = cli("context", "s1", "What did we decide?", "--render", "--agent-state", '{"task": "x"}', as_json=False)
    assert "### user" in rendered.stdout
    res = cli("context", "s1", "hi", "--agent-state", "[1, 2]", ok=False)
    assert res.exit_code == 1 and "--agent-state" in res.stderr


def test_demo_cmd(cli: Cli, brain: Brain) -> None:
    res = cli("demo")
    report = data(res)  # --json: the walk-through went to stderr, the report is the output
    assert report["contexts"] and "commit_turn" in res.stderr
    assert data(cli("traces", "show", report["contexts"][0]))["kind"] == "context"
    assert data(cli("memory", "list", "--type", "decisions"))
