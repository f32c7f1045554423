"""Fusion: many ranked lists (one per query and mode) into one deduplicated candidate list.

Input is one ``RankedList`` per (query, mode) the executor ran, each best first. Items are the same
when their ``Candidate.dedup_key`` is (seed §3.4). Three methods, as ``ranking.fusion.method``:

- ``rrf`` (default): ``score = Σ w / (k + rank)`` over the lists that hold the item, where ``rank`` is
  the 1-based position in the list and ``w = query weight × mode weight`` (``fusion.weights`` keyed
  by mode name, default 1.0). Robust to backends whose raw scores are not comparable.
- ``weighted_sum``: ``score = Σ w × norm(raw_score)``, ``norm`` per backend (``normalised``): the share
  of the best for graph lists, a per-list min-max for full-text and vector lists.
- ``none``: the lists concatenated in order, first occurrence kept; ``score`` is the position mapped
  onto (0, 1] so that anything sorting by score later keeps this order.

The fused candidate is a copy of the occurrence with the largest contribution (the "strongest
provenance", CONTRACTS §4): its mode, query and rank become the provenance. Per-backend signals
(``fts_*`` for exact, ``vector_*`` for semantic, ``graph_*`` for relational) keep the best value over
all occurrences (highest score, lowest rank); every occurrence is listed in ``Candidate.hits``.
Ties are broken by id, so the result depends only on the input.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from graphbrain.contracts import Fusion, Mode
from graphbrain.retrieve.candidate import Candidate

Backend = Literal["fts", "vector", "graph"]

# Which backend's signals a mode's raw scores are; hybrid/associative lists name theirs explicitly
# (``RankedList.backend``) or inherit it from the candidates' own mode.
BACKEND_OF_MODE: dict[Mode, Backend] = {
    Mode.exact: "fts",
    Mode.semantic: "vector",
    Mode.relational: "graph",
}
MODE_OF_BACKEND: dict[Backend, Mode] = {b: m for m, b in BACKEND_OF_MODE.items()}

DEFAULT_RRF_K = 60


@dataclass
class RankedList:
    """One retriever's answer for one query: candidates best first."""

    mode: Mode  # the provenance mode reported for hits of this list
    query_index: int
    weight: float  # the query's weight
    candidates: list[Candidate] = field(default_factory=list)
    query_text: str = ""  # default: each candidate's own query_text
    backend: Backend | None = None  # whose signals raw_score is; default derived from the mode


# (list, 1-based position, candidate) -> this occurrence's contribution to the fused score
_Contribution = Callable[[RankedList, int, Candidate], float]


def _mode_key(mode: Mode | str) -> str:
    return mode.value if isinstance(mode, Mode) else str(mode)


def _backend(lst: RankedList, cand: Candidate) -> Backend | None:
    return lst.backend or BACKEND_OF_MODE.get(lst.mode) or BACKEND_OF_MODE.get(cand.mode)


def mode_weight(lst: RankedList, weights: Mapping[str, float] | None) -> float:
    """The mode weight of a list: ``weights[mode]``, else ``weights[mode of its backend]``, else 1.0."""
    if not weights:
        return 1.0
    key = _mode_key(lst.mode)
    if key in weights:
        return float(weights[key])
    backend = lst.backend or BACKEND_OF_MODE.get(lst.mode)
    if backend is not None and MODE_OF_BACKEND[backend].value in weights:
        return float(weights[MODE_OF_BACKEND[backend].value])
    return 1.0


def _keep_best(signals: dict[str, float | int], name: str, value: float | int) -> None:
    """Ranks keep the lowest value, scores the highest."""
    old = signals.get(name)
    if old is None:
        signals[name] = value
    elif name.endswith("_rank"):
        signals[name] = min(old, value)
    else:
        signals[name] = max(old, value)


@dataclass
class _Acc:
    best: Candidate
    best_list: RankedList
    best_pos: int
    best_contribution: float
    score: float = 0.0
    signals: dict[str, float | int] = field(default_factory=dict)
    hits: list[dict[str, Any]] = field(default_factory=list)
    path: list[str] | None = None  # the first explanation path any occurrence carried


def _accumulate(lists: Sequence[RankedList], contribution: _Contribution) -> dict[str, _Acc]:
    """Walk every occurrence once, in list order: sum contributions, keep the strongest, merge signals.

    A dedup key seen twice within one list counts once (its better-ranked occurrence).
    """
    accs: dict[str, _Acc] = {}
    for lst in lists:
        seen: set[str] = set()
        for pos, cand in enumerate(lst.candidates, start=1):
            key = cand.dedup_key
            if key in seen:
                continue
            seen.add(key)
            c = contribution(lst, pos, cand)
            acc = accs.get(key)
            if acc is None:
                acc = accs[key] = _Acc(best=cand, best_list=lst, best_pos=pos, best_contribution=c)
            elif c > acc.best_contribution:
                acc.best, acc.best_list, acc.best_pos, acc.best_contribution = cand, lst, pos, c
            acc.score += c
            if acc.path is None and cand.path:
                acc.path = cand.path
            for name, value in cand.signals.items():
                _keep_best(acc.signals, name, value)
            backend = _backend(lst, cand)
            if backend is not None:
                _keep_best(acc.signals, f"{backend}_score", cand.raw_score)
                _keep_best(acc.signals, f"{backend}_rank", pos)
            acc.hits.append(
                {
                    "mode": _mode_key(lst.mode),
                    "query_index": lst.query_index,
                    "rank": pos,
                    "raw_score": cand.raw_score,
                    "contribution": c,
                }
            )
    return accs


def _materialise(acc: _Acc, score: float) -> Candidate:
    """A fresh Candidate: the strongest occurrence, its provenance, the fused score and merged signals.

    A shallow copy with its own mutable fields (``dataclasses.replace`` re-runs ``__init__`` and costs
    ten times as much, for thousands of candidates per plan). The path explains the item whichever list
    found it: a hit the walk reached keeps its path even when another mode's occurrence is stronger.
    """
    lst = acc.best_list
    out = copy.copy(acc.best)
    out.mode = lst.mode
    out.query_index = lst.query_index
    out.query_text = lst.query_text or acc.best.query_text
    out.weight = lst.weight
    out.rank = acc.best_pos
    out.metadata = dict(acc.best.metadata)
    out.signals = dict(acc.signals)
    out.hits = list(acc.hits)
    out.entities = list(acc.best.entities)
    out.tags = list(acc.best.tags)
    out.topics = list(acc.best.topics)
    out.features = dict(acc.best.features)
    out.path = acc.best.path or acc.path
    out.score = score
    return out


def _sorted(cands: list[Candidate]) -> list[Candidate]:
    return sorted(cands, key=lambda c: (-c.score, c.id))


def check_rrf_k(k: int) -> int:
    """``k`` if it is a valid reciprocal-rank-fusion constant (>= 1), else ValueError."""
    if k < 1:
        raise ValueError("rrf k must be >= 1")
    return k


def reciprocal_rank(rank: int, k: int = DEFAULT_RRF_K, weight: float = 1.0) -> float:
    """One ranked occurrence's share of reciprocal rank fusion: ``weight / (k + rank)``, rank 1 the best.

    The one formula behind ``rrf`` here and the flat baselines' fusion of id rankings (bench/baselines).
    """
    return weight / (k + rank)


def rrf(
    lists: Sequence[RankedList], k: int = DEFAULT_RRF_K, mode_weights: Mapping[str, float] | None = None
) -> list[Candidate]:
    """Reciprocal rank fusion: ``Σ weight × mode_weight / (k + rank)``; records ``rrf_score``."""
    check_rrf_k(k)

    def contribution(lst: RankedList, pos: int, _: Candidate) -> float:
        return reciprocal_rank(pos, k, lst.weight * mode_weight(lst, mode_weights))

    out = []
    for acc in _accumulate(lists, contribution).values():
        cand = _materialise(acc, acc.score)
        cand.signals["rrf_score"] = acc.score
        out.append(cand)
    return _sorted(out)


def normalised(lst: RankedList, cand: Candidate, bounds: tuple[float, float]) -> float:
    """A raw score on [0, 1], the way its backend's scores compare.

    - graph (PageRank mass): the share of the list's best;
    - full text (BM25, whose scale depends on the query) and vectors (whose cosines sit on a different
      band for each model: unrelated sentences score ~0.1 with the multilingual model, ~0.5 with
      bge-small-en): min-max within the list (1.0 when all are equal). Measured on LoCoMo dev, min-max
      beat the raw cosine for bge (R@10 0.824 vs 0.795) and tied it for MiniLM.
    """
    backend = _backend(lst, cand)
    lo, hi = bounds
    if backend == "graph":
        return cand.raw_score / hi if hi > 0 else 0.0
    return (cand.raw_score - lo) / (hi - lo) if hi > lo else 1.0


def weighted_sum(lists: Sequence[RankedList], weights: Mapping[str, float] | None = None) -> list[Candidate]:
    """``Σ query weight × mode weight × normalised(raw_score)`` (``normalised``: per backend)."""
    bounds: dict[int, tuple[float, float]] = {}
    for i, lst in enumerate(lists):
        raws = [c.raw_score for c in lst.candidates]
        bounds[i] = (min(raws), max(raws)) if raws else (0.0, 0.0)
    index = {id(lst): i for i, lst in enumerate(lists)}

    def contribution(lst: RankedList, _: int, cand: Candidate) -> float:
        return lst.weight * mode_weight(lst, weights) * normalised(lst, cand, bounds[index[id(lst)]])

    return _sorted([_materialise(acc, acc.score) for acc in _accumulate(lists, contribution).values()])


def concatenate(lists: Sequence[RankedList]) -> list[Candidate]:
    """Fusion ``none``: lists in order, first occurrence of each item kept, position-based score."""
    accs = _accumulate(lists, lambda lst, pos, cand: 0.0)
    # with every contribution 0 the first occurrence stays the strongest; dicts keep insertion order
    n = len(accs)
    return [_materialise(acc, 1.0 - i / n) for i, acc in enumerate(accs.values())]


def fuse(lists: Sequence[RankedList], fusion: Fusion) -> tuple[list[Candidate], dict[str, Any]]:
    """Fuse by ``fusion.method`` and say how, for ``EvidencePack.explain.fusion``."""
    weights = dict(fusion.weights)
    if fusion.method == "rrf":
        fused = rrf(lists, fusion.rrf_k, weights)
    elif fusion.method == "weighted_sum":
        fused = weighted_sum(lists, weights)
    else:
        fused = concatenate(lists)
    effective = {_mode_key(lst.mode): mode_weight(lst, weights) for lst in lists}
    explain: dict[str, Any] = {
        "method": fusion.method,
        "rrf_k": fusion.rrf_k if fusion.method == "rrf" else None,
        "weights": {**weights, **effective} if fusion.method != "none" else {},
        "lists": len(lists),
        "candidates_in": sum(len(lst.candidates) for lst in lists),
        "unique": len(fused),
    }
    return fused, explain
