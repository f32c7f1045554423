"""Pure scoring for the benchmarks: recall@k, per-category means, percentiles and ratios.

Nothing here touches a database or a clock, so the figures of a run are a function of the retrieved
ids alone (tested in ``tests/bench/test_scoring.py``).

Conventions:

- A *retrieved list* is one entry per retrieved item, best first: the dialog id the item maps to, or
  ``None`` when it maps to none (a document chunk, an item without provenance). An item occupies its
  rank either way, so ``k`` always counts items, never distinct dialog ids.
- recall@k of a question = |evidence ∩ dialog ids of the first k items| / |evidence|. A question
  without (valid) evidence has no recall and is left out of every mean.
- LoCoMo evidence ids look like ``D1:3`` (session 1, turn 3). Malformed ones are repaired by
  :func:`normalise_dia_ids`: several ids in one string (``"D8:6; D9:17"``), stray spaces, a colon
  after the ``D`` (``"D:11:26"``) and leading zeros (``"D10:05"``) all become canonical ``D<s>:<t>``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "CATEGORY_NAMES",
    "ANSWERABLE",
    "QuestionScore",
    "aggregate",
    "mean",
    "normalise_dia_ids",
    "normalise_evidence",
    "percentile",
    "ratio",
    "recall_at_k",
    "recall_by_k",
    "summarise_latencies",
]

CATEGORY_NAMES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
# The categories with an answer in the dialog: "overall" is their mean (LoCoMo's convention).
ANSWERABLE: tuple[int, ...] = (1, 2, 3, 4)

_DIA_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)


def normalise_dia_ids(raw: str) -> list[str]:
    """Every dialog id written in ``raw``, canonical (``"D8:6; D9:17"`` → ``["D8:6", "D9:17"]``)."""
    return [f"D{int(s)}:{int(t)}" for s, t in _DIA_ID.findall(raw or "")]


def normalise_evidence(raw: Iterable[str], known: Iterable[str] | None = None) -> tuple[list[str], list[str]]:
    """(valid ids, dropped raw strings): canonical, de-duplicated, in order of first appearance.

    With ``known`` (the dialog ids of the conversation), an id that names no turn of it is dropped
    too; a raw string is reported as dropped when nothing valid came out of it.
    """
    known_set = set(known) if known is not None else None
    valid: list[str] = []
    dropped: list[str] = []
    for item in raw:
        found = normalise_dia_ids(str(item))
        good = [d for d in found if known_set is None or d in known_set]
        if not good or len(good) < len(found):
            dropped.append(str(item))
        for d in good:
            if d not in valid:
                valid.append(d)
    return valid, dropped


def recall_at_k(retrieved_ids: Sequence[str | None], evidence_ids: Iterable[str], k: int) -> float | None:
    """Share of ``evidence_ids`` among the dialog ids of the first ``k`` retrieved items (None: no evidence)."""
    if k <= 0:
        raise ValueError("k must be positive")
    evidence = set(evidence_ids)
    if not evidence:
        return None
    top = {d for d in retrieved_ids[:k] if d is not None}
    return len(evidence & top) / len(evidence)


def recall_by_k(
    retrieved_ids: Sequence[str | None], evidence_ids: Iterable[str], ks: Sequence[int]
) -> dict[int, float] | None:
    """recall@k for every k, or None when the question has no evidence."""
    evidence = list(evidence_ids)
    if not evidence:
        return None
    out: dict[int, float] = {}
    for k in ks:
        r = recall_at_k(retrieved_ids, evidence, k)
        assert r is not None
        out[k] = r
    return out


@dataclass(frozen=True)
class QuestionScore:
    """One question's recall per k for one system (``recall`` None: the question has no evidence)."""

    category: int
    recall: Mapping[int, float] | None
    extra: Mapping[str, float] = field(default_factory=dict)


def mean(values: Iterable[float]) -> float | None:
    vals = list(values)
    return sum(vals) / len(vals) if vals else None


def _row(scores: Sequence[QuestionScore], ks: Sequence[int]) -> dict[str, float | int | None]:
    scored = [s for s in scores if s.recall is not None]
    row: dict[str, float | int | None] = {"n": len(scored)}
    for k in ks:
        row[f"r@{k}"] = mean(s.recall[k] for s in scored if s.recall is not None)
    return row


def aggregate(scores: Sequence[QuestionScore], ks: Sequence[int]) -> dict[str, dict[str, float | int | None]]:
    """Mean recall@k per category (``"1"`` … ``"5"``, present ones only) and ``"overall"`` (1–4).

    Each row is ``{"n": scored questions, "r@<k>": mean recall or None}``; questions without evidence
    count in no row.
    """
    out: dict[str, dict[str, float | int | None]] = {}
    for cat in sorted({s.category for s in scores}):
        out[str(cat)] = _row([s for s in scores if s.category == cat], ks)
    out["overall"] = _row([s for s in scores if s.category in ANSWERABLE], ks)
    return out


def percentile(values: Iterable[float], q: float) -> float | None:
    """The ``q``-th percentile (0–100), linear between closest ranks (numpy's default); None if empty."""
    if not 0 <= q <= 100:
        raise ValueError("q must be within [0, 100]")
    vals = sorted(values)
    if not vals:
        return None
    pos = (len(vals) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = math.ceil(pos)
    return vals[lo] + (vals[hi] - vals[lo]) * (pos - lo)


def summarise_latencies(values_ms: Iterable[float]) -> dict[str, float | int | None]:
    """``{"n", "mean", "p50", "p95"}`` of a list of milliseconds (rounded to 0.01 ms)."""
    vals = list(values_ms)

    def r(v: float | None) -> float | None:
        return None if v is None else round(v, 2)

    return {
        "n": len(vals),
        "mean": r(mean(vals)),
        "p50": r(percentile(vals, 50)),
        "p95": r(percentile(vals, 95)),
    }


def ratio(value: float | None, reference: float | None) -> float | None:
    """``value / reference``, or None when either is missing or the reference is zero."""
    if value is None or reference is None or reference == 0:
        return None
    return value / reference
