"""Bridges against the real databases: a chain through an entity the question does not name reaches the
answer; an entity the question names bridges nothing (the lists already found every turn that names it)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphbrain import Brain
from graphbrain.contracts import EvidencePack

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

CASES = {
    "en": {
        "turns": [
            "Atlas calls the Orion service for every price it shows.",
            "Lunch is at noon today.",
            "Priya carries the pager for Orion this quarter.",
            "The coffee machine is broken again.",
            "Atlas had a long planning meeting with the design team.",
        ],
        "question": "Who do I page when Atlas breaks?",
        "answer": 2,
        "named": 4,
    },
    "zh": {
        "turns": [
            "天穹每次报价都要调用计费服务。",
            "今天中午十二点吃饭。",
            "计费服务这个季度由李娜值班。",
            "咖啡机又坏了。",
            "天穹昨天和设计组开了很长的规划会。",
        ],
        "question": "天穹出故障了该找谁？",
        "answer": 2,
        "named": 4,
    },
}


def _ask(brain: Brain, lang: str) -> tuple[EvidencePack, dict[str, int]]:
    case = CASES[lang]
    for i, text in enumerate(case["turns"]):
        brain.commit_turn(
            f"bridges-{lang}",
            {
                "turn_id": f"{lang}-t{i}",
                "at": AT + timedelta(minutes=i),
                "messages": [{"role": "user", "content": text}],
            },
        )
    plan = {
        "version": "0.1",
        "queries": [{"text": case["question"], "mode": m} for m in ("exact", "semantic", "relational")],
        "global_filters": {"scope": ["turns"]},
        "budget": {"top_k": 10},
    }
    pack = brain.retrieve(plan)
    return pack, {ev.ref["turn_id"]: i for i, ev in enumerate(pack.evidences) if ev.ref.get("turn_id")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_chain_reaches_the_answer_through_what_the_question_does_not_name(brain: Brain, lang: str) -> None:
    pack, rank = _ask(brain, lang)
    case = CASES[lang]
    answer = f"{lang}-t{case['answer']}"
    assert answer in rank, [ev.snippet for ev in pack.evidences]
    ev = pack.evidences[rank[answer]]
    assert (ev.signals.model_dump(exclude_none=True).get("bridge_score") or 0) > 0
    # It says none of the question's words, yet comes before the small talk around it.
    for filler in (1, 3):
        assert rank[answer] < rank.get(f"{lang}-t{filler}", len(rank))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_entity_the_question_names_bridges_nothing(brain: Brain, lang: str) -> None:
    pack, rank = _ask(brain, lang)
    named = f"{lang}-t{CASES[lang]['named']}"
    if named in rank:  # it names the question's entity, so the lists may find it; no bridge lifts it
        signals = pack.evidences[rank[named]].signals.model_dump(exclude_none=True)
        assert not signals.get("bridge_score")
    asked = "entity:atlas" if lang == "en" else "entity:天穹"
    for ev in pack.evidences:
        path = [str(step).casefold() for step in ev.provenance.path or []]
        if path and path[0].startswith("turn:"):  # a bridge's chain (the walk's own paths start at an entity)
            assert not any(step.startswith(asked) for step in path), path
