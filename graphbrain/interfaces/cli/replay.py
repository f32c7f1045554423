"""Replaying under another brain.yml: stored compose_context requests (replay) and stored turns (replay-commits)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

import click

from graphbrain.interfaces.cli.app import F, choice_option, fail_cleanly, json_option, main, namespace_option

if TYPE_CHECKING:
    from graphbrain.replay import Baseline


def two_configs(what: str) -> Callable[[F], F]:
    """--config (the changed brain.yml, required) and --base-config (the brain's own): here --config is the
    config under test, so these commands take the options of ``common`` one by one."""

    other = click.option(
        "--config",
        "other_config",
        required=True,
        type=click.Path(exists=True, dir_okay=False),
        help=f"The changed brain.yml to {what} under.",
    )
    base = click.option(
        "--base-config",
        default=None,
        type=click.Path(exists=True, dir_okay=False),
        help="The brain's own brain.yml (default: $GRAPHBRAIN_CONFIG or ./brain.yml).",
    )
    return lambda fn: other(base(fn))


def exit_with(namespace: str | None, run: Callable[[], int]) -> NoReturn:
    """Run a replay in --namespace and exit with its status."""
    if namespace:
        os.environ["GRAPHBRAIN_NAMESPACE"] = namespace  # the documented override, for both configs
    sys.exit(run())


@main.command()
@two_configs("replay")
@click.option("--context-id", default=None, help="Replay one stored request.")
@click.option("--session", default=None, help="Replay a session's stored requests.")
@click.option("--since", default=None, help="Replay requests since this ISO date.")
@click.option("--last", type=int, default=None, help="Replay the last N requests.")
@choice_option(
    "--baseline",
    choices=["fresh", "stored"],
    help="fresh: both configs re-run now (isolates the config); stored: diff against what was served.",
)
@namespace_option
@json_option
@fail_cleanly
def replay(
    other_config: str,
    base_config: str | None,
    context_id: str | None,
    session: str | None,
    since: str | None,
    last: int | None,
    baseline: Baseline,
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
    from graphbrain.replay import main_replay

    exit_with(
        namespace,
        lambda: main_replay(
            base_config,
            other_config,
            context_id=context_id,
            session=session,
            since=since,
            last=last,
            as_json=as_json,
            baseline=baseline,
        ),
    )


@main.command("replay-commits")
@two_configs("re-extract")
@click.option("--session", required=True, help="The session whose stored turns are re-extracted.")
@namespace_option
@json_option
@fail_cleanly
def replay_commits(
    other_config: str, base_config: str | None, session: str, namespace: str | None, as_json: bool
) -> None:
    """Re-extract a session's stored turns under another brain.yml (in a scratch namespace) and diff
    the memory items written (type, key, status, confidence) against what is stored.

    \b
    Example:
      graphbrain replay-commits --config stricter.yml --session s1
    """
    from graphbrain.replay import main_replay_commits

    exit_with(namespace, lambda: main_replay_commits(base_config, other_config, session, as_json))
