"""How the embedding models' onnxruntime sessions use threads: how many, and whether idle ones spin.

onnxruntime's thread pools spin by default: after a run, each worker keeps polling for the next piece
of work instead of sleeping. An embedding model here runs a few milliseconds per question and then
waits, while the database and the rest of compose_context or commit_turn need the same cores. On 2
cores the spinning took ~40 % of a compose's CPU (186 → 110 ms a compose, bench scale's questions on
Neo4j; README, "Speed"). So the sessions graphbrain builds do not spin, unless
``$GRAPHBRAIN_EMBEDDING_SPIN=1`` asks for it (a machine with cores to spare may buy a little latency).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Any

_SPIN_KEYS = ("session.intra_op.allow_spinning", "session.inter_op.allow_spinning")
_PATCH_LOCK = threading.Lock()


def default_threads() -> int:
    """onnxruntime intra-op threads: $GRAPHBRAIN_EMBEDDING_THREADS, else the usable cores (max 8)."""
    env = os.environ.get("GRAPHBRAIN_EMBEDDING_THREADS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def spinning() -> bool:
    """Whether idle onnxruntime workers may spin: only when $GRAPHBRAIN_EMBEDDING_SPIN is 1."""
    return os.environ.get("GRAPHBRAIN_EMBEDDING_SPIN", "").strip() == "1"


def settle(options: Any) -> Any:
    """``options`` (an ``onnxruntime.SessionOptions``) with idle workers sleeping unless ``spinning()``."""
    if not spinning():
        for key in _SPIN_KEYS:
            options.add_session_config_entry(key, "0")
    return options


@contextlib.contextmanager
def settled_fastembed() -> Iterator[None]:
    """While fastembed loads a model, the ``SessionOptions`` it makes are ``settle``d.

    fastembed builds its session's options itself and exposes no spinning setting, so its module's
    ``ort`` is replaced, for the load only, by a view of onnxruntime whose ``SessionOptions`` are
    settled. Nothing else sees it: onnxruntime itself is not changed.
    """
    import fastembed.common.onnx_model as onnx_model

    real = onnx_model.ort

    class _SettledOrt:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        @staticmethod
        def SessionOptions() -> Any:  # noqa: N802 - onnxruntime's name
            return settle(real.SessionOptions())

    with _PATCH_LOCK:
        onnx_model.ort = _SettledOrt()
        try:
            yield
        finally:
            onnx_model.ort = real
