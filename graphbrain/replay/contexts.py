"""replay_contexts: compose stored requests again under another config and diff the packages.

Stored compose_context requests (ContextTrace nodes: session, user message, agent_state, namespace) are
selected by ``context_id``, by session, since a time or the last N, and each is composed again with
``store_trace=False`` and ``now=`` the original ``created_at``. The composer hands that ``now`` to the
executor too, so time phrases ("last week") resolve to the same range and retrieval measures recency
against the moment of the original request: the same graph and config give the same package, whatever
the wall clock says. A replay only reads: the graph is not changed.

What "difference" means (the comparison itself: graphbrain/replay/diff.py):

- ``baseline="fresh"`` (the default): the request is composed twice now, with the brain's own config
  (the baseline) and with ``other`` (the candidate), and the report diffs candidate against baseline.
  Both runs see the same graph, so every difference is the config's doing. The stored outcome is also
  compared with the fresh baseline; what differs is reported as ``drift`` (the graph changed since the
  request — e.g. later turns now in the recent window — or the brain's config is not the one that
  served it: compare ``stored_fingerprint`` with ``baseline_fingerprint``).
- ``baseline="stored"``: the candidate is diffed against the stored outcome itself — the stored package
  when ``store_contexts`` was on, else the trace's evidence, budget figures, drops, ignored fields and
  planner (plus the plans when ``store_plans`` was on; recent turns are then not comparable). Config
  effects and graph changes since the request are mixed in this mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from graphbrain.brain import Brain, load_embedder, load_english_embedder
from graphbrain.config import BrainConfig
from graphbrain.contracts import ContextPackage
from graphbrain.errors import GraphbrainError, InputError
from graphbrain.replay.diff import Outcome, diff_outcomes, drift_lines
from graphbrain.replay.report import BASELINES, Baseline, ContextReplay, ReplayReport, ReplayTotals
from graphbrain.store.json_props import loads_object

# A replay re-runs every request it selects; this caps a selection without --last.
MAX_REQUESTS = 1000


def _compose(brain: Brain, config: BrainConfig, request: Mapping[str, Any], created_at: datetime) -> ContextPackage:
    """The request composed again under ``config``, over ``brain``'s store (and its journal, read only
    if the graph goes away mid-replay), with ``config``'s own models, as of ``created_at``."""
    from graphbrain.compose.composer import Composer
    from graphbrain.retrieve.executor import Executor

    executor = Executor(config, brain.store, lambda: load_embedder(config), lambda: load_english_embedder(config))
    return Composer(config, brain.store, brain.journal_if_on, executor).compose(
        str(request.get("session_id") or ""),
        str(request.get("user_message") or ""),
        request.get("agent_state") or None,
        namespace=str(request.get("namespace") or config.namespace),
        now=created_at,
        store_trace=False,
    )


def _aware(dt: datetime) -> datetime:
    """UTC with a fixed offset. A naive value means UTC; a zone-named one (the driver returns pytz UTC)
    is converted, because Cypher does not order a zone-id DATETIME against the stored offset ones."""
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def parse_since(since: str | datetime | None) -> datetime | None:
    """``--since``: an ISO date or date-time (naive means UTC)."""
    if since is None or isinstance(since, datetime):
        return _aware(since) if since else None
    try:
        return _aware(datetime.fromisoformat(since.strip().replace("Z", "+00:00")))
    except ValueError as e:
        raise InputError(
            f"since: not an ISO date or date-time: {since!r}", [{"field": "since", "reason": "not ISO 8601"}]
        ) from e


def _select(
    brain: Brain,
    *,
    context_id: str | None,
    session_id: str | None,
    since: datetime | None,
    last: int | None,
) -> list[dict[str, Any]]:
    ns = brain.namespace
    if context_id is not None:
        if session_id is not None or since is not None or last is not None:
            raise InputError(
                "context_id selects one request: give it alone (not with session, since or last)",
                [{"field": "context_id", "reason": "combined with another selector"}],
            )
        rows = brain.store.run("replay/context_trace", {"context_id": context_id, "namespace": ns})
        if not rows:
            raise InputError(
                f"no stored context {context_id!r} in namespace {ns!r}",
                [{"field": "context_id", "reason": "not found"}],
            )
        return rows
    if last is not None and last < 1:
        raise InputError("last: must be at least 1", [{"field": "last", "reason": "< 1"}])
    rows = brain.store.run(
        "replay/context_traces",
        {"namespace": ns, "session_id": session_id, "since": since, "limit": min(last or MAX_REQUESTS, MAX_REQUESTS)},
    )
    return list(reversed(rows))  # the query gives newest first; replay in the order they happened


def replay_contexts(
    brain: Brain,
    other_config: BrainConfig,
    *,
    context_id: str | None = None,
    session_id: str | None = None,
    since: str | datetime | None = None,
    last: int | None = None,
    baseline: Baseline = "fresh",
) -> ReplayReport:
    """Re-run stored compose_context requests of ``brain``'s namespace under ``other_config``.

    Selectors combine (session and since and last); ``context_id`` stands alone; none selects the
    namespace's requests (up to ``MAX_REQUESTS``, the newest). The graph is only read. ``other_config``'s
    storage settings are not used: both runs read ``brain.store``.
    """
    if baseline not in BASELINES:
        raise InputError(
            f"baseline: one of {', '.join(BASELINES)}", [{"field": "baseline", "reason": f"unknown {baseline!r}"}]
        )
    rows = _select(brain, context_id=context_id, session_id=session_id, since=parse_since(since), last=last)
    report = ReplayReport(
        namespace=brain.namespace,
        baseline=baseline,
        baseline_fingerprint=brain.config.fingerprint(),
        other_fingerprint=other_config.fingerprint(),
    )
    if other_config.storage != brain.config.storage:
        report.notes.append("the other config's storage settings are ignored: the replay reads this brain's graph")
    if not rows:
        report.notes.append("no stored requests matched (are traces on? observability.trace, trace_sample)")
    if len(rows) == MAX_REQUESTS and last is None:
        report.notes.append(f"only the newest {MAX_REQUESTS} requests were replayed")
    for row in rows:
        report.requests.append(_replay_one(brain, other_config, row, baseline))
    report.totals = _totals(report.requests)
    return report


def _replay_one(brain: Brain, other: BrainConfig, row: Mapping[str, Any], baseline: Baseline) -> ContextReplay:
    request = loads_object(row.get("request"))
    created_at = _aware(row["created_at"])
    out = ContextReplay(
        context_id=str(row["context_id"]),
        session_id=str(request.get("session_id") or row.get("session_id") or ""),
        user_message=str(request.get("user_message") or ""),
        created_at=created_at,
        stored_fingerprint=row.get("config_fingerprint"),
        baseline=baseline,
    )
    if baseline == "fresh" and out.stored_fingerprint and out.stored_fingerprint != brain.config.fingerprint():
        out.notes.append(
            f"served by config {out.stored_fingerprint}, not the baseline's {brain.config.fingerprint()}: "
            "drift may be config as well as graph"
        )
    try:
        stored = Outcome.of_stored(row)
        candidate = Outcome.of_package(_compose(brain, other, request, created_at))
        if baseline == "fresh":
            fresh = Outcome.of_package(_compose(brain, brain.config, request, created_at))
            diff = diff_outcomes(fresh, candidate)
            drift = diff_outcomes(stored, fresh)
            out.drift = drift_lines(drift) if drift.changed() else []
        else:
            diff = diff_outcomes(stored, candidate)
            out.notes += stored.notes
    except GraphbrainError as e:
        # One bad stored request (say, a message the validation now refuses) must not stop the rest.
        out.error = f"{type(e).__name__}: {e}"
        return out
    out.evidence, out.tokens, out.recent_turns = diff.evidence, diff.tokens, diff.recent_turns
    out.plans, out.ignored_fields = diff.plans, diff.ignored
    out.changed = diff.changed()
    return out


def _totals(requests: Sequence[ContextReplay]) -> ReplayTotals:
    t = ReplayTotals(requests=len(requests))
    for r in requests:
        if r.error:
            t.errors += 1
            continue
        t.changed += int(r.changed)
        t.drifted += int(bool(r.drift))
        t.evidence_added += len(r.evidence.added)
        t.evidence_dropped += len(r.evidence.dropped)
        t.evidence_reordered += len(r.evidence.reordered)
        t.evidence_rescored += len(r.evidence.rescored)
        used = r.tokens.used_estimate
        if used is not None:
            t.tokens_used_delta += int(used.new or 0) - int(used.old or 0)
        t.plans_changed += int(r.plans is not None and not r.plans.empty())
        t.recent_turns_changed += int(r.recent_turns is not None and not r.recent_turns.empty())
        t.ignored_fields_changed += int(not r.ignored_fields.empty())
    return t
