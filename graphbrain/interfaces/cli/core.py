"""The product's commands: init, demo, commit, context, retrieve and ingest."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from graphbrain.errors import InputError
from graphbrain.interfaces.cli.app import common, main, open_brain
from graphbrain.interfaces.cli.inputs import STDIN, json_or_file, read_json, text_or_stdin, turns
from graphbrain.interfaces.cli.maintenance import run_upgrade
from graphbrain.interfaces.cli.output import emit, pairs, table


@main.command()
@common
def init(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Create every constraint and index (safe to run twice) and wait until they are ONLINE.

    \b
    Example:
      graphbrain init --config brain.yml
    """
    run_upgrade(config_path, namespace, as_json, None)


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
    from graphbrain.demo import DEMO_NAMESPACE, run

    def confirm(question: str) -> bool:
        return sys.stdin.isatty() and click.confirm(question, default=False, err=True)

    with open_brain(config_path, namespace or DEMO_NAMESPACE) as brain:
        if not as_json:
            run(brain, click.echo, confirm=confirm, yes=yes)
            return
        # --json: the walk-through goes to stderr and the demo's report is the output
        report = run(brain, lambda line: click.echo(line, err=True), confirm=confirm, yes=yes)
    emit(report, True)


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
    payload = read_json(source, "turn events")
    name = "<stdin>" if source == STDIN else source
    events = turns(payload, session_id, name)
    with open_brain(config_path, namespace) as brain:
        results = [brain.commit_turn(sid, ev).model_dump(mode="json") for sid, ev in events]

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

    emit(results[0] if len(results) == 1 else results, as_json, lambda o: human(results))


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
    state = json_or_file(agent_state, "--agent-state")
    if state is not None and not isinstance(state, dict):
        raise InputError("--agent-state: must be a JSON object")
    with open_brain(config_path, namespace) as brain:
        package = brain.compose_context(session, message, state)
    if render:
        text = package.to_text()
        emit({"context_id": package.context_id, "text": text}, as_json, lambda _: click.echo(text))
        return
    data = package.model_dump(mode="json")

    def human(p: dict[str, Any]) -> None:
        budget = p["constraints"]["token_budget"]
        pairs(
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

    emit(data, as_json, human)


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
    data = read_json(plan, "RetrievalPlan")
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

    emit(pack, as_json, human)


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
                from graphbrain.resources.sources import ManualText

                text = text_or_stdin(manual_text, "manual text")
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

    emit(data, as_json, human)
    ingested = len(data["documents"]) - len(failed)
    if failed and (strict or not ingested):
        sys.exit(1)
