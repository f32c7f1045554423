"""§7 commit_turn — "冲突覆盖与撤回可工作（至少 preferences/tasks）".

EN: overwrite and retraction work, at least for preferences and tasks (seed-policies.md §7). §1.5:
"覆盖型（overwrite）：preferences/goals/tasks — 新值写入后：旧值 status=superseded"; "撤回（retracted）：用户
明确否认或修正 — 将旧条目 status=retracted，并写入新事实" — a new value supersedes the old one; a user's
explicit denial or correction marks the old item retracted and writes the new fact; "冲突处理必须写入
explain" — every conflict decision is in the commit's explain.
"""

from __future__ import annotations

import json

import pytest
from acceptance_seed import rows

from graphbrain import Brain

# type → language → (first statement, overwrite, correction, a word of the corrected value)
SCENARIOS: dict[str, dict[str, tuple[str, str, str, str]]] = {
    "preferences": {
        "en": (
            "I prefer tabs for indentation.",
            "From now on I prefer spaces for indentation.",
            "No, that's wrong — I prefer tabs for indentation, not spaces.",
            "tabs",
        ),
        "zh": ("我喜欢用制表符缩进。", "以后都按空格缩进。", "不对，其实是用制表符缩进，不是空格。", "制表符"),
    },
    "tasks": {
        "en": (
            "TODO: write the migration script.",
            "I'm working on the migration script now.",
            "No, that's wrong — the migration script is not started yet, it's blocked on review.",
            "blocked",
        ),
        "zh": ("待办：写迁移脚本", "开始做写迁移脚本", "不对，写迁移脚本还没开始，被评审卡住了。", "评审"),
    },
}


@pytest.mark.parametrize("mtype", ["preferences", "tasks"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_7_commit_overwrite_and_retract_preferences_and_tasks(brain: Brain, lang: str, mtype: str) -> None:
    first, overwrite, correction, right = SCENARIOS[mtype][lang]
    results = [
        brain.commit_turn(
            "s-conflicts",
            {
                "turn_id": f"t{i}",
                "messages": [
                    {"message_id": f"t{i}-u", "role": "user", "content": text},
                    {"message_id": f"t{i}-a", "role": "assistant", "content": "OK."},
                ],
            },
        )
        for i, text in enumerate([first, overwrite, correction])
    ]
    keys = {w.key for w in results[0].memory_written if w.type.value == mtype}
    assert len(keys) == 1
    key = keys.pop()

    # The overwrite supersedes, the correction retracts — and the commit's explain says so.
    assert [(c.action, c.key) for c in results[1].explain.conflicts if c.type == mtype] == [("superseded", key)]
    assert [(c.action, c.key) for c in results[2].explain.conflicts if c.type == mtype] == [("retracted", key)]
    assert all(c.reason for r in results for c in r.explain.conflicts)

    history = rows(
        brain,
        "MATCH (m:Memory {namespace: $ns, key: $key}) RETURN m.status AS status, m.value_json AS value, "
        "m.source_turn_id AS turn ORDER BY m.created_at",
        key=key,
    )
    assert [(h["status"], h["turn"]) for h in history] == [("superseded", "t0"), ("retracted", "t1"), ("active", "t2")]
    assert right in json.dumps(json.loads(history[-1]["value"]), ensure_ascii=False)
    edges = rows(
        brain,
        "MATCH (n:Memory {namespace: $ns, key: $key})-[r:SUPERSEDES|RETRACTS]->(o:Memory) "
        "RETURN type(r) AS edge, n.source_turn_id AS new, o.source_turn_id AS old ORDER BY new",
        key=key,
    )
    assert edges == [{"edge": "SUPERSEDES", "new": "t1", "old": "t0"}, {"edge": "RETRACTS", "new": "t2", "old": "t1"}]
