"""The ``graphbrain`` click group and what every command shares: its options, clean errors, opening a Brain."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import click

from graphbrain.errors import GraphbrainError

if TYPE_CHECKING:
    from graphbrain.brain import Brain

F = TypeVar("F", bound=Callable[..., Any])

namespace_option = click.option("--namespace", default=None, help="Tenant scope (overrides brain.yml's namespace).")
json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="brain.yml to use (default: $GRAPHBRAIN_CONFIG or ./brain.yml).",
)


def choice_option(*decls: str, choices: Sequence[str], help: str | None = None) -> Callable[[F], F]:
    """An option taking one of ``choices``, the first of them by default (and --help says so)."""
    return click.option(*decls, type=click.Choice(choices), default=choices[0], show_default=True, help=help)


def fail_cleanly(fn: F) -> F:
    """A GraphbrainError ends the command with its message in red on stderr and exit status 1."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphbrainError as e:
            click.secho(f"error: {e}", fg="red", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def common(fn: F) -> F:
    """--config / --namespace / --json on every command, and GraphbrainError → a clean exit 1."""
    return config_option(namespace_option(json_option(fail_cleanly(fn))))


def open_brain(config_path: str | None, namespace: str | None, *, check_schema: bool = True) -> Brain:
    from graphbrain import Brain

    overrides = {"namespace": namespace} if namespace else None
    return Brain.from_config(config_path, overrides=overrides, check_schema=check_schema)


def confirm(question: str, yes: bool) -> None:
    """Ask before something that cannot be undone (abort on "n"), unless --yes."""
    if not yes:
        click.confirm(question, abort=True, err=True)


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


def run() -> None:
    """The ``graphbrain`` command's entry point: this process is graphbrain's own (``graphbrain.heap``), so a
    brain warmed up in it freezes what its models loaded. Tests call ``main`` and leave their process alone."""
    from graphbrain import heap

    heap.own_process()
    main()
