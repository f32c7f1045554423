"""Observability traces: read one by id, prune old ones.

    get_commit_trace(store, "acme", "commit_0f3a...")     # what one commit_turn wrote and why
    get_context_trace(store, "acme", "ctx_91b2...")       # what one compose_context chose and dropped
    prune_traces(store, "acme", older_than_days=30, keep_last=1000)

Each commit_turn leaves a CommitTrace and each compose_context a ContextTrace; they grow without bound,
so ``prune_traces`` drops the old ones in batches. A pruned CommitTrace only means a replayed turn is
reported as a duplicate without its original result.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

from graphbrain.admin.memory import FORGET_BATCH, check_ref, loads_json, require_namespace
from graphbrain.errors import InputError
from graphbrain.store import Store

__all__ = ["get_commit_trace", "get_context_trace", "prune_traces"]

MAX_KEEP = 10_000_000


def get_commit_trace(store: Store, namespace: str, commit_id: str) -> dict[str, Any] | None:
    """The CommitTrace of a commit_id in the namespace (``result`` is the CommitResult), or None."""
    return _trace(store, "traces/get_commit_trace", namespace, "commit_id", commit_id, ("result",))


def get_context_trace(store: Store, namespace: str, context_id: str) -> dict[str, Any] | None:
    """The ContextTrace of a context_id in the namespace (request, plans, package, trace), or None."""
    return _trace(
        store,
        "compose/get_context_trace",
        namespace,
        "context_id",
        context_id,
        ("request", "plans", "package", "trace"),
    )


def _trace(
    store: Store, query: str, namespace: str, key: str, ref: str, json_fields: tuple[str, ...]
) -> dict[str, Any] | None:
    """The one trace ``query`` finds by ``key`` = ``ref`` in the namespace, its ``json_fields`` decoded."""
    require_namespace(namespace)
    rows = store.run(query, {"namespace": namespace, key: check_ref(ref, key)})
    if not rows:
        return None
    return {k: loads_json(v) if k in json_fields else v for k, v in rows[0].items()}


def prune_traces(
    store: Store, namespace: str, *, older_than_days: float | None = None, keep_last: int | None = None
) -> dict[str, Any]:
    """Delete the namespace's commit and context traces older than ``older_than_days``, always keeping the
    ``keep_last`` newest of each kind; with only ``keep_last``, everything but those goes.

    Returns ``{"namespace", "cutoff", "keep_last", "commit_traces", "context_traces"}`` (counts deleted).
    """
    require_namespace(namespace)
    if older_than_days is None and keep_last is None:
        raise InputError("prune_traces: give older_than_days, keep_last or both")
    cutoff: datetime | None = None
    if older_than_days is not None:
        if (
            isinstance(older_than_days, bool)
            or not isinstance(older_than_days, int | float)
            or not math.isfinite(older_than_days)
            or older_than_days < 0
        ):
            raise InputError("older_than_days: a number >= 0")
        cutoff = datetime.now(UTC) - timedelta(days=older_than_days)
    if keep_last is not None and (
        isinstance(keep_last, bool) or not isinstance(keep_last, int) or not 0 <= keep_last <= MAX_KEEP
    ):
        raise InputError(f"keep_last: an integer from 0 to {MAX_KEEP}")
    params = {"namespace": namespace, "cutoff": cutoff, "keep": keep_last or 0, "batch": FORGET_BATCH}
    out: dict[str, Any] = {"namespace": namespace, "cutoff": cutoff, "keep_last": keep_last}
    for kind, query in (
        ("commit_traces", "admin/prune_commit_traces"),
        ("context_traces", "admin/prune_context_traces"),
    ):
        total = 0
        while True:
            n = int(store.run(query, params, write=True)[0]["deleted"])
            total += n
            if n == 0:
                break
        out[kind] = total
    return out
