"""The graphbrain command line (click). Every command has --help, --config and --json."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from graphbrain.errors import GraphbrainError

F = TypeVar("F", bound=Callable[..., Any])


def _emit(obj: Any, as_json: bool, human: Callable[[Any], None] | None = None) -> None:
    if as_json or human is None:
        click.echo(json.dumps(obj, ensure_ascii=False, indent=2, default=str))
    else:
        human(obj)


def common(fn: F) -> F:
    """--config / --namespace / --json on every command, and GraphbrainError → a clean exit 1."""

    @click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
                  help="brain.yml to use (default: $GRAPHBRAIN_CONFIG or ./brain.yml).")
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


def open_brain(config_path: str | None, namespace: str | None, *, check_schema: bool = True) -> Any:
    from graphbrain import Brain

    overrides = {"namespace": namespace} if namespace else None
    return Brain.from_config(config_path, overrides=overrides, check_schema=check_schema)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="graphbrain")
def main() -> None:
    """graphbrain: a Neo4j-backed knowledge memory for LLM agents.

    An agent calls commit_turn after every turn and compose_context before every model call.
    Start with `graphbrain init`, then `graphbrain demo`.
    """


@main.command()
@common
def init(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Create every constraint and index (safe to run twice) and wait until they are ONLINE."""
    with open_brain(config_path, namespace, check_schema=False) as brain:
        report = brain.init_schema()
        out = {"schema_version": report.version, "statements": report.statements,
               "indexes": [{"name": i["name"], "type": i["type"], "state": i["state"]} for i in report.indexes]}

        def human(o: dict[str, Any]) -> None:
            click.echo(f"schema version {o['schema_version']}: {o['statements']} statements applied")
            for i in o["indexes"]:
                click.echo(f"  {i['state']:<8} {i['type']:<9} {i['name']}")

        _emit(out, as_json, human)


@main.command()
@common
def doctor(config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Check config, Neo4j, schema, indexes, embedding model and spaCy: each line ok or the fix."""
    from graphbrain.doctor import run_checks

    checks = run_checks(config_path, namespace)

    def human(rows: list[dict[str, Any]]) -> None:
        for r in rows:
            mark = click.style("ok  ", fg="green") if r["ok"] else click.style("FAIL", fg="red")
            click.echo(f"{mark} {r['check']}: {r['detail']}")

    _emit(checks, as_json, human)
    if not all(r["ok"] for r in checks):
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
