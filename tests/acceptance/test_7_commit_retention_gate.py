"""§7 commit_turn — "memory_items 写入门控生效（闲聊不进入长期记忆）".

EN: the retention gate works — chit-chat does not enter long-term memory (seed-policies.md §7). §1.2 C
lists what stays in the event layer only: "闲聊、情绪宣泄、一次性寒暄; 纯推测、未确认事实; 模型自我输出的
'臆测偏好'" — chit-chat, venting and one-off pleasantries; pure speculation and unconfirmed facts; the
model's own guesses about the user's preferences. A durable statement in the same session is kept.
"""

from __future__ import annotations

import pytest
from acceptance_seed import rows

from graphbrain import Brain

# (user, assistant, a reason the commit's explain must give for keeping it out, or None)
CASES: dict[str, list[tuple[str, str, str | None]]] = {
    "en": [
        ("hi there, thanks!", "You're welcome!", "chit_chat"),
        ("haha thanks, see you tomorrow!", "Bye!", "chit_chat"),
        # Venting: nothing is written; the English classifier gives no explicit reason for it yet.
        ("ugh, I'm so tired and annoyed today", "Take a break!", None),
        ("Maybe we should use Redis for caching? Not sure.", "Could be.", "speculation"),
        ("ok", "You seem to prefer dark mode.", "model guess, unconfirmed"),
    ],
    "zh": [
        ("哈哈好的，谢谢", "不客气！", "chit_chat"),
        ("今天好累啊，烦死了", "辛苦了", "emotion"),
        ("也许可以用 Redis 做缓存吧，不确定。", "可以考虑。", "speculation"),
        ("嗯", "你好像喜欢深色主题，我以后都用深色。", "model guess, unconfirmed"),
    ],
}
DURABLE = {"en": "We decided to use Redis for caching.", "zh": "我们决定用 Redis 做缓存。"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_7_commit_retention_gate_keeps_chit_chat_out(brain: Brain, lang: str) -> None:
    for i, (user, assistant, reason) in enumerate(CASES[lang]):
        r = brain.commit_turn(
            "s-gate",
            {
                "turn_id": f"c{i}",
                "messages": [
                    {"message_id": f"c{i}-u", "role": "user", "content": user},
                    {"message_id": f"c{i}-a", "role": "assistant", "content": assistant},
                ],
            },
        )
        assert r.memory_written == [], user
        assert all(not d.kept for d in r.explain.retention), user
        if reason is not None:
            assert any(reason in d.reason for d in r.explain.retention), (user, r.explain.retention)
    assert rows(brain, "MATCH (m:Memory {namespace: $ns}) WHERE NOT m:Entity RETURN count(m) AS n")[0]["n"] == 0

    kept = brain.commit_turn(
        "s-gate", {"turn_id": "d1", "messages": [{"message_id": "d1-u", "role": "user", "content": DURABLE[lang]}]}
    )
    assert [w.type.value for w in kept.memory_written if w.type.value != "entities"] == ["decisions"]
    memory = rows(
        brain,
        "MATCH (m:Memory {namespace: $ns}) WHERE NOT m:Entity RETURN m.type AS type, m.source_turn_id AS turn",
    )
    assert memory == [{"type": "decisions", "turn": "d1"}]
    # …while the event layer holds every turn and message.
    n_turns = len(CASES[lang]) + 1
    assert rows(brain, "MATCH (t:Turn {namespace: $ns}) RETURN count(t) AS n")[0]["n"] == n_turns
    assert rows(brain, "MATCH (m:Message {namespace: $ns}) RETURN count(m) AS n")[0]["n"] == 2 * len(CASES[lang]) + 1
