"""The memory group: list, show and forget memory items."""

from __future__ import annotations

from typing import Any

import click

from graphbrain.errors import InputError
from graphbrain.interfaces.cli.app import choice_option, common, confirm, main, open_brain
from graphbrain.interfaces.cli.output import emit, fields, pairs, readable, readable_rows, table


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
@choice_option("--status", choices=["active", "superseded", "retracted", "all"])
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
    emit(
        items,
        as_json,
        lambda rows: table(readable_rows(rows), ["type", "status", "key", "text", "confidence", "updated_at", "id"]),
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
        pairs(
            [
                *fields(it, "id", "type", "key", "status", "version", "confidence"),
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
            readable_rows(history),
            ["current", "version", "status", "id", "created_at", "replaces", "text"],
            title="history",
        )
        click.echo()
        table(v["provenance"]["turns"], ["session_id", "turn_id", "seq", "at"], title="derived from turns")
        click.echo()
        table(v["provenance"]["messages"], ["message_id", "role", "at", "content"], title="derived from messages")
        click.echo()
        table(v["mentions"], ["name", "kind", "key"], title="mentions")

    emit(view, as_json, human)


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
        confirm(f"Forget {what} in namespace {brain.namespace!r}? This cannot be undone", yes)
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

    emit(out, as_json, human)
