"""Replay stored requests under another brain.yml and say what would change (seed §0 "可回归", §5).

    report = replay_contexts(brain, load_config("other.yml"), session_id="s1")
    print(report.text())                 # per request and in total; report.model_dump() for --json
    print(replay_commits(brain, load_config("other.yml"), session_id="s1").text())

contexts.py  replay_contexts: stored compose_context requests composed again, packages diffed
diff.py      what differs between two compose outcomes (evidence, tokens, recent turns, plans…)
commits.py   replay_commits: a session's turns committed again in a scratch namespace, memory diffed
report.py    the report models and their text
cli.py       the ``graphbrain replay`` / ``replay-commits`` entry points
"""

from graphbrain.replay.cli import main_replay, main_replay_commits
from graphbrain.replay.commits import drop_scratch, replay_commits, scratch_namespace
from graphbrain.replay.contexts import parse_since, replay_contexts
from graphbrain.replay.report import (
    BASELINES,
    Baseline,
    CommitReplayReport,
    ContextReplay,
    EvidenceDelta,
    EvidenceDiff,
    MemoryChange,
    PlanDiff,
    RecentTurnsDiff,
    ReplayReport,
    SlotDelta,
    TokenDiff,
    ValueChange,
)

__all__ = [
    "BASELINES",
    "Baseline",
    "CommitReplayReport",
    "ContextReplay",
    "EvidenceDelta",
    "EvidenceDiff",
    "MemoryChange",
    "PlanDiff",
    "RecentTurnsDiff",
    "ReplayReport",
    "SlotDelta",
    "TokenDiff",
    "ValueChange",
    "drop_scratch",
    "main_replay",
    "main_replay_commits",
    "parse_since",
    "replay_commits",
    "replay_contexts",
    "scratch_namespace",
]
