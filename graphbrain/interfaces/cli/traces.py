"""The traces group: show one commit or context trace as tables, prune old ones."""

from __future__ import annotations

from typing import Any

import click

from graphbrain.errors import InputError
from graphbrain.interfaces.cli.app import choice_option, common, confirm, main, open_brain
from graphbrain.interfaces.cli.output import emit, pairs, table


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
@choice_option(
    "--kind", choices=["auto", "commit", "context"], help="auto: a commit id (commit_...) or else a context id."
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
            pairs(
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

    emit(out, as_json, human)


def _context_trace_tables(t: dict[str, Any]) -> None:
    """A compose trace as tables: what was asked and planned, the evidence chosen and dropped, the budget
    and the timings (the whole record, JSON, with --json)."""
    request: dict[str, Any] = t["request"] if isinstance(t.get("request"), dict) else {}
    trace: dict[str, Any] = t["trace"] if isinstance(t.get("trace"), dict) else {}
    package: dict[str, Any] = t["package"] if isinstance(t.get("package"), dict) else {}
    planner = trace.get("planner") or {}
    budget = trace.get("token_budget") or {}
    pairs(
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
        confirm(f"Prune traces in namespace {brain.namespace!r}?", yes)
        out = brain.prune_traces(older_than_days=older_than_days, keep_last=keep_last)
    emit(
        out,
        as_json,
        lambda o: click.echo(f"deleted {o['commit_traces']} commit traces and {o['context_traces']} context traces"),
    )
