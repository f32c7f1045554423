"""The budget and ranking a plan runs with: its own fields, the config's policies for what it left out."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphbrain.config import RetrievalConfig
from graphbrain.contracts import Fusion, Mode, RetrievalPlan

__all__ = ["Settings", "plan_id_of", "plan_json", "sent"]


def sent(model: Any, name: str) -> bool:
    """Whether the plan sent ``name`` (so it wins over the config), rather than leaving the default."""
    return name in model.model_fields_set


def plan_json(plan: RetrievalPlan) -> dict[str, Any]:
    """The plan as received: the fields that were sent (unknown ones included), JSON-ready."""
    return plan.model_dump(mode="json", by_alias=True, exclude_unset=True)


def plan_id_of(data: Mapping[str, Any]) -> str:
    blob = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "plan_" + hashlib.sha256(blob.encode("utf-8")).hexdigest()[:24]


@dataclass
class Settings:
    """The plan's budget and ranking with the config's policies filling what the plan left out."""

    top_k: int
    candidate_k: int
    per_mode_k: dict[Mode, int]
    by_document: int | None
    by_source: int | None
    by_section: int | None
    fusion: Fusion
    rerank_enabled: bool
    rerank_model: str | None
    rerank_top_n: int

    @classmethod
    def of(cls, plan: RetrievalPlan, cfg: RetrievalConfig) -> Settings:
        budget, ranking = plan.budget, plan.ranking
        div = budget.diversity
        div_sent = sent(budget, "diversity")

        def cap(name: str) -> int | None:
            source = div if div_sent and sent(div, name) else cfg.diversity
            value: int | None = getattr(source, name)
            return value

        fusion = ranking.fusion if sent(ranking, "fusion") else Fusion()
        fusion = Fusion(
            method=fusion.method if sent(fusion, "method") else cfg.fusion.method,
            rrf_k=fusion.rrf_k if sent(fusion, "rrf_k") else cfg.fusion.rrf_k,
            weights=dict(fusion.weights) if sent(fusion, "weights") else dict(cfg.fusion.weights),
        )
        rr = ranking.rerank
        return cls(
            top_k=budget.top_k if sent(budget, "top_k") else cfg.top_k,
            candidate_k=budget.candidate_k if sent(budget, "candidate_k") else cfg.candidate_k,
            per_mode_k=dict(budget.per_mode_k)
            if sent(budget, "per_mode_k")
            else {Mode(k): v for k, v in cfg.per_mode_k.model_dump().items()},
            by_document=cap("by_document"),
            by_source=cap("by_source"),
            by_section=cap("by_section"),
            fusion=fusion,
            rerank_enabled=rr.enabled if sent(rr, "enabled") else cfg.rerank.enabled,
            rerank_model=rr.model if sent(rr, "model") and rr.model else cfg.rerank.model,
            rerank_top_n=rr.top_n if sent(rr, "top_n") else cfg.rerank.top_n,
        )
