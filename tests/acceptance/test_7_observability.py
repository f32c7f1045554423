"""§7 可观测 — "至少保存 plan、evidence 选择、budget 统计与 ignored_fields".

EN: observability — at least the plan, the evidence selection, the budget figures and ignored_fields are
stored (seed-policies.md §7). §5.1: "每次 compose_context 建议记录：context_id/session_id；RetrievalPlan
（完整）；evidence 选择结果（id + score + source）；token 预算统计（limit/used/trimmed）；ignored_fields" and
"每次 commit_turn 建议记录：写入的 memory_items（type/key/confidence/status）；冲突处理结果；摘要更新" — per
compose: ids, the complete plans, evidence (id, score, source), budget (limit/used/trimmed), ignored
fields; per commit: the items written, conflict outcomes, the summary update. §0 "可回归：日志中保存 plan +
context_id" — what is stored is enough to replay the request and compare.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import pytest
from acceptance_seed import Demo

from graphbrain.contracts import CommitResult, ContextPackage
from graphbrain.replay import replay_contexts

ASK = {"en": "find the design doc about the vector index", "zh": "帮我查一下检索设计的资料"}
PREFS = {
    "en": ("I prefer tabs for indentation.", "From now on I prefer spaces for indentation."),
    "zh": ("我喜欢用制表符缩进。", "以后都按空格缩进。"),
}


def _not_at_a_minute_edge() -> None:
    """Retrieval measures recency against the current minute; a replay pins that minute from the trace.
    Starting a compose right before a minute turns could let its retrieval run in the next one."""
    if datetime.now(UTC).second >= 55:
        time.sleep(61 - datetime.now(UTC).second)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_7_observability_plan_evidence_budget_ignored_fields_stored(demo: Demo, lang: str) -> None:
    brain = demo.brain
    agent_state = {"developer_blocks": ["Answer in one paragraph."]}
    _not_at_a_minute_edge()
    p = brain.compose_context(demo.session_id, ASK[lang], agent_state)
    got = brain.store.run("compose/get_context_trace", {"context_id": p.context_id, "namespace": brain.namespace})
    assert len(got) == 1
    row = got[0]

    # Keyed by context_id, with the session, the request and the config that served it.
    assert (row["context_id"], row["session_id"]) == (p.context_id, demo.session_id)
    assert row["config_fingerprint"] == brain.config.fingerprint()
    assert json.loads(row["request"]) == {
        "session_id": demo.session_id,
        "user_message": ASK[lang],
        "agent_state": agent_state,
        "namespace": brain.namespace,
    }
    # The RetrievalPlans, complete: both sides, every query, filters, budget, ranking and output.
    plans = json.loads(row["plans"])
    assert plans == p.debug.plans and len(plans) == 2
    for plan in plans:
        assert {"version", "request_id", "queries", "global_filters", "budget", "ranking", "output"} <= plan.keys()
        assert plan["queries"] and all({"text", "mode", "weight"} <= q.keys() for q in plan["queries"])
    trace = json.loads(row["trace"])
    # The evidence selection (id + score + source) and what was dropped, with the reason.
    assert [(e["id"], e["score"], e["source"], e["source_uri"]) for e in trace["evidence"]] == [
        (e.id, e.score, e.source, e.source_uri) for e in p.evidence
    ]
    assert trace["dropped"] == p.debug.dropped and all(d["reason"] for d in trace["dropped"])
    # The budget figures: limit / used / trimmed, per slot.
    tb = trace["token_budget"]
    assert tb == p.constraints.token_budget.model_dump()
    assert tb["limit"] == brain.config.policies.composition.token_limit
    assert tb["used_estimate"] == sum(tb["by_slot"].values()) <= tb["limit"] and tb["trimmed"] >= 0
    # ignored_fields: what the executor did not honour, as the package reported it.
    assert trace["ignored_fields"] == p.debug.ignored
    assert trace["planner"]["search_resources"] is True
    # The whole package, too (store_contexts).
    assert ContextPackage.model_validate_json(row["package"]).evidence == p.evidence

    # Regressable: the stored request replays, and under the same config nothing differs.
    report = replay_contexts(brain, brain.config, context_id=p.context_id)
    assert [r.context_id for r in report.requests] == [p.context_id]
    assert not report.requests[0].changed and report.requests[0].drift == []

    # commit_turn: the items written (type/key/confidence/status), the conflict outcome, the summary.
    first, second = PREFS[lang]
    brain.commit_turn("s-obs", {"turn_id": "p1", "messages": [{"role": "user", "content": first}]})
    r = brain.commit_turn("s-obs", {"turn_id": "p2", "messages": [{"role": "user", "content": second}]})
    got = brain.store.run("traces/get_commit_trace", {"commit_id": r.commit_id, "namespace": brain.namespace})
    assert len(got) == 1 and got[0]["turn_id"] == "p2"
    stored = CommitResult.model_validate_json(got[0]["result"])
    assert [(w.type, w.key, w.confidence, w.status) for w in stored.memory_written] == [
        (w.type, w.key, w.confidence, w.status) for w in r.memory_written
    ]
    assert {w.status for w in stored.memory_written if w.type.value == "preferences"} == {"superseded", "active"}
    assert [c.action for c in stored.explain.conflicts if c.type == "preferences"] == ["superseded"]
    assert stored.summary == r.summary and stored.explain.summary == r.summary
