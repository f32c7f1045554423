"""The ``graphbrain replay`` and ``graphbrain replay-commits`` commands: open the brain, replay, print."""

from __future__ import annotations

import json
import sys

from graphbrain.brain import Brain
from graphbrain.config import load_config
from graphbrain.replay.commits import replay_commits
from graphbrain.replay.contexts import replay_contexts
from graphbrain.replay.report import Baseline, CommitReplayReport, ReplayReport


def _emit(report: ReplayReport | CommitReplayReport, as_json: bool) -> None:
    text = json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2) if as_json else report.text()
    sys.stdout.write(text + "\n")


def main_replay(
    config_path: str | None,
    other_config_path: str,
    *,
    context_id: str | None = None,
    session: str | None = None,
    since: str | None = None,
    last: int | None = None,
    as_json: bool = False,
    baseline: Baseline = "fresh",
) -> int:
    """``graphbrain replay --config other.yml [--context-id ID | --session S | --since DATE | --last N]``.

    ``config_path`` is the brain's own config (its graph, namespace and the fresh baseline); prints the
    report (text or JSON) and returns the exit status: 0 (differences are findings, not failures; bad
    input and store failures raise GraphbrainError).
    """
    other = load_config(other_config_path)
    with Brain.from_config(config_path) as brain:
        report = replay_contexts(
            brain, other, context_id=context_id, session_id=session, since=since, last=last, baseline=baseline
        )
    _emit(report, as_json)
    return 0


def main_replay_commits(config_path: str | None, other_config_path: str, session: str, as_json: bool = False) -> int:
    """``graphbrain replay-commits --config other.yml --session S``: prints the report; returns 0, or 1
    when the scratch namespace could not be deleted completely (the report names it)."""
    other = load_config(other_config_path)
    with Brain.from_config(config_path) as brain:
        report = replay_commits(brain, other, session_id=session)
    _emit(report, as_json)
    return 0 if report.scratch_removed else 1
