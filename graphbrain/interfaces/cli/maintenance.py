"""Keeping a database well: doctor, init's and upgrade's schema work, journal, reindex, migrate, backup, restore."""

from __future__ import annotations

import sys
from typing import Any

import click

from graphbrain.interfaces.cli.app import common, main, open_brain
from graphbrain.interfaces.cli.output import emit, fields, pairs, table
from graphbrain.store.backends import BACKENDS


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

    emit(checks, as_json, human)
    if not all(r["ok"] for r in checks):
        sys.exit(1)


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
        pairs(fields(st, "pending", "done", "failed", "path", "target"))
        for target, n in st["pending_elsewhere_by_target"].items():
            click.echo(f"pending for another database (not replayed from here): {n}  {target}")
        if st["pending_turns"]:
            table(st["pending_turns"], ["id", "namespace", "session_id", "turn_id", "attempts", "last_error"])

    emit(status, as_json, human)


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
    emit(out, as_json, lambda o: click.echo(f"replayed {len(o['replayed'])} turns; {o['pending']} pending"))


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
    emit(report, as_json, lambda r: click.echo(f"filled {r['total']} embeddings: {r['filled']}"))


@main.command()
@click.option("--from", "src", type=click.Choice(BACKENDS), required=True, help="Source backend.")
@click.option("--to", "dst", type=click.Choice(BACKENDS), required=True, help="Target backend.")
@common
def migrate(src: str, dst: str, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Copy a namespace between backends, verified by counts and identical retrieval on sample plans.

    \b
    Example:
      graphbrain migrate --from embedded --to neo4j --namespace team-a
    """
    from graphbrain.store.migrate import main_migrate

    sys.exit(main_migrate(config_path, src, dst, namespace))


def run_upgrade(config_path: str | None, namespace: str | None, as_json: bool, batch: int | None) -> None:
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

        emit(out, as_json, human)


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
    run_upgrade(config_path, namespace, as_json, batch)


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
    from graphbrain.store.backup import main_backup

    report = main_backup(config_path, namespace, output)
    if output != "-":
        emit(report.__dict__, as_json, lambda r: click.echo(report.summary()))
    elif not report.consistent:
        click.secho(report.summary(), fg="yellow", err=True)


@main.command()
@click.argument("path", metavar="FILE", type=click.Path(exists=True, dir_okay=False))
@click.option("--replace", is_flag=True, help="Delete the namespace first when it holds data (else refused).")
@click.option("--to", "backend", type=click.Choice(BACKENDS), default=None, help="Backend to load into.")
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
    from graphbrain.store.backup import main_restore

    report = main_restore(config_path, path, namespace, replace=replace, backend=backend)
    out = {**report.__dict__, "counts_match": report.counts_match, "retrieval_matches": report.retrieval_matches}
    emit(out, as_json, lambda r: click.echo(report.summary()))
    if not report.ok:
        sys.exit(1)
