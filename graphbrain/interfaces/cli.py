"""The graphbrain command line (click): a thin adapter over ``Brain``.

Every command has --help, --config, --namespace and --json (machine output; readable tables otherwise).
A GraphbrainError ends the command with its message in red and exit status 1; bad JSON input names the
file and the position. Commands never re-implement logic: each calls one ``Brain`` method.
"""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from graphbrain.errors import GraphbrainError, InputError

if TYPE_CHECKING:
    from graphbrain.brain import Brain

F = TypeVar("F", bound=Callable[..., Any])

STDIN = "-"
MAX_CELL = 60  # characters per table cell before it is cut with "…"
TEXT_CELL = 110  # the same for a row's own text (a memory item's, a turn's snippet): what the row is about
TEXT_COLUMNS = frozenset({"text", "snippet", "content"})


# ================================================================================ output helpers
def _json_default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return str(value)


def _emit(obj: Any, as_json: bool, human: Callable[[Any], None] | None = None) -> None:
    if as_json or human is None:
        click.echo(json.dumps(obj, ensure_ascii=False, indent=2, default=_json_default))
    else:
        human(obj)


def _width(text: str) -> int:
    """Columns a string takes in a terminal: CJK characters are two wide."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _cut(text: str, limit: int) -> str:
    if _width(text) <= limit:
        return text
    out, used = [], 0
    for c in text:
        w = _width(c)
        if used + w > limit - 1:
            break
        out.append(c)
        used += w
    return "".join(out) + "…"


def _cell(value: Any, limit: int = MAX_CELL) -> str:
    if value is None:
        text = ""
    elif isinstance(value, datetime):
        text = value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    elif isinstance(value, float):
        text = f"{value:.3f}".rstrip("0").rstrip(".") if value == value else "nan"
    elif isinstance(value, list | dict):
        text = json.dumps(value, ensure_ascii=False, default=_json_default)
    else:
        text = str(value)
    return _cut(" ".join(text.split()), limit)


def table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], *, title: str | None = None) -> None:
    """A plain-text table: a header, a rule and one line per row (cells cut at MAX_CELL)."""
    if title:
        click.secho(title, bold=True)
    if not rows:
        click.echo("  (none)")
        return
    cells = [[_cell(r.get(c), TEXT_CELL if c in TEXT_COLUMNS else MAX_CELL) for c in columns] for r in rows]
    widths = [max(_width(c), *(_width(row[i]) for row in cells)) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v + " " * (w - _width(v)) for v, w in zip(values, widths, strict=True)).rstrip()

    click.echo(line(columns))
    click.echo(line(["-" * w for w in widths]))
    for row in cells:
        click.echo(line(row))


def readable(text: Any) -> Any:
    """A memory item's text without its "[type:key] " head: the key has a column of its own."""
    if isinstance(text, str) and text.startswith("[") and "] " in text:
        return text.partition("] ")[2]
    return text


def _readable_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "text": readable(r.get("text"))} for r in rows]


def _pairs(pairs: Sequence[tuple[str, Any]]) -> None:
    """Aligned "name: value" lines for one record."""
    width = max(len(k) for k, _ in pairs)
    for k, v in pairs:
        click.echo(f"{k + ':':<{width + 1}} {_cell(v, 200)}")


# ================================================================================ input helpers
def _read_text(source: str, what: str) -> tuple[str, str]:
    """(text, name) of a file or of stdin ("-")."""
    if source == STDIN:
        return sys.stdin.read(), "<stdin>"
    path = Path(source)
    if not path.is_file():
        raise InputError(f"{source}: no such file ({what})")
    try:
        return path.read_text(encoding="utf-8"), source
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{source}: cannot read it ({e})") from e


def _parse_json(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: invalid JSON at line {e.lineno} column {e.colno} (char {e.pos}): {e.msg}") from e


def _read_json(source: str, what: str) -> Any:
    return _parse_json(*_read_text(source, what))


def _json_or_file(value: str | None, what: str) -> Any:
    """An option given as inline JSON or as @FILE."""
    if value is None:
        return None
    if value.startswith("@"):
        return _read_json(value[1:], what)
    return _parse_json(value, what)


def parse_param(spec: str) -> tuple[str, Any]:
    """``key=value`` → (key, value): the value as JSON when it parses (numbers, true, lists...), else the
    string as given."""
    key, sep, raw = spec.partition("=")
    key = key.strip()
    if not sep or not key.isidentifier():
        raise InputError(f"--param {spec!r}: expected KEY=VALUE with KEY a parameter name")
    try:
        return key, json.loads(raw)
    except ValueError:
        return key, raw


# ================================================================================ decorator and brain
def common(fn: F) -> F:
    """--config / --namespace / --json on every command, and GraphbrainError → a clean exit 1."""

    @click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False),
        default=None,
        help="brain.yml to use (default: $GRAPHBRAIN_CONFIG or ./brain.yml).",
    )
    @click.option("--namespace", default=None, help="Tenant scope (overrides brain.yml's namespace).")
    @click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphbrainError as e:
            click.secho(f"error: {e}", fg="red", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def open_brain(config_path: str | None, namespace: str | None, *, check_schema: bool = True) -> Brain:
    from graphbrain import Brain

    overrides = {"namespace": namespace} if namespace else None
    return Brain.from_config(config_path, overrides=overrides, check_schema=check_schema)


def _import(module: str, what: str) -> Any:
    """A module written elsewhere (HTTP, MCP, demo, bench), imported only by the command that needs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name and (e.name == module or module.startswith(e.name + ".") or e.name.startswith("graphbrain.")):
            raise GraphbrainError(f"{what} is not available in this installation ({module} is missing)") from e
        raise GraphbrainError(f"{what} needs the package {e.name!r}: install it (pip install {e.name})") from e


def _confirm(question: str, yes: bool) -> None:
    if not yes:
        click.confirm(question, abort=True, err=True)


# ================================================================================ the group
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="graphbrain")
def main() -> None:
    """graphbrain: a Neo4j-backed knowledge memory for LLM agents.

    An agent calls commit_turn after every turn and compose_context before every model call.
    Start with `graphbrain init`, then `graphbrain demo`.

    \b
    Every command takes --config brain.yml, --namespace NS and --json.
    Example:
      graphbrain init && graphbrain demo --namespace demo
    """


@main.command()
@common
def init(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Create every constraint and index (safe to run twice) and wait until they are ONLINE.

    \b
    Example:
      graphbrain init --config brain.yml
    """
    _upgrade(config_path, namespace, as_json, None)


@main.command()
@common
def doctor(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Check config, the database (Neo4j or embedded), schema, indexes, documents left stale, embedding
    model and spaCy: each line ok or the fix.

    \b
    Example:
      graphbrain doctor
    """
    from graphbrain.doctor import run_checks

    checks = run_checks(config_path, namespace)

    def human(rows: list[dict[str, Any]]) -> None:
        for r in rows:
            mark = click.style("ok  ", fg="green") if r["ok"] else click.style("FAIL", fg="red")
            click.echo(f"{mark} {r['check']}: {r['detail']}")

    _emit(checks, as_json, human)
    if not all(r["ok"] for r in checks):
        sys.exit(1)


@main.command()
@click.option("--yes", is_flag=True, help="Clear the namespace even if it holds data the demo did not write.")
@common
def demo(yes: bool, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Walk through graphbrain: commit a sample session, compose a context, explore the memory.

    The demo works in namespace 'demo' (or --namespace) and clears that namespace first, nothing else.
    It clears it unasked only when it holds nothing but an earlier demo run; otherwise it asks (or,
    without a terminal, stops) unless --yes is given.

    \b
    Example:
      graphbrain demo
      graphbrain demo --namespace demo-2
    """
    module = _import("graphbrain.demo", "the demo")

    def confirm(question: str) -> bool:
        return sys.stdin.isatty() and click.confirm(question, default=False, err=True)

    with open_brain(config_path, namespace or module.DEMO_NAMESPACE) as brain:
        if not as_json:
            module.run(brain, click.echo, confirm=confirm, yes=yes)
            return
        # --json: the walk-through goes to stderr and the demo's report is the output
        report = module.run(brain, lambda line: click.echo(line, err=True), confirm=confirm, yes=yes)
    _emit(report, True)


# ================================================================================ the product
def _turns(payload: Any, session: str | None, name: str) -> list[tuple[str, dict[str, Any]]]:
    """(session_id, turn events) pairs from one turn, a list of turns or {"session_id", "turns": [...]}."""
    if isinstance(payload, dict) and isinstance(payload.get("turns"), list):
        sid = session or payload.get("session_id")
        events = payload["turns"]
    elif isinstance(payload, dict):
        sid, events = session, [payload]
    elif isinstance(payload, list):
        sid, events = session, payload
    else:
        raise InputError(f"{name}: expected a JSON object (one turn) or a list of turns")
    out = []
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise InputError(f"{name}: turn {i} is not a JSON object")
        ev = dict(ev)
        own = ev.pop("session_id", None)
        turn_session = session or own or sid
        if not isinstance(turn_session, str) or not turn_session:
            raise InputError(f'{name}: no session id: give --session or a "session_id" in the JSON')
        out.append((turn_session, ev))
    return out


@main.command()
@click.argument("source", default=STDIN, required=False, metavar="[FILE|-]")
@click.option("--session", "session_id", default=None, help="Session id (else the JSON's session_id).")
@common
def commit(source: str, session_id: str | None, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Record turn events through commit_turn (JSON from FILE, or stdin with '-').

    The JSON is one turn ({"session_id": "s1", "turn_id": "t1", "messages": [...]}, or give --session),
    a list of turns, or a whole session ({"session_id": "s1", "turns": [...]}) committed in order.

    \b
    Example:
      echo '{"turn_id": "t1", "messages": [{"role": "user",
            "content": "We decided to use Neo4j."}]}' | graphbrain commit - --session s1
    """
    payload = _read_json(source, "turn events")
    name = "<stdin>" if source == STDIN else source
    turns = _turns(payload, session_id, name)
    with open_brain(config_path, namespace) as brain:
        results = [brain.commit_turn(sid, ev).model_dump(mode="json") for sid, ev in turns]

    def human(rows: list[dict[str, Any]]) -> None:
        table(
            [{**r, "memory": len(r["memory_written"])} for r in rows],
            ["session_id", "turn_id", "seq", "status", "memory", "commit_id"],
        )
        written = [w | {"turn_id": r["turn_id"]} for r in rows for w in r["memory_written"]]
        if written:
            click.echo()
            table(written, ["turn_id", "action", "type", "key", "confidence"], title="memory written")
        for r in rows:
            for w in r["warnings"]:
                click.secho(f"warning ({r['turn_id']}): {w}", fg="yellow", err=True)

    _emit(results[0] if len(results) == 1 else results, as_json, lambda o: human(results))


@main.command()
@click.argument("session")
@click.argument("message")
@click.option("--render", is_flag=True, help="Print the rendered prompt (all slots in order) instead.")
@click.option("--agent-state", default=None, metavar="JSON|@FILE", help="The agent's state: inline JSON or @file.")
@common
def context(
    session: str,
    message: str,
    render: bool,
    agent_state: str | None,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Compose the ContextPackage for the next model call (compose_context).

    \b
    Example:
      graphbrain context s1 "What did we decide for the memory store?" --render
    """
    state = _json_or_file(agent_state, "--agent-state")
    if state is not None and not isinstance(state, dict):
        raise InputError("--agent-state: must be a JSON object")
    with open_brain(config_path, namespace) as brain:
        package = brain.compose_context(session, message, state)
    if render:
        text = package.to_text()
        _emit({"context_id": package.context_id, "text": text}, as_json, lambda _: click.echo(text))
        return
    data = package.model_dump(mode="json")

    def human(p: dict[str, Any]) -> None:
        budget = p["constraints"]["token_budget"]
        _pairs(
            [
                ("context_id", p["context_id"]),
                ("session", p["session_id"]),
                ("namespace", p["namespace"]),
                ("tokens", f"{budget['used_estimate']} of {budget['limit']} (trimmed {budget['trimmed']})"),
                ("summary", p["working_summary"] or "-"),
            ]
        )
        slots = [{"slot": k, "tokens": v} for k, v in budget.get("by_slot", {}).items()]
        click.echo()
        table(slots, ["slot", "tokens"], title="slots")
        click.echo()
        blocks = [{"slot": "system", **b} for b in p["system_blocks"]] + [
            {"slot": "developer", **b} for b in p["developer_blocks"]
        ]
        table(blocks, ["slot", "type", "text"], title="blocks")
        click.echo()
        table(p["evidence"], ["label", "mode", "score", "source", "title", "snippet"], title="evidence")

    _emit(data, as_json, human)


@main.command()
@click.argument("plan", metavar="PLAN.json|-")
@common
def retrieve(plan: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Run a RetrievalPlan (JSON file, or '-' for stdin) and print the EvidencePack.

    \b
    Example:
      echo '{"version": "0.1", "queries": [{"text": "memory store", "mode": "hybrid"}]}' \\
        | graphbrain retrieve -
    """
    data = _read_json(plan, "RetrievalPlan")
    with open_brain(config_path, namespace) as brain:
        pack = brain.retrieve(data).model_dump(mode="json")

    def human(p: dict[str, Any]) -> None:
        rows = [
            {
                "#": i,
                "score": e["score"],
                "mode": e["provenance"]["mode"],
                "kind": e["kind"],
                "title": e.get("title"),
                "source": e["source_uri"],
                "snippet": e["snippet"],
            }
            for i, e in enumerate(p["evidences"], 1)
        ]
        table(rows, ["#", "score", "mode", "kind", "title", "source", "snippet"])
        stats = p["stats"]
        click.echo(f"\n{stats['returned']} of {stats['candidates']} candidates in {stats['took_ms']:.0f} ms")
        for w in p["warnings"]:
            click.secho(f"warning: {w}", fg="yellow", err=True)

    _emit(pack, as_json, human)


class _IngestProgress:
    """The Ingestor's progress callback as a click progress bar on stderr, opened at the first report
    (only then is the number of files known)."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._pos = 0

    def __call__(self, done_files: int, total_files: int, chunks_so_far: int) -> None:
        if self._bar is None:
            self._bar = click.progressbar(
                length=max(total_files, 1),
                label="ingesting",
                show_pos=True,
                item_show_func=lambda item: item,
                file=sys.stderr,
            )
            self._bar.__enter__()
        self._bar.update(done_files - self._pos, f"{chunks_so_far} chunks")
        self._pos = done_files

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None


@main.command()
@click.argument("source", required=False, metavar="[PATH|URL]")
@click.option("--tag", "tags", multiple=True, help="Tag the documents (repeatable).")
@click.option("--topic", "topics", multiple=True, help="File the documents under a topic (repeatable).")
@click.option("--glob", default="**/*", show_default=True, help="Which files of a directory to ingest.")
@click.option("--manual", "manual_text", default=None, metavar="TEXT|-", help="Ingest this text (or stdin) instead.")
@click.option("--title", default=None, help="Title of a single document or of the --manual text.")
@click.option("--strict", is_flag=True, help="Exit 1 when any file could not be ingested (else only when none was).")
@common
def ingest(
    source: str | None,
    tags: tuple[str, ...],
    topics: tuple[str, ...],
    glob: str,
    manual_text: str | None,
    title: str | None,
    strict: bool,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Add a file, a directory, a URL or a text to the resource library (progress on stderr).

    Unchanged documents are skipped; changed ones replace their sections and chunks. Files that cannot be
    ingested (an unsupported format, say) are listed with the reason in full; the command exits 0 when
    something was ingested, 1 when nothing was (or, with --strict, when anything failed).

    \b
    Examples:
      graphbrain ingest seeds/docs --tag design --glob '**/*.md'
      graphbrain ingest --manual "Deploys go out on Tuesdays." --title "Deploy rule"
    """
    if (source is None) == (manual_text is None):
        raise InputError("ingest: give a PATH or URL, or --manual TEXT (not both)")
    if source is not None and "://" not in source and not Path(source).exists():
        raise InputError(f"{source}: no such file or directory (to ingest a text, use --manual TEXT)")
    progress = _IngestProgress()
    with open_brain(config_path, namespace) as brain:
        try:
            if manual_text is not None:
                from graphbrain.resources.ingest import ManualText

                text = _read_text(STDIN, "manual text")[0] if manual_text == STDIN else manual_text
                result = brain.ingest(
                    ManualText(text=text, title=title), tags=list(tags), topics=list(topics), progress=progress
                )
            else:
                result = brain.ingest(
                    source, title=title, tags=list(tags), topics=list(topics), glob=glob, progress=progress
                )
        finally:
            progress.close()
    data = result.model_dump(mode="json")

    failed = [d for d in data["documents"] if d["status"] == "failed"]

    def human(r: dict[str, Any]) -> None:
        table(
            [d for d in r["documents"] if d["status"] != "failed"],
            ["status", "sections", "chunks", "chunks_written", "title", "source_uri"],
        )
        c = r["counts"]
        click.echo(
            f"\n{c['created']} created, {c['updated']} updated, {c['unchanged']} unchanged, {c['failed']} failed; "
            f"{r['chunks_written']} chunks written in {r['took_ms'] / 1000:.1f} s"
        )
        if failed:
            click.secho(f"\nnot ingested ({len(failed)}):", bold=True, err=True)
            for d in failed:  # in full: the reason says what would be accepted
                click.echo(f"  {d.get('error') or d.get('source_uri')}", err=True)

    _emit(data, as_json, human)
    ingested = len(data["documents"]) - len(failed)
    if failed and (strict or not ingested):
        sys.exit(1)


# ================================================================================ exploration
def _cypher_table(result: Any) -> None:
    table(result.rows, result.columns)
    more = f", truncated at {len(result.rows)}" if result.truncated else ""
    click.echo(f"\n({len(result.rows)} rows{more})")


@main.command(name="cypher")
@click.argument("query", metavar='"MATCH …"|-')
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="A parameter (repeatable).")
@click.option("--write", is_flag=True, help="Run in a write transaction (on the server: admin tokens only).")
@click.option("--row-cap", default=1000, show_default=True, type=int, help="Return at most this many rows.")
@common
def cypher_cmd(
    query: str,
    params: tuple[str, ...],
    write: bool,
    row_cap: int,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Run your own Cypher (read-only unless --write) and print the rows as a table.

    What it can see: the whole database, every namespace in it. --namespace only sets $namespace, which
    your query should filter on; nothing stops a query from reading other namespaces. (That is why the
    HTTP service gives Cypher only to tokens with the cypher grant, and the MCP server offers cypher_read
    only when started with --allow-cypher.)

    Read-only means a READ transaction: the server itself refuses any write in it. --write is an explicit
    choice (the HTTP service also requires an admin token for it). --param values are parsed as JSON when
    they parse (42, true, ["a"]), else strings.

    \b
    Example:
      graphbrain cypher 'MATCH (m:Memory {namespace: $namespace}) WHERE m.type = $t
                         RETURN m.key, m.status LIMIT 10' --param t=decisions
    """
    text = _read_text(STDIN, "Cypher")[0] if query == STDIN else query
    values = dict(parse_param(p) for p in params)
    from graphbrain.errors import ReadOnlyViolation

    with open_brain(config_path, namespace) as brain:
        try:
            result = brain.cypher(text, values, write=write, row_cap=row_cap)
        except ReadOnlyViolation as e:
            raise ReadOnlyViolation(f"{e}; run it with --write to change the graph") from e
    data = {"columns": result.columns, "rows": result.rows, "truncated": result.truncated}
    _emit(data, as_json, lambda _: _cypher_table(result))


@main.command()
@click.argument("name")
@common
def entity(name: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Show an entity by name or alias: its neighbourhood (related entities, the tasks and decisions that
    mention it, the turns and documents it appears in) and its timeline.

    \b
    Example:
      graphbrain entity Neo4j
    """
    with open_brain(config_path, namespace) as brain:
        view = brain.entity(name)

    def human(v: dict[str, Any]) -> None:
        e = v["entity"]
        _pairs(
            [
                ("entity", f"{e['name']} ({e.get('kind') or '?'})"),
                ("key", e["key"]),
                ("aliases", ", ".join(e["aliases"]) or "-"),
                ("mentions", e.get("mention_count")),
                ("first seen", e.get("created_at")),
                ("last seen", e.get("last_seen")),
                ("matched by", v["matched_by"]),
            ]
        )
        if v["other_matches"]:
            click.echo("also matches: " + ", ".join(f"{m['name']} ({m['kind']})" for m in v["other_matches"]))
        for title, rows, cols in (
            ("related", v["related"], ["name", "kind", "weight", "last_seen"]),
            ("tasks", _readable_rows(v["tasks"]), ["status", "key", "text", "updated_at"]),
            ("decisions", _readable_rows(v["decisions"]), ["status", "key", "text", "updated_at"]),
            ("turns", v["turns"], ["at", "session_id", "turn_id", "snippet"]),
            ("documents", v["documents"], ["title", "source_uri", "chunks", "mentions", "updated_at"]),
            ("timeline", v["timeline"], ["at", "kind", "session_id", "ref", "detail"]),
        ):
            click.echo()
            table(rows, cols, title=title)

    _emit(view, as_json, human)


# ---------------------------------------------------------------------------------------- memory
@main.group()
def memory() -> None:
    """List, show and forget memory items.

    \b
    Examples:
      graphbrain memory list --type decisions --prefix decision:graphbrain:
      graphbrain memory show decision:graphbrain:memory-store
      graphbrain memory forget --session s1
    """


@memory.command("list")
@click.option("--type", "types", multiple=True, help="Memory type (repeatable): decisions, tasks, entities ...")
@click.option(
    "--status",
    type=click.Choice(["active", "superseded", "retracted", "all"]),
    default="active",
    show_default=True,
)
@click.option("--prefix", "key_prefix", default=None, help="Keys starting with this (task:graphbrain:).")
@click.option("--session", "session_id", default=None, help="Items derived from this session.")
@click.option("--limit", default=50, show_default=True, type=int)
@click.option("--offset", default=0, show_default=True, type=int)
@common
def memory_list(
    types: tuple[str, ...],
    status: str,
    key_prefix: str | None,
    session_id: str | None,
    limit: int,
    offset: int,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """List memory items, most recently updated first.

    \b
    Example:
      graphbrain memory list --type tasks --status all --session s1
    """
    with open_brain(config_path, namespace) as brain:
        items = brain.list_memory(
            types=list(types) or None,
            status=status,
            key_prefix=key_prefix,
            session_id=session_id,
            limit=limit,
            offset=offset,
        )
    _emit(
        items,
        as_json,
        lambda rows: table(_readable_rows(rows), ["type", "status", "key", "text", "confidence", "updated_at", "id"]),
    )


@memory.command("show")
@click.argument("item", metavar="ID|KEY")
@common
def memory_show(item: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Show one item (by id, or by key: its active version) with its history and provenance.

    \b
    Example:
      graphbrain memory show pref:coding:indentation
    """
    with open_brain(config_path, namespace) as brain:
        view = brain.show_memory(item)

    def human(v: dict[str, Any]) -> None:
        it = v["item"]
        _pairs(
            [
                ("id", it["id"]),
                ("type", it["type"]),
                ("key", it["key"]),
                ("status", it["status"]),
                ("version", it.get("version")),
                ("confidence", it.get("confidence")),
                ("text", readable(it.get("text"))),
                ("value", it.get("value")),
                (
                    "source",
                    f"{it.get('source')} · session {it.get('source_session_id')} · turn {it.get('source_turn_id')}",
                ),
                ("created", it.get("created_at")),
                ("updated", it.get("updated_at")),
            ]
        )
        history = [
            {
                **h,
                "replaces": ", ".join(f"{r['type']} {r['id']}" for r in h["replaces"]),
                "current": "*" if h["id"] == it["id"] else "",
            }
            for h in v["history"]
        ]
        click.echo()
        table(
            _readable_rows(history),
            ["current", "version", "status", "id", "created_at", "replaces", "text"],
            title="history",
        )
        click.echo()
        table(v["provenance"]["turns"], ["session_id", "turn_id", "seq", "at"], title="derived from turns")
        click.echo()
        table(v["provenance"]["messages"], ["message_id", "role", "at", "content"], title="derived from messages")
        click.echo()
        table(v["mentions"], ["name", "kind", "key"], title="mentions")

    _emit(view, as_json, human)


@memory.command("forget")
@click.argument("item", required=False, metavar="[ID|KEY]")
@click.option("--id", "item_id", default=None, help="An item id: every version of its key goes.")
@click.option("--key", default=None, help="A memory key: every version goes.")
@click.option("--session", "session_id", default=None, help="A session: its turns and what only it derived.")
@click.option("--all-namespace", "whole_namespace", is_flag=True, help="Everything in the namespace.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@common
def memory_forget(
    item: str | None,
    item_id: str | None,
    key: str | None,
    session_id: str | None,
    whole_namespace: bool,
    yes: bool,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Forget an item, a session or a whole namespace: every node, edge and index entry it owns.

    An item (ID or KEY, as memory show takes it) goes with every version of its key, and out of what was
    distilled from it: the working summaries are rewritten without it, the commit traces that report it
    too, and the context traces that served it are deleted. The raw turn it came from stays; forget its
    session (--session) to remove that as well.

    \b
    Examples:
      graphbrain memory forget pref:coding:indentation
      graphbrain memory forget --session s1 --yes
      graphbrain memory forget --all-namespace --namespace scratch --yes
    """
    chosen = [o for o, v in (("--id", item_id), ("--key", key), ("--session", session_id)) if v]
    if whole_namespace:
        chosen.append("--all-namespace")
    if item is not None:
        # Ids never hold ':', keys always do (type:…).
        chosen.append("--key" if ":" in item else "--id")
        key, item_id = (item, item_id) if ":" in item else (key, item)
    if len(chosen) != 1:
        raise InputError("memory forget: give exactly one of ID|KEY, --id, --key, --session or --all-namespace")
    with open_brain(config_path, namespace) as brain:
        what = {"--id": f"item {item_id}", "--key": f"key {key}", "--session": f"session {session_id}"}.get(
            chosen[0], "everything"
        )
        _confirm(f"Forget {what} in namespace {brain.namespace!r}? This cannot be undone", yes)
        out = brain.forget(item_id=item_id, key=key, session_id=session_id, whole_namespace=whole_namespace)

    def human(o: dict[str, Any]) -> None:
        if not o["found"]:
            click.echo(f"nothing to forget: {what} is not in namespace {o['namespace']!r}")
            return
        rows = [{"kind": k, "deleted": n} for k, n in o["deleted"].items() if n]
        table(rows, ["kind", "deleted"])
        restored = f"; {o['restored']} earlier versions active again" if o.get("restored") else ""
        rewritten = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in (o.get("rewritten") or {}).items())
        click.echo(f"\nforgot {what}: {o['total']} nodes deleted{restored}")
        if rewritten:
            click.echo(f"rewritten without it: {rewritten}")

    _emit(out, as_json, human)


@main.command()
@click.option("--format", "fmt", type=click.Choice(["graphml", "json"]), default="graphml", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write here (else stdout).")
@common
def export(fmt: str, output: str | None, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Export the namespace's memory graph (items, entities and their edges) for other tools.

    \b
    Example:
      graphbrain export --format graphml -o memory.graphml
    """
    with open_brain(config_path, namespace) as brain:
        out = brain.export(fmt, output)
    if output is not None:
        _emit({"path": out, "format": fmt}, as_json, lambda o: click.echo(f"wrote {fmt} to {o['path']}"))
    elif isinstance(out, str):
        click.echo(out)
    else:
        _emit(out, True)


# ---------------------------------------------------------------------------------------- traces
@main.group()
def traces() -> None:
    """Commit and context traces: show one, prune old ones.

    \b
    Examples:
      graphbrain traces show commit_0f3a...
      graphbrain traces prune --older-than-days 30 --keep-last 1000
    """


@traces.command("show")
@click.argument("trace_id")
@click.option(
    "--kind",
    type=click.Choice(["auto", "commit", "context"]),
    default="auto",
    show_default=True,
    help="auto: a commit id (commit_...) or else a context id.",
)
@common
def traces_show(trace_id: str, kind: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Show the trace of one commit_turn (by commit_id) or one compose_context (by context_id).

    \b
    Example:
      graphbrain traces show commit_7181736643c6461d8509a4c3
    """
    from graphbrain.admin.memory import NotFoundError

    with open_brain(config_path, namespace) as brain:
        trace, found_kind = None, kind
        order = ["commit", "context"] if kind == "auto" and trace_id.startswith("commit_") else ["context", "commit"]
        for k in [kind] if kind != "auto" else order:
            trace = brain.get_commit_trace(trace_id) if k == "commit" else brain.get_context_trace(trace_id)
            if trace is not None:
                found_kind = k
                break
        if trace is None:
            raise NotFoundError(f"no trace {trace_id!r} in namespace {brain.namespace!r}")
    out = {"kind": found_kind, **trace}

    def human(t: dict[str, Any]) -> None:
        if t["kind"] == "commit":
            res = t.get("result") or {}
            _pairs(
                [
                    ("commit_id", t["commit_id"]),
                    ("session", t["session_id"]),
                    ("turn", t["turn_id"]),
                    ("created", t["created_at"]),
                    ("status", res.get("status")),
                ]
            )
            explain = res.get("explain") or {}
            click.echo()
            table(res.get("memory_written") or [], ["action", "type", "key", "confidence"], title="memory written")
            click.echo()
            table(explain.get("retention") or [], ["kept", "type", "key", "reason"], title="retention")
            click.echo()
            table(explain.get("conflicts") or [], ["action", "key", "reason"], title="conflicts")
        else:
            _context_trace_tables(t)

    _emit(out, as_json, human)


def _context_trace_tables(t: dict[str, Any]) -> None:
    """A compose trace as tables: what was asked and planned, the evidence chosen and dropped, the budget
    and the timings (the whole record, JSON, with --json)."""
    request: dict[str, Any] = t["request"] if isinstance(t.get("request"), dict) else {}
    trace: dict[str, Any] = t["trace"] if isinstance(t.get("trace"), dict) else {}
    package: dict[str, Any] = t["package"] if isinstance(t.get("package"), dict) else {}
    planner = trace.get("planner") or {}
    budget = trace.get("token_budget") or {}
    _pairs(
        [
            ("context_id", t["context_id"]),
            ("session", t["session_id"]),
            ("created", t["created_at"]),
            ("user message", request.get("user_message")),
            ("intent", f"{planner.get('intent')} ({planner.get('reason')})"),
            ("resources", f"{planner.get('search_resources')} ({planner.get('search_reason')})"),
            ("time range", planner.get("time_range") or "-"),
            ("tokens", f"{budget.get('used_estimate')} of {budget.get('limit')} (trimmed {budget.get('trimmed')})"),
        ]
    )
    click.echo()
    table(planner.get("expansions") or [], ["text", "weight", "reason"], title="queries")
    snippets = {e.get("id"): e for e in package.get("evidence") or []}
    chosen = [
        {
            **e,
            "title": snippets.get(e.get("id"), {}).get("title"),
            "snippet": snippets.get(e.get("id"), {}).get("snippet"),
        }
        for e in trace.get("evidence") or []
    ]
    click.echo()
    table(chosen, ["label", "mode", "score", "source", "title", "snippet"], title="evidence")
    click.echo()
    table(trace.get("dropped") or [], ["slot", "reason", "rule", "tokens", "id"], title="dropped")
    click.echo()
    table(
        [{"slot": k, "tokens": v} for k, v in (budget.get("by_slot") or {}).items()], ["slot", "tokens"], title="slots"
    )
    timings = trace.get("timings_ms") or {}
    if timings:
        click.echo()
        click.echo("timings (ms): " + " · ".join(f"{k} {v:.0f}" for k, v in timings.items()))


@traces.command("prune")
@click.option("--older-than-days", type=float, default=None, help="Delete traces older than this.")
@click.option("--keep-last", type=int, default=None, help="Always keep this many newest of each kind.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@common
def traces_prune(
    older_than_days: float | None,
    keep_last: int | None,
    yes: bool,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Delete old commit and context traces (batched).

    \b
    Example:
      graphbrain traces prune --older-than-days 30 --keep-last 1000 --yes
    """
    if older_than_days is None and keep_last is None:
        raise InputError("traces prune: give --older-than-days, --keep-last or both")
    with open_brain(config_path, namespace) as brain:
        _confirm(f"Prune traces in namespace {brain.namespace!r}?", yes)
        out = brain.prune_traces(older_than_days=older_than_days, keep_last=keep_last)
    _emit(
        out,
        as_json,
        lambda o: click.echo(f"deleted {o['commit_traces']} commit traces and {o['context_traces']} context traces"),
    )


# ================================================================================ servers and benches
@main.command()
@click.option("--host", default=None, help="Bind address (default: brain.yml's server.host, 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port (default: brain.yml's server.port, 8765).")
@common
def serve(host: str | None, port: int | None, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Serve the HTTP API (OpenAPI at /docs) and the graph page (/ui); loopback unless told otherwise.

    \b
    Example:
      graphbrain serve --port 8765
    """
    _import("graphbrain.interfaces.http", "the HTTP service").run(config_path, namespace, host, port)


@main.command()
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Bind address of the http transport.")
@click.option("--port", default=8766, show_default=True, type=int, help="Port of the http transport.")
@click.option(
    "--allow-cypher",
    is_flag=True,
    help="Offer the cypher_read tool. It can read EVERY namespace in the database: for an admin's own agent only.",
)
@common
def mcp(
    transport: str,
    host: str,
    port: int,
    allow_cypher: bool,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Serve graphbrain's tools to agents over MCP (stdio, or streamable HTTP on loopback).

    Every tool acts in --namespace only, except cypher_read, which is off unless --allow-cypher.
    (graphbrain serve offers the same tools at /mcp behind its bearer tokens.)

    \b
    Example:
      graphbrain mcp --transport stdio --namespace acme
    """
    _import("graphbrain.interfaces.mcp_server", "the MCP server").run(
        config_path, namespace, transport, host, port, allow_cypher=allow_cypher
    )


@main.group()
def bench() -> None:
    """Benchmarks against the configured database (they work in scratch namespaces of their own).

    \b
    Example:
      graphbrain bench ingest seeds/docs
    """


@bench.command("ingest")
@click.argument("path", type=click.Path(exists=True))
@common
def bench_ingest(path: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Ingest throughput of a corpus: chunks per second and the embedding model's share of the time.

    \b
    Example:
      graphbrain bench ingest seeds/docs --json
    """
    module = _import("graphbrain.bench.ingest_bench", "the ingest bench")
    with open_brain(config_path, namespace) as brain:
        report = module.run_ingest_bench(brain, path)
    _emit(report, as_json, lambda r: _pairs([(str(k), v) for k, v in r.items()]))


@bench.command("cli")
@click.option("--runs", default=3, show_default=True, type=click.IntRange(1, 50), help="Runs per figure (median).")
@common
def bench_cli(runs: int, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Wall time of everyday commands (init, memory list, entity, context) on the embedded backend, each
    a new process, first and second call, with the server stopped by its last user (idle_stop_s 0) and
    kept up between commands (the default), side by side. Uses a scratch data dir.

    \b
    Example:
      graphbrain bench cli --runs 3
    """
    _import("graphbrain.bench.cli_bench", "the CLI bench").main_cli_bench(config_path, runs, as_json)


@bench.command("extract")
@click.option(
    "--set",
    "set_path",
    default=None,
    type=click.Path(exists=True),
    help="The labelled set: a directory of .yaml files or one file (default: tests/extraction).",
)
@click.option("--verbose", is_flag=True, help="Also list every difference from the labels.")
@common
def bench_extract(
    set_path: str | None, verbose: bool, config_path: str | None, namespace: str | None, as_json: bool
) -> None:
    """Extraction quality on the labelled set: precision / recall / F1 per language and per type.

    Replays each session of the set through extraction and the retention and entity gates (no
    database), and prints memory-item and entity figures for en, zh and mixed, item F1 per type, the
    entity-type confusion table and any chopped key word, in one run.

    \b
    Example:
      graphbrain bench extract
      graphbrain bench extract --verbose
    """
    from graphbrain.config import load_config

    module = _import("graphbrain.bench.extract", "the extraction bench")
    report = module.run_extract_bench(load_config(config_path), Path(set_path) if set_path else None)
    if as_json:
        _emit(report.as_dict(), True)
    else:
        click.echo(module.format_report(report, verbose=verbose))


@bench.command("embeddings")
@common
def bench_embeddings(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """The bilingual probe: top-1 accuracy of each embedding model across English and Chinese.

    Ten topics, each remembered in both languages and asked in both; for the main model and the English
    one (embedding.english): English→English, Chinese→Chinese, each across to the other language, and a
    store holding both. No database is used.

    \b
    Example:
      graphbrain bench embeddings
    """
    from graphbrain.config import load_config

    module = _import("graphbrain.bench.embeddings", "the embedding probe")
    report = module.run_embedding_probe(load_config(config_path))
    if as_json:
        _emit(report, True)
    else:
        click.echo(module.format_embedding_probe(report))


@bench.command("relational")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@common
def bench_relational(paths: tuple[str, ...], config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Multi-hop recall through compose_context on hand-written conversations (answers 2-3 hops away).

    Commits each conversation into a fresh namespace and asks its questions; prints recall@10 of the
    chain's turns per language, how often the answer turn is in the first 10, with a path, and the
    filler turns that took an evidence slot. Default: the set in tests/relational/data.

    \b
    Example:
      graphbrain bench relational
      graphbrain bench relational tests/relational/data/zh_platform.yaml
    """
    from graphbrain.brain import Brain

    module = _import("graphbrain.bench.relational", "the relational bench")
    chosen = list(paths) or sorted(str(p) for p in (Path.cwd() / "tests" / "relational" / "data").glob("*.yaml"))
    if not chosen:
        raise click.UsageError("no conversation given and no tests/relational/data/*.yaml here")
    overrides = {"namespace": namespace} if namespace else None
    brain = Brain.from_config(config_path, overrides=overrides)
    try:
        report = module.run_relational(brain, chosen)
    finally:
        brain.close()
    if as_json:
        _emit(report, True)
    else:
        click.echo(module.format_relational(report))


@bench.command("locomo")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--k", "ks", default="5,10,25", show_default=True, help="Comma-separated cut-offs for recall@k.")
@click.option("--out", default=None, type=click.Path(dir_okay=False), help="Also write the JSON report here.")
@click.option(
    "--backends",
    default="",
    help="Comma-separated backends (neo4j,embedded) to run on in turn, with a side-by-side table.",
)
@common
def bench_locomo(
    paths: tuple[str, ...],
    ks: str,
    out: str | None,
    backends: str,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Retrieval quality on LoCoMo conversations: graphbrain vs BM25 / dense / RRF over raw turns.

    Every dialog turn is committed in order into a fresh namespace per conversation (annotations never
    enter memory); recall@k per question category, latency and evidence tokens, side by side.

    \b
    Example:
      graphbrain bench locomo ../shared/data/locomo-dev/26.json ../shared/data/locomo-dev/30.json
      graphbrain bench locomo ../shared/data/locomo-dev/26.json --backends neo4j,embedded
    """
    module = _import("graphbrain.bench.locomo", "the LoCoMo bench")
    chosen = [b.strip() for b in backends.split(",") if b.strip()]
    for b in chosen:
        if b not in ("neo4j", "embedded"):
            raise click.BadParameter(f"unknown backend {b!r}: use neo4j and/or embedded", param_hint="--backends")
    ks_list = [int(k) for k in ks.split(",") if k.strip()]
    module.main_locomo(config_path, namespace, list(paths), ks_list, as_json, out, chosen)


@bench.command("scale")
@click.option("--items", default="10000,100000", show_default=True, help="Comma-separated memory sizes.")
@click.option("--plot", default=None, type=click.Path(dir_okay=False), help="Write a PNG growth plot here.")
@common
def bench_scale(items: str, plot: str | None, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Speed at scale against the physical floor (bare vector / full-text queries, the model itself).

    \b
    Example:
      graphbrain bench scale --items 2000,10000 --plot scale.png
    """
    module = _import("graphbrain.bench.scale", "the scale bench")
    module.main_scale(config_path, items, as_json, plot)


@bench.command("load")
@click.option("--writers", default=8, show_default=True, type=click.IntRange(0, 256), help="Concurrent writers.")
@click.option(
    "--readers", default=0, show_default=True, type=click.IntRange(0, 256), help="Concurrent in-process composers."
)
@click.option(
    "--http-readers",
    default=0,
    show_default=True,
    type=click.IntRange(0, 256),
    help="Concurrent composers over HTTP (a `graphbrain serve` child on the same database).",
)
@click.option("--seconds", default=30.0, show_default=True, type=click.FloatRange(min=0.1), help="How long.")
@click.option(
    "--mode",
    type=click.Choice(["threads", "processes"]),
    default="threads",
    show_default=True,
    help="Threads sharing one Brain, or a process (and Brain) per writer.",
)
@click.option("--keep", is_flag=True, help="Keep the scratch namespace afterwards.")
@click.option(
    "--baseline/--no-baseline",
    default=True,
    show_default=True,
    help="First run one writer for as long, and report the N-writer figures as ratios to it.",
)
@common
def bench_load(
    writers: int,
    readers: int,
    http_readers: int,
    seconds: float,
    mode: str,
    keep: bool,
    baseline: bool,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Concurrent commit_turn load (and compose_context readers): commits/s, p50/p95, retried commits,
    errors, then the invariants read back.

    Half the writers share a session; all contend on the same entity names and preference keys. Readers
    compose questions about the same cast while the writers commit; their p95 is reported beside one
    reader's alone.
    Exits 1 when any call failed or an invariant broke (sequence gap, duplicate entity, two active
    items for one key).

    \b
    Example:
      graphbrain bench load --writers 8 --seconds 30
      graphbrain bench load --writers 8 --seconds 30 --mode processes --json
      graphbrain bench load --readers 8 --writers 2 --seconds 20
      graphbrain bench load --readers 4 --http-readers 4 --writers 2
    """
    module = _import("graphbrain.bench.load", "the load bench")
    if writers + readers + http_readers == 0:
        raise click.UsageError("nothing to run: give --writers, --readers or --http-readers")
    report = module.main_load(config_path, writers, seconds, mode, as_json, keep, baseline, readers, http_readers)
    if not report["ok"]:
        raise SystemExit(1)


@main.group()
def journal() -> None:
    """The commit journal: turns accepted while the database was unreachable, written when it answers.

    \b
    Example:
      graphbrain journal status
      graphbrain journal replay
    """


@journal.command("status")
@common
def journal_status(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Counts by status and every pending turn (namespace, session, turn id, attempts, last error).

    \b
    Example:
      graphbrain journal status --json
    """
    with open_brain(config_path, namespace, check_schema=False) as brain:
        status = brain.journal_status()

    def human(st: dict[str, Any]) -> None:
        _pairs([(k, st[k]) for k in ("pending", "done", "failed", "path", "target")])
        for target, n in st["pending_elsewhere_by_target"].items():
            click.echo(f"pending for another database (not replayed from here): {n}  {target}")
        if st["pending_turns"]:
            table(st["pending_turns"], ["id", "namespace", "session_id", "turn_id", "attempts", "last_error"])

    _emit(status, as_json, human)


@journal.command("replay")
@common
def journal_replay(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Write every pending turn now, in order (fails clearly if the database is still unreachable).

    \b
    Example:
      graphbrain journal replay
    """
    with open_brain(config_path, namespace) as brain:
        results = brain.replay_journal()
        status = brain.journal_status()
    out = {
        "replayed": [{"session_id": r.session_id, "turn_id": r.turn_id, "status": r.status} for r in results],
        "pending": status["pending"],
    }
    _emit(out, as_json, lambda o: click.echo(f"replayed {len(o['replayed'])} turns; {o['pending']} pending"))


@main.command()
@common
def reindex(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Fill the embeddings an embedding failure left out (memory items, messages, chunks).

    \b
    Example:
      graphbrain reindex --namespace team-a
    """
    with open_brain(config_path, namespace) as brain:
        report = brain.reindex()
    _emit(report, as_json, lambda r: click.echo(f"filled {r['total']} embeddings: {r['filled']}"))


@main.command()
@click.option(
    "--config",
    "other_config",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="The changed brain.yml to replay under.",
)
@click.option(
    "--base-config",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="The brain's own brain.yml (default: $GRAPHBRAIN_CONFIG or ./brain.yml).",
)
@click.option("--context-id", default=None, help="Replay one stored request.")
@click.option("--session", default=None, help="Replay a session's stored requests.")
@click.option("--since", default=None, help="Replay requests since this ISO date.")
@click.option("--last", type=int, default=None, help="Replay the last N requests.")
@click.option(
    "--baseline",
    type=click.Choice(["fresh", "stored"]),
    default="fresh",
    show_default=True,
    help="fresh: both configs re-run now (isolates the config); stored: diff against what was served.",
)
@click.option("--namespace", default=None, help="Tenant scope (overrides brain.yml's namespace).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def replay(
    other_config: str,
    base_config: str | None,
    context_id: str | None,
    session: str | None,
    since: str | None,
    last: int | None,
    baseline: str,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Re-run stored compose_context requests under another brain.yml and diff the outcome.

    The graph is not changed. Shows evidence added / dropped / reordered, slot token changes, plan
    changes and ignored fields, per request and in total.

    \b
    Example:
      graphbrain replay --config tuned.yml --last 20
    """
    module = _import("graphbrain.replay", "replay")
    if namespace:
        os.environ["GRAPHBRAIN_NAMESPACE"] = namespace  # the documented override, for both configs
    try:
        code = module.main_replay(
            base_config,
            other_config,
            context_id=context_id,
            session=session,
            since=since,
            last=last,
            as_json=as_json,
            baseline=baseline,
        )
    except GraphbrainError as e:
        click.secho(f"error: {e}", fg="red", err=True)
        sys.exit(1)
    sys.exit(code)


@main.command("replay-commits")
@click.option(
    "--config",
    "other_config",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="The changed brain.yml to re-extract under.",
)
@click.option(
    "--base-config",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="The brain's own brain.yml (default: $GRAPHBRAIN_CONFIG or ./brain.yml).",
)
@click.option("--session", required=True, help="The session whose stored turns are re-extracted.")
@click.option("--namespace", default=None, help="Tenant scope (overrides brain.yml's namespace).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def replay_commits(
    other_config: str, base_config: str | None, session: str, namespace: str | None, as_json: bool
) -> None:
    """Re-extract a session's stored turns under another brain.yml (in a scratch namespace) and diff
    the memory items written (type, key, status, confidence) against what is stored.

    \b
    Example:
      graphbrain replay-commits --config stricter.yml --session s1
    """
    module = _import("graphbrain.replay", "replay")
    if namespace:
        os.environ["GRAPHBRAIN_NAMESPACE"] = namespace  # the documented override, for both configs
    try:
        code = module.main_replay_commits(base_config, other_config, session, as_json)
    except GraphbrainError as e:
        click.secho(f"error: {e}", fg="red", err=True)
        sys.exit(1)
    sys.exit(code)


@main.command()
@click.option("--from", "src", type=click.Choice(["embedded", "neo4j"]), required=True, help="Source backend.")
@click.option("--to", "dst", type=click.Choice(["embedded", "neo4j"]), required=True, help="Target backend.")
@common
def migrate(src: str, dst: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Copy a namespace between backends, verified by counts and identical retrieval on sample plans.

    \b
    Example:
      graphbrain migrate --from embedded --to neo4j --namespace team-a
    """
    module = _import("graphbrain.store.migrate", "migrate")
    sys.exit(module.main_migrate(config_path, src, dst, namespace))


# ================================================================================ upgrade, backup, restore, chaos
def _upgrade(config_path: str | None, namespace: str | None, as_json: bool, batch: int | None) -> None:
    """init and upgrade: the schema, then every pending upgrade step, with progress on stderr."""

    def progress(p: Any) -> None:
        if not as_json:
            click.echo(f"  v{p.step} {p.query}: {p.changed} changed ({p.batches} batches)", err=True)

    with open_brain(config_path, namespace, check_schema=False) as brain:
        up = brain.upgrade(batch=batch, progress=progress)
        report = up.schema
        assert report is not None
        out = {
            "schema_version": report.version,
            "from_version": up.from_version,
            "steps_applied": up.steps,
            "upgrade_queries": [{"step": q.step, "query": q.query, "changed": q.changed} for q in up.queries],
            "statements": report.statements,
            "indexes": [{"name": i["name"], "type": i["type"], "state": i["state"]} for i in report.indexes],
        }

        def human(o: dict[str, Any]) -> None:
            if o["steps_applied"]:
                click.echo(f"upgraded from version {o['from_version']}: steps {o['steps_applied']}")
            for q in o["upgrade_queries"]:
                click.echo(f"  v{q['step']} {q['query']}: {q['changed']} changed")
            click.echo(f"schema version {o['schema_version']}: {o['statements']} statements applied")
            for i in o["indexes"]:
                click.echo(f"  {i['state']:<8} {i['type']:<9} {i['name']}")

        _emit(out, as_json, human)


@main.command()
@click.option("--batch", default=None, type=click.IntRange(min=1), help="Nodes per upgrade batch (default 2000).")
@common
def upgrade(batch: int | None, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Bring an existing graph to this graphbrain's schema in place: the schema, then every pending step in
    batches (resumable: run it again after an interruption). `graphbrain init` does the same.

    \b
    Example:
      graphbrain upgrade --batch 5000
    """
    _upgrade(config_path, namespace, as_json, batch)


@main.command()
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, allow_dash=True), help="File (- : stdout)."
)
@common
def backup(output: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Write everything of a namespace (turns, memory with history, entities, documents, vectors, traces,
    summaries) to a versioned, streamable file (gzip'd JSON lines) that `graphbrain restore` loads.

    \b
    Example:
      graphbrain backup --namespace team-a -o team-a.gbk
    """
    module = _import("graphbrain.store.backup", "backup")
    report = module.main_backup(config_path, namespace, output)
    if output != "-":
        _emit(report.__dict__, as_json, lambda r: click.echo(report.summary()))
    elif not report.consistent:
        click.secho(report.summary(), fg="yellow", err=True)


@main.command()
@click.argument("path", metavar="FILE", type=click.Path(exists=True, dir_okay=False))
@click.option("--replace", is_flag=True, help="Delete the namespace first when it holds data (else refused).")
@click.option("--to", "backend", type=click.Choice(["embedded", "neo4j"]), default=None, help="Backend to load into.")
@common
def restore(
    path: str, replace: bool, backend: str | None, config_path: str | None, namespace: str | None, as_json: bool
) -> None:
    """Load a backup into the configured database (or --to), as --namespace or the backup's own, verified by
    counts per label and edge type and by the sample plans recorded in it; exits 1 when they differ.

    \b
    Example:
      graphbrain restore team-a.gbk --namespace team-a-copy
      graphbrain restore team-a.gbk --to embedded --replace
    """
    module = _import("graphbrain.store.backup", "restore")
    report = module.main_restore(config_path, path, namespace, replace=replace, backend=backend)
    out = {**report.__dict__, "counts_match": report.counts_match, "retrieval_matches": report.retrieval_matches}
    _emit(out, as_json, lambda r: click.echo(report.summary()))
    if not report.ok:
        sys.exit(1)


@bench.command("chaos")
@click.option("--cycles", default=20, show_default=True, type=click.IntRange(1, 1000), help="Database kills.")
@click.option("--backend", type=click.Choice(["neo4j", "embedded"]), default="neo4j", show_default=True)
@click.option("--port", default=7691, show_default=True, type=int, help="Bolt port of the bench's own Neo4j.")
@click.option("--seed", default=None, type=int, help="Random seed for the kill times.")
@common
def bench_chaos(
    cycles: int,
    backend: str,
    port: int,
    seed: int | None,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """SIGKILL a database of the bench's own at random moments under writers (in-process and HTTP), readers
    and test-suite-like churn, then check every acknowledged turn: lost, duplicated, out of order, reader
    errors by kind, recovery times. Exits 1 unless all hold.

    \b
    Example:
      graphbrain bench chaos --cycles 20 --backend embedded
      graphbrain bench chaos --cycles 20 --backend neo4j --port 7691
    """
    module = _import("graphbrain.bench.chaos", "the chaos bench")
    report = module.main_chaos(config_path, backend, cycles, port, seed, as_json)
    if not report["ok"]:
        raise SystemExit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
