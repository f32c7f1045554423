"""Cross-source rerank (seed §3.4): one comparable ``rerank_score`` for memory and resource candidates.

Two rerankers share the ``Reranker`` base class (it splits the head from the tail; each scores the head):

- ``FeatureReranker`` ("builtin"): deterministic, offline, explainable; the formula is on the class.
- ``CrossEncoderReranker``: a fastembed ``TextCrossEncoder`` loaded from a local model directory.

``get_reranker`` picks one from ``ranking.rerank.model`` and a local model path and falls back to the
builtin reranker, with a warning for ``EvidencePack.warnings``, when the named model cannot run offline.

Both rerank the first ``top_n`` candidates (the caller passes them fused, best first) and return all
candidates: the reranked head sorted by ``rerank_score`` (ties by id), then the tail in its incoming
order with scores compressed below the head's lowest, so later stages that sort by score keep it.
Candidates are updated in place (``score``, ``signals["rerank_score"]``, ``features``).

``tie_break`` then settles near-equal scores by recency or source priority.
"""

from __future__ import annotations

import math
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from graphbrain.retrieve.candidate import Candidate
from graphbrain.retrieve.sifting import named_in
from graphbrain.retrieve.snippets import terms

TieBreaker = Literal["recency", "source_priority", "none"]

BUILTIN = "builtin"

# Seed §6 source priorities, for resources by source_type.
DEFAULT_SOURCE_PRIORITY: dict[str, float] = {"url": 0.9, "file": 1.0, "manual": 0.8, "memory_snapshot": 0.7}
DEFAULT_OTHER_PRIORITY = 0.5  # a source_type with no priority of its own
# A distilled memory item and the turn it came from weigh the same: the item is a summary of that
# turn's evidence, not better evidence (a prior that lifted items above turns buried the answers).
DEFAULT_MEMORY_PRIOR = 0.7
DEFAULT_TURN_PRIOR = 0.7
DEFAULT_HALF_LIFE_DAYS = 30.0
DEFAULT_UNKNOWN_RECENCY = 0.5  # a candidate without a time: neither fresh nor stale
DEFAULT_STATUS_FACTORS: dict[str, float] = {"active": 1.0, "superseded": 0.5, "retracted": 0.2}

# Scores closer than this are "the same" for tie_break: far below any meaningful difference of the
# [0, 1] rerank scores, far above float noise.
TIE_EPSILON = 1e-6

# Text given to a cross-encoder per candidate (its window is ~512 tokens anyway).
CROSS_ENCODER_MAX_CHARS = 2000


# ---------------------------------------------------------------------------------------- the base class
TimeSpan = tuple[datetime | None, datetime | None]


@dataclass(frozen=True, slots=True)
class RerankContext:
    """What a reranker may use besides the query: the caller's entities, clock, priorities and time span."""

    query_entities: Sequence[str] = ()
    now: datetime | None = None
    source_priority: Mapping[str, float] | None = None
    prefer_time: TimeSpan | None = None


class Reranker(ABC):
    """Anything that can give candidates a comparable ``rerank_score`` for a query."""

    name: str

    def rerank(
        self,
        query: str,
        candidates: Sequence[Candidate],
        top_n: int,
        *,
        query_entities: Sequence[str] = (),
        now: datetime | None = None,
        source_priority: Mapping[str, float] | None = None,
        prefer_time: TimeSpan | None = None,
    ) -> list[Candidate]:
        """Rerank the first ``top_n`` candidates; return all, reranked head first (see module doc)."""
        head, tail = _split(candidates, top_n)
        self.score_head(query, head, RerankContext(query_entities, now, source_priority, prefer_time))
        return _finish(head, tail)

    @abstractmethod
    def score_head(self, query: str, head: list[Candidate], ctx: RerankContext) -> None:
        """Set ``score``, ``signals["rerank_score"]`` and ``features`` of every head candidate."""


def _finish(head: list[Candidate], tail: list[Candidate]) -> list[Candidate]:
    """Sort the scored head (score desc, id asc), then place the tail below it, order kept.

    Tail scores: ``floor × (1 − (i+1)/(len(tail)+1))``, strictly decreasing and under the head's lowest
    score ``floor`` (rerank scores are in [0, 1]).
    """
    head = sorted(head, key=lambda c: (-c.score, c.id))
    floor = min((c.score for c in head), default=1.0)
    for i, c in enumerate(tail):
        c.score = floor * (1.0 - (i + 1) / (len(tail) + 1))
    return head + tail


def _split(candidates: Sequence[Candidate], top_n: int) -> tuple[list[Candidate], list[Candidate]]:
    n = max(0, top_n)
    return list(candidates[:n]), list(candidates[n:])


# -------------------------------------------------------------------------------- shared features
def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def in_span(at: datetime | None, span: TimeSpan | None) -> bool:
    """Whether ``at`` falls in ``span`` (either bound open), bounds inclusive; never without a time."""
    if at is None or span is None:
        return False
    lo, hi = span
    t = _aware(at)
    return (lo is None or t >= _aware(lo)) and (hi is None or t <= _aware(hi))


def recency_score(
    at: datetime | None,
    now: datetime,
    half_life_days: float = DEFAULT_HALF_LIFE_DAYS,
    unknown: float = DEFAULT_UNKNOWN_RECENCY,
) -> float:
    """``0.5 ** (age_days / half_life_days)``: 1.0 now, 0.5 one half-life ago; future times count as now."""
    if at is None:
        return unknown
    age_days = max(0.0, (_aware(now) - _aware(at)).total_seconds() / 86400.0)
    return float(0.5 ** (age_days / half_life_days))


def source_priority_of(
    cand: Candidate,
    source_priority: Mapping[str, float] | None = None,
    *,
    memory_prior: float = DEFAULT_MEMORY_PRIOR,
    turn_prior: float = DEFAULT_TURN_PRIOR,
) -> float:
    """The prior of a candidate's source.

    Resources: ``source_priority[source_type]`` (the plan's), else the seed default for that type, else
    0.5. Memory items and turns: ``source_priority["memory"|"turn"]`` when the plan names the side, else
    the configured prior.
    """
    sp = source_priority or {}
    if cand.side == "memory":
        return float(sp.get("memory", memory_prior))
    if cand.side == "turn":
        return float(sp.get("turn", turn_prior))
    if cand.source_type in sp:
        return float(sp[cand.source_type])
    return DEFAULT_SOURCE_PRIORITY.get(cand.source_type, DEFAULT_OTHER_PRIORITY)


def _entity_forms(entity: str) -> set[str]:
    """Match forms of an entity: the full form and its last ``:`` segment ("entity:repo:x" ~ "x")."""
    e = entity.casefold().strip()
    return {e, e.rsplit(":", 1)[-1]} if e else set()


def entity_overlap(cand_entities: Iterable[str], query_entities: Iterable[str]) -> float:
    """Share of the query's entities that the candidate mentions (0 when the query names none)."""
    wanted = [f for f in (_entity_forms(q) for q in query_entities) if f]
    if not wanted:
        return 0.0
    have: set[str] = set()
    for e in cand_entities:
        have |= _entity_forms(e)
    return sum(1 for forms in wanted if forms & have) / len(wanted)


def term_coverage(query_terms: Sequence[str], cand: Candidate) -> float:
    """Share of the query's terms (``snippets.terms``: EN words, CJK bigrams) found in title + text."""
    if not query_terms:
        return 0.0
    have = set(terms(f"{cand.title or ''}\n{cand.text}"))
    return sum(1 for t in query_terms if t in have) / len(query_terms)


# ------------------------------------------------------------------------------------ feature rerank
@dataclass(frozen=True)
class FeatureWeights:
    """Weights of the builtin reranker's features; the fused score is deliberately by far the largest.

    Retrieval's own verdict (the fused score, which already counts every query term through BM25 and
    the meaning through the vectors) leads; the features only settle what it cannot see: who said it,
    which named things it mentions, how recent it is, where it comes from. Measured on LoCoMo dev
    (README): weights that let term coverage or a source prior compete with the fused score lowered
    recall (turns alone 0.509 → 0.387).
    """

    fused: float = 1.0  # the fusion score, divided by the head's best
    speaker: float = 0.2  # the question names who said it
    coverage: float = 0.0  # share of query terms present (BM25 counts them already)
    entities: float = 0.05  # share of query entities mentioned
    recency: float = 0.05  # exponential decay with the half-life
    source: float = 0.05  # source priority (resources by type; memory and turns alike)
    in_time: float = 0.2  # from the time the query names (hints.prefer_time)

    def total(self) -> float:
        return self.fused + self.speaker + self.coverage + self.entities + self.recency + self.source + self.in_time


class FeatureReranker(Reranker):
    """Deterministic feature reranker ("builtin").

    For each head candidate ``c`` (features in [0, 1])::

        rerank_score = status(c) × (w_f·fused + w_sp·speaker + w_c·coverage + w_e·entities + w_r·recency
                                    + w_s·source + w_t·in_time) / (sum of the weights)

    - ``fused = max(c.score, 0) / max(score over the head)`` (0 when no score is positive);
    - ``speaker``: 1 when the query names the candidate's speaker (``sifting.named_in``), else 0;
    - ``in_time``: 1 when the candidate's time falls in ``prefer_time`` (the span the query names), else 0;
    - ``coverage``: ``term_coverage`` of the query; ``entities``: ``entity_overlap`` with the query
      entities passed in;
    - ``recency = 0.5 ** (age_days / half_life_days)`` relative to ``now`` (passed in for determinism;
      ``unknown_recency`` when the candidate has no time);
    - ``source``: ``source_priority_of`` (plan priorities, seed defaults, memory/turn priors);
    - ``status``: a multiplier, ``status_factors[c.status]`` (active 1.0, superseded 0.5, retracted
      0.2; no status counts as active), so outdated facts sink without disappearing.

    The same inputs always give the same order (ties by id).
    """

    name = BUILTIN

    def __init__(
        self,
        weights: FeatureWeights | None = None,
        *,
        half_life_days: float = DEFAULT_HALF_LIFE_DAYS,
        unknown_recency: float = DEFAULT_UNKNOWN_RECENCY,
        memory_prior: float = DEFAULT_MEMORY_PRIOR,
        turn_prior: float = DEFAULT_TURN_PRIOR,
        status_factors: Mapping[str, float] | None = None,
    ) -> None:
        if half_life_days <= 0:
            raise ValueError("half_life_days must be > 0")
        self.weights = weights or FeatureWeights()
        if self.weights.total() <= 0:
            raise ValueError("feature weights must not all be 0")
        self.half_life_days = half_life_days
        self.unknown_recency = unknown_recency
        self.memory_prior = memory_prior
        self.turn_prior = turn_prior
        self.status_factors = dict(DEFAULT_STATUS_FACTORS if status_factors is None else status_factors)

    def features(
        self,
        cand: Candidate,
        *,
        query_terms: Sequence[str],
        query_entities: Sequence[str],
        now: datetime,
        best_fused: float,
        source_priority: Mapping[str, float] | None,
        query: str = "",
        prefer_time: TimeSpan | None = None,
    ) -> dict[str, float]:
        """The feature values of one candidate (what ``rerank`` combines, kept for explain)."""
        return {
            "in_time": 1.0 if in_span(cand.at, prefer_time) else 0.0,
            "fused": max(cand.score, 0.0) / best_fused if best_fused > 0 else 0.0,
            "speaker": 1.0 if cand.speaker and named_in(query, cand.speaker) else 0.0,
            "coverage": term_coverage(query_terms, cand),
            "entities": entity_overlap(cand.entities, query_entities),
            "recency": recency_score(cand.at, now, self.half_life_days, self.unknown_recency),
            "source": source_priority_of(
                cand, source_priority, memory_prior=self.memory_prior, turn_prior=self.turn_prior
            ),
            "status": self.status_factors.get(cand.status or "active", 1.0),
        }

    def combine(self, f: Mapping[str, float]) -> float:
        """The formula of the class docstring."""
        w = asdict(self.weights)
        linear = sum(w[name] * f[name] for name in w) / self.weights.total()
        return f["status"] * linear

    def score_head(self, query: str, head: list[Candidate], ctx: RerankContext) -> None:
        """Score the head by the formula; also sets ``signals["recency_score"]``."""
        when = ctx.now or datetime.now(UTC)
        qterms = terms(query)
        best = max((c.score for c in head), default=0.0)
        for c in head:
            f = self.features(
                c,
                query_terms=qterms,
                query_entities=ctx.query_entities,
                now=when,
                best_fused=best,
                source_priority=ctx.source_priority,
                query=query,
                prefer_time=ctx.prefer_time,
            )
            c.features = f
            c.score = self.combine(f)
            c.signals["rerank_score"] = c.score
            c.signals["recency_score"] = f["recency"]


# ------------------------------------------------------------------------------ cross-encoder rerank
def _find_onnx(model_dir: Path) -> str:
    """The model file, relative to the directory: model.onnx, onnx/model.onnx, or the only .onnx."""
    for rel in ("model.onnx", "onnx/model.onnx", "model_quantized.onnx", "onnx/model_quantized.onnx"):
        if (model_dir / rel).is_file():
            return rel
    found = sorted(model_dir.rglob("*.onnx"))
    if not found:
        raise FileNotFoundError(f"no .onnx file under {model_dir}")
    return found[0].relative_to(model_dir).as_posix()


class CrossEncoderReranker(Reranker):
    """A fastembed ``TextCrossEncoder`` from a local directory (ONNX model + tokenizer files).

    Nothing is downloaded: a model fastembed knows by name loads from ``model_path``; any other name is
    registered as a custom model over that directory. The model loads on ``load()`` or the first
    ``rerank``. Raw logits go through a sigmoid so ``rerank_score`` is in (0, 1) like the builtin's.
    """

    def __init__(self, model_name: str, model_path: str, *, batch_size: int = 32) -> None:
        self.name = model_name
        self.model_path = model_path
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the model now (raises when it cannot be loaded offline)."""
        with self._lock:
            if self._model is not None:
                return
            from fastembed.common.model_description import ModelSource
            from fastembed.rerank.cross_encoder import TextCrossEncoder

            model_dir = Path(self.model_path)
            if not model_dir.is_dir():
                raise FileNotFoundError(f"rerank model path {self.model_path!r} is not a directory")
            known = {m["model"].lower() for m in TextCrossEncoder.list_supported_models()}
            if self.name.lower() not in known:
                TextCrossEncoder.add_custom_model(
                    model=self.name, sources=ModelSource(hf=self.name), model_file=_find_onnx(model_dir)
                )
            self._model = TextCrossEncoder(self.name, specific_model_path=str(model_dir), local_files_only=True)

    def score_head(self, query: str, head: list[Candidate], ctx: RerankContext) -> None:
        """Score the head with the cross-encoder (entities, time and priorities are not used)."""
        if head:
            self.load()
            docs = [(f"{c.title}\n{c.text}" if c.title else c.text)[:CROSS_ENCODER_MAX_CHARS] for c in head]
            logits = list(self._model.rerank(query, docs, batch_size=self.batch_size))
            for c, logit in zip(head, logits, strict=True):
                c.score = 1.0 / (1.0 + math.exp(-float(logit)))
                c.signals["rerank_score"] = c.score
                c.features = {"cross_encoder_logit": float(logit)}


# ------------------------------------------------------------------------------------------ factory
_loaded: dict[tuple[str, str], CrossEncoderReranker] = {}
_loaded_lock = threading.Lock()


def get_reranker(model_name: str | None, model_path: str | None = None) -> tuple[Reranker, list[str]]:
    """The reranker for ``ranking.rerank.model`` and the warnings to report.

    ``None`` / "builtin" → ``FeatureReranker``. Another name with a local model directory → a
    ``CrossEncoderReranker`` (loaded once per process and cached); without a path, or when loading
    fails, → ``FeatureReranker`` plus a warning saying so.
    """
    if not model_name or model_name == BUILTIN:
        return FeatureReranker(), []
    fallback = f"rerank model {model_name!r} is not available offline; the builtin feature reranker ran instead"
    if not model_path:
        return FeatureReranker(), [fallback]
    key = (model_name, model_path)
    with _loaded_lock:
        cached = _loaded.get(key)
        if cached is not None:
            return cached, []
        reranker = CrossEncoderReranker(model_name, model_path)
        try:
            reranker.load()
        except Exception as e:  # any loading failure means: fall back, and say why
            return FeatureReranker(), [f"{fallback} ({type(e).__name__}: {e})"]
        _loaded[key] = reranker
        return reranker, []


# ---------------------------------------------------------------------------------------- tie break
def tie_break(
    candidates: Sequence[Candidate],
    policy: TieBreaker,
    source_priority: Mapping[str, float] | None = None,
    *,
    epsilon: float = TIE_EPSILON,
    memory_prior: float = DEFAULT_MEMORY_PRIOR,
    turn_prior: float = DEFAULT_TURN_PRIOR,
) -> list[Candidate]:
    """Sort by score (stable), then reorder only within groups of near-equal scores.

    A group starts at a candidate and takes the following ones whose score is within ``epsilon`` of
    that first score (so a group never spans more than ``epsilon``). Within a group: ``recency`` puts
    the newest first (no time last), ``source_priority`` the highest priority first (as in
    ``source_priority_of``); ``none`` keeps the incoming order. Stable throughout.
    """
    ordered = sorted(candidates, key=lambda c: -c.score)
    if policy == "none":
        return ordered

    def key(c: Candidate) -> float:
        if policy == "recency":
            return -_aware(c.at).timestamp() if c.at is not None else math.inf
        return -source_priority_of(c, source_priority, memory_prior=memory_prior, turn_prior=turn_prior)

    out: list[Candidate] = []
    i = 0
    while i < len(ordered):
        j = i + 1
        while j < len(ordered) and ordered[i].score - ordered[j].score <= epsilon:
            j += 1
        out.extend(sorted(ordered[i:j], key=key))
        i = j
    return out
