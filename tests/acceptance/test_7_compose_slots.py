"""§7 compose_context — "按槽位输出 ContextPackage".

EN: compose_context returns the ContextPackage slot by slot (seed-policies.md §7). §4.1: "装配顺序固定：
1) system_blocks：core_profile / preferences / policies  2) developer_blocks：tooling/format rules
3) working_summary  4) recent_turns（窗口）  5) evidence（来自 memory + resource）  6) user_message" — a fixed
order: system blocks, developer blocks, the working summary, the recent-turn window, evidence from
memory and resources, the user message.
"""

from __future__ import annotations

import pytest
from acceptance_seed import Demo

from graphbrain.compose.slots import SLOT_ORDER

MESSAGE = {"en": "What did we decide for the memory store?", "zh": "我们对记忆存储做了什么决定？"}
# Block types in their fixed order within system_blocks (seed §4.1 1).
SYSTEM_ORDER = ["core_profile", "preferences", "goals", "tasks", "decisions", "policies"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_7_compose_slots(demo: Demo, lang: str) -> None:
    brain = demo.brain
    p = brain.compose_context(demo.session_id, MESSAGE[lang])

    # The six slots, in the seed's order, on the wire.
    assert [k for k in p.model_dump() if k in SLOT_ORDER] == list(SLOT_ORDER)
    # 1) system blocks: the user's profile first, then preferences, goals, open tasks, decisions.
    types = [b.type for b in p.system_blocks]
    assert types and types[0] == "core_profile" and "preferences" in types
    assert types == sorted(types, key=SYSTEM_ORDER.index)
    assert all(b.source.memory_item_id for b in p.system_blocks)  # each block traces back to memory
    # 2) developer blocks: the evidence-format rule.
    assert p.developer_blocks and p.developer_blocks[0].type == "format"
    # 3) the working summary, in the seed's fixed sections.
    assert "Decisions:" in p.working_summary and "Tasks:" in p.working_summary
    # 4) recent turns: the window, oldest first, at most recent_turns_max rounds.
    seqs = [next(i for i, t in enumerate(demo.turns) if t["turn_id"] == rt.turn_id) for rt in p.recent_turns]
    assert seqs == sorted(seqs) and seqs[-1] == len(demo.turns) - 1
    assert len(set(seqs)) <= brain.config.policies.composition.recent_turns_max
    # 5) evidence: labelled E1…En, from memory, the decision about the store among it.
    assert [e.label for e in p.evidence] == [f"E{i}" for i in range(1, len(p.evidence) + 1)]
    assert any(e.source == "memory" and "Neo4j" in e.snippet for e in p.evidence)
    # 6) the user message, last and unchanged.
    assert p.user_message.content == MESSAGE[lang]

    # The chat rendering keeps the same order: system, developer, summary, history, evidence, user.
    msgs = p.to_messages()
    assert msgs[0]["content"] == "\n\n".join(b.text for b in p.system_blocks)
    assert msgs[1]["role"] == "developer"
    assert msgs[2]["content"].startswith("Working summary:")
    history = msgs[3 : 3 + len(p.recent_turns)]
    assert [m["content"] for m in history] == [t.content for t in p.recent_turns]
    assert msgs[-2]["content"].startswith("Evidence:\n[E1]")
    assert msgs[-1] == {"role": "user", "content": MESSAGE[lang]}
