"""§7 compose_context — "多样性与 token 预算可工作（至少 evidence 截断/条数限制）".

EN: diversity and the token budget work — at least evidence truncation and count caps (seed-policies.md
§7). §4.2: "token_limit … evidence_max_items：例如 12; max_snippet_chars：例如 800", trimmed by priority;
§4.4: "同一 document_id 最多 3 条 evidence; 同一 source_uri 最多 2 条; memory/resource evidence 比例默认 40/60" —
at most 3 items per document and 2 per source URI, memory/resource 40/60; §4.5: the debug output keeps
"哪些 evidence 被截断/丢弃及原因（budget/diversity）" — which evidence was truncated or dropped, and why.
"""

from __future__ import annotations

from typing import Any

import pytest
from acceptance_seed import Demo

from graphbrain import Brain
from graphbrain.compose.tokens import get_counter

ASK = {
    "en": "find the design doc about the vector index and hybrid retrieval",
    "zh": "帮我查一下向量索引和混合检索的设计资料",
}


def _brain(demo: Demo, **composition: Any) -> Brain:
    """The demo's graph and namespace under other composition settings (shares, never closes, the store)."""
    cfg = demo.brain.config.model_copy(deep=True)
    for k, v in composition.items():
        setattr(cfg.policies.composition, k, v)
    return Brain(cfg, demo.brain.store)


def _reasons(dropped: list[dict[str, Any]], slot: str) -> set[str]:
    return {d["reason"] for d in dropped if d["slot"] == slot}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_7_compose_diversity_and_token_budget(demo: Demo, lang: str) -> None:
    full = demo.brain.compose_context(demo.session_id, ASK[lang])
    assert len(full.evidence) == demo.brain.config.policies.composition.evidence_max_items

    # Count cap and snippet truncation, with the diversity caps holding throughout.
    capped = _brain(demo, evidence_max_items=4, max_snippet_chars=120).compose_context(demo.session_id, ASK[lang])
    assert len(capped.evidence) == 4
    assert all(len(e.snippet) <= 120 for e in capped.evidence)
    # max_snippet_chars reaches the executor through the plan's output settings, so snippets arrive cut;
    # the same item is longer under the default 800.
    full_snippets = {e.id: e.snippet for e in full.evidence}
    shortened = [e for e in capped.evidence if len(full_snippets.get(e.id, "")) > 120]
    assert shortened and all(len(e.snippet) < len(full_snippets[e.id]) for e in shortened)
    assert all(pl["output"]["max_snippet_chars"] == 120 for pl in capped.debug.plans)
    count_cut = [d for d in capped.debug.dropped if d["slot"] == "evidence" and d["reason"] == "cap:evidence_max_items"]
    assert count_cut and all(d["id"] not in {e.id for e in capped.evidence} for d in count_cut)
    for p in (full, capped):
        per_doc: dict[str, int] = {}
        per_uri: dict[str, int] = {}
        for e in p.evidence:
            if e.ref.document_id:
                per_doc[e.ref.document_id] = per_doc.get(e.ref.document_id, 0) + 1
            per_uri[e.source_uri] = per_uri.get(e.source_uri, 0) + 1
        assert max(per_doc.values()) <= 3 and max(per_uri.values()) <= 2
        assert {e.source for e in p.evidence} == {"memory", "resource"}  # the 40/60 ratio keeps both sides
    assert "diversity:by_source_uri" in _reasons(full.debug.dropped, "evidence")

    # The token limit: everything the model is sent fits, and every cut is named.
    tight = _brain(demo, token_limit=700).compose_context(demo.session_id, ASK[lang])
    budget = tight.constraints.token_budget
    counter = get_counter(None)
    assert budget.limit == 700 and budget.used_estimate <= 700
    assert sum(counter.count(m["content"]) for m in tight.to_messages()) <= 700
    assert budget.trimmed > 0 and sum(budget.by_slot.values()) == budget.used_estimate
    assert "budget:token_limit" in _reasons(tight.debug.dropped, "evidence") | _reasons(
        tight.debug.dropped, "recent_turns"
    )
    assert len(tight.evidence) < len(full.evidence)
    assert all(d["reason"] and "tokens" in d for d in tight.debug.dropped)
