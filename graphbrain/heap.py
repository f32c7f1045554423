"""Keep a loaded brain's long-lived Python objects out of the collector's full passes (``gc.freeze``).

Why: once its models and language pipelines have loaded, a process holds ~175k long-lived Python objects
(spaCy's lemma tables and vocabulary, jieba's dictionary, the query library, ...). CPython's full
(generation-2) collection walks them all, 60–145 ms, and what one commit and one compose leave behind
sets one off about once a turn. At 100k items on Neo4j those pauses were most of compose_context's p95
tail and of relational recall's. After ``gc.freeze()`` a full pass walks only what was made since (2–8 ms).

Frozen objects are never collected should they later become cyclic garbage, so only a process that is
graphbrain's own freezes by default: the ``graphbrain`` command (its servers and benches with it) and the
load bench's writer processes call ``own_process()`` first. An application that embeds graphbrain decides
for its own process: ``brain.warm_up(freeze=True)``.
"""

from __future__ import annotations

import gc
import logging

__all__ = ["freeze", "own_process", "owned"]

log = logging.getLogger(__name__)

_owned = False


def own_process() -> None:
    """Say that this process is graphbrain's own (an entry point): ``Brain.warm_up`` then freezes."""
    global _owned
    _owned = True


def owned() -> bool:
    return _owned


def freeze() -> int:
    """Collect once, then move every live object out of later collections; returns how many are frozen."""
    gc.collect()
    gc.freeze()
    count = gc.get_freeze_count()
    log.debug("froze %d objects out of the collector's passes", count)
    return count
