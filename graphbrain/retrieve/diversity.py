"""Diversity and quotas: keep one document or source from crowding out the rest (seed §4.3–4.4, plan §5).

``apply_diversity`` is the executor's pass (``budget.diversity``, ``per_mode_k``, ``top_k``);
``ratio_select`` is compose_context's memory/resource split (``memory_resource_ratio``, default 40/60).
Both are greedy and keep the incoming order: the caller passes candidates best first (reranked and
tie-broken), and re-sorting here would undo the tie-break. Every dropped item is reported as
``{"id", "reason", "rule", "score"}`` so the explain/debug output can say why it is missing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from graphbrain.contracts import Mode
from graphbrain.retrieve.candidate import Candidate

# Adaptive ratio (seed §4.4 "若 memory 命中更高可自适应"): when memory's best score beats resource's best
# by more than the margin, memory's share grows by the shift, up to the cap.
ADAPTIVE_MARGIN = 0.1
ADAPTIVE_SHIFT = 0.2
ADAPTIVE_MAX_SHARE = 0.8


def _dropped(c: Candidate, reason: str, rule: str) -> dict[str, Any]:
    return {"id": c.id, "reason": reason, "rule": rule, "score": c.score}


def _mode_key(mode: Mode | str) -> str:
    return mode.value if isinstance(mode, Mode) else str(mode)


def found_by(c: Candidate) -> list[str]:
    """The modes that found a candidate, strongest first: its provenance mode, its other fused hits by
    contribution, and relational when the graph spread lifted it (a neighbour's or a bridge's share)."""
    out = [_mode_key(c.mode)]
    for hit in sorted(c.hits, key=lambda h: -float(h.get("contribution") or 0.0)):
        out.append(str(hit["mode"]))
    if "bridge_score" in c.signals or "neighbour_score" in c.signals:
        out.append(Mode.relational.value)
    return list(dict.fromkeys(out))


def _quota_mode(c: Candidate, quotas: Mapping[str, int], used: Counter[str]) -> str:
    """The mode an item counts against: the first mode that found it whose quota has room (else its own)."""
    for mode in found_by(c):
        if mode not in quotas or used[mode] < quotas[mode]:
            return mode
    return _mode_key(c.mode)


def apply_diversity(
    candidates: Sequence[Candidate],
    *,
    by_document: int | None = None,
    by_source: int | None = None,
    by_section: int | None = None,
    per_mode_k: Mapping[Mode | str, int] | None = None,
    top_k: int | None = None,
) -> tuple[list[Candidate], list[dict[str, Any]]]:
    """Keep candidates in order while every cap holds; stop at ``top_k``.

    Caps (``None`` = no cap): at most ``by_document`` per ``document_id`` (items without one, i.e.
    memory and turns, are not counted), ``by_source`` per ``source_uri`` (empty URIs not counted),
    ``by_section`` per (``document_id``, ``section_id``), and ``per_mode_k[mode]`` per mode (modes not named
    are unlimited): an item counts against the first mode that found it with room (``found_by``: its
    provenance mode first), and takes that mode as its provenance — so an item two modes found is not
    dropped because the stronger one's quota filled first. Reasons: ``diversity:by_document`` /
    ``diversity:by_source`` /
    ``diversity:by_section``, ``budget:per_mode_k``, ``budget:top_k`` (everything after the top_k-th
    kept item).
    """
    quotas = {_mode_key(m): k for m, k in (per_mode_k or {}).items()}
    docs: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    sections: Counter[tuple[str, str]] = Counter()
    modes: Counter[str] = Counter()
    kept: list[Candidate] = []
    dropped: list[dict[str, Any]] = []
    for c in candidates:
        mode = _quota_mode(c, quotas, modes)
        section = (c.document_id, c.section_id) if c.document_id and c.section_id else None
        if top_k is not None and len(kept) >= top_k:
            dropped.append(_dropped(c, "budget:top_k", f"top_k={top_k}"))
        elif by_document is not None and c.document_id and docs[c.document_id] >= by_document:
            dropped.append(_dropped(c, "diversity:by_document", f"by_document={by_document}"))
        elif by_source is not None and c.source_uri and sources[c.source_uri] >= by_source:
            dropped.append(_dropped(c, "diversity:by_source", f"by_source={by_source}"))
        elif by_section is not None and section is not None and sections[section] >= by_section:
            dropped.append(_dropped(c, "diversity:by_section", f"by_section={by_section}"))
        elif mode in quotas and modes[mode] >= quotas[mode]:
            dropped.append(_dropped(c, "budget:per_mode_k", f"per_mode_k.{mode}={quotas[mode]}"))
        else:
            if mode != _mode_key(c.mode):
                c.mode = Mode(mode)
            kept.append(c)
            if c.document_id:
                docs[c.document_id] += 1
            if c.source_uri:
                sources[c.source_uri] += 1
            if section is not None:
                sections[section] += 1
            modes[mode] += 1
    return kept, dropped


def effective_memory_share(
    memory: Sequence[Candidate],
    resource: Sequence[Candidate],
    memory_share: float,
    adaptive: bool,
    *,
    margin: float = ADAPTIVE_MARGIN,
    shift: float = ADAPTIVE_SHIFT,
    max_share: float = ADAPTIVE_MAX_SHARE,
) -> float:
    """The memory share ``ratio_select`` uses.

    Adaptive rule: if both sides have candidates and ``top memory score − top resource score > margin``
    (scores must be comparable, i.e. from the cross-source rerank), the share becomes
    ``min(max(memory_share, max_share), memory_share + shift)`` — it grows by ``shift`` but never past
    ``max_share`` (nor is a configured share above the cap lowered). Otherwise it is unchanged.
    """
    if not 0.0 <= memory_share <= 1.0:
        raise ValueError("memory_share must be within [0, 1]")
    if adaptive and memory and resource:
        top_mem = max(c.score for c in memory)
        top_res = max(c.score for c in resource)
        if top_mem - top_res > margin:
            return min(max(memory_share, max_share), memory_share + shift)
    return memory_share


def ratio_select(
    memory: Sequence[Candidate],
    resource: Sequence[Candidate],
    n: int,
    memory_share: float = 0.4,
    adaptive: bool = False,
    *,
    margin: float = ADAPTIVE_MARGIN,
    shift: float = ADAPTIVE_SHIFT,
    max_share: float = ADAPTIVE_MAX_SHARE,
) -> tuple[list[Candidate], list[dict[str, Any]]]:
    """Pick ``n`` items, ``round(n × share)`` from memory (half rounds up) and the rest from resource.

    Each side is taken best first in its own order; a side that runs short leaves its slots to the
    other. The selection comes back sorted by score (stable: memory before resource on equal scores).
    Dropped items say ``diversity:ratio`` when they would have made the top ``n`` without the ratio,
    else ``budget:max_items``. ``share`` is ``effective_memory_share`` (adaptive rule there).
    """
    share = effective_memory_share(
        memory, resource, memory_share, adaptive, margin=margin, shift=shift, max_share=max_share
    )
    n = max(0, n)
    want_mem = min(n, math.floor(n * share + 0.5))
    take_mem = min(want_mem, len(memory))
    take_res = min(n - want_mem, len(resource))
    spare = n - take_mem - take_res
    extra_mem = min(spare, len(memory) - take_mem)
    take_mem += extra_mem
    take_res += min(spare - extra_mem, len(resource) - take_res)

    selected = sorted([*memory[:take_mem], *resource[:take_res]], key=lambda c: -c.score)
    unconstrained = sorted([*memory, *resource], key=lambda c: -c.score)[:n]
    would_fit = {id(c) for c in unconstrained}
    rule = f"memory_share={share:.2f} of n={n} ({take_mem} memory / {take_res} resource)"
    dropped = [
        _dropped(c, "diversity:ratio" if id(c) in would_fit else "budget:max_items", rule)
        for c in [*memory[take_mem:], *resource[take_res:]]
    ]
    return selected, dropped
