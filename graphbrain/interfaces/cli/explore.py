"""Looking around the graph: your own Cypher, an entity's neighbourhood, an export for other tools."""

from __future__ import annotations

from typing import Any

import click

from graphbrain.interfaces.cli.app import choice_option, common, main, open_brain
from graphbrain.interfaces.cli.inputs import parse_param, text_or_stdin
from graphbrain.interfaces.cli.output import emit, pairs, readable_rows, table


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
    text = text_or_stdin(query, "Cypher")
    values = dict(parse_param(p) for p in params)
    from graphbrain.errors import ReadOnlyViolation

    with open_brain(config_path, namespace) as brain:
        try:
            result = brain.cypher(text, values, write=write, row_cap=row_cap)
        except ReadOnlyViolation as e:
            raise ReadOnlyViolation(f"{e}; run it with --write to change the graph") from e
    data = {"columns": result.columns, "rows": result.rows, "truncated": result.truncated}
    emit(data, as_json, lambda _: _cypher_table(result))


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
        pairs(
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
            ("tasks", readable_rows(v["tasks"]), ["status", "key", "text", "updated_at"]),
            ("decisions", readable_rows(v["decisions"]), ["status", "key", "text", "updated_at"]),
            ("turns", v["turns"], ["at", "session_id", "turn_id", "snippet"]),
            ("documents", v["documents"], ["title", "source_uri", "chunks", "mentions", "updated_at"]),
            ("timeline", v["timeline"], ["at", "kind", "session_id", "ref", "detail"]),
        ):
            click.echo()
            table(rows, cols, title=title)

    emit(view, as_json, human)


@main.command()
@choice_option("--format", "fmt", choices=["graphml", "json"])
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
        emit({"path": out, "format": fmt}, as_json, lambda o: click.echo(f"wrote {fmt} to {o['path']}"))
    elif isinstance(out, str):
        click.echo(out)
    else:
        emit(out, True)
