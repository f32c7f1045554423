"""What a commit reads of memory: only what the turn can touch (issue 19), and still what extraction needs.

A turn refers to an active item by its words ("done with the vector index migration", 向量索引迁移完成了) or,
without naming it, to what its own session said lately ("no, that's wrong"). commit_turn reads those two by
index — the session's last turns' items and the memory_text hits of the turn's words — instead of the
namespace's newest 300, so a task from another session, buried under hundreds of newer items, is still found.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from helpers import turn

from graphbrain import Brain


def _task_states(brain: Brain, key_part: str) -> list[tuple[str, str]]:
    rows = brain.store.cypher(
        "MATCH (m:Memory:Task {namespace: $ns}) WHERE m.key CONTAINS $part "
        "RETURN m.status AS status, m.task_status AS task ORDER BY m.created_at",
        {"ns": brain.namespace, "part": key_part},
    ).rows
    return [(r["status"], r["task"]) for r in rows]


def _bury(brain: Brain, n: int) -> None:
    """``n`` newer active items of the namespace, written in other sessions (the old 300-newest read's blind spot)."""
    rows = [{"id": f"{brain.namespace}:filler:{i}", "key": f"task:filler:item-{i}"} for i in range(n)]
    brain.store.cypher(
        "UNWIND $rows AS r CREATE (m:Memory:Task:Active {id: r.id, namespace: $ns, type: 'tasks', status: 'active', "
        'key: r.key, task_status: \'todo\', value_json: \'{"title": "filler", "status": "todo", '
        "\"project\": \"filler\"}', text: 'filler item', source_session_id: 'elsewhere', "
        "updated_at: $later, created_at: $later})",
        {"ns": brain.namespace, "rows": rows, "later": datetime.now(UTC) + timedelta(days=1)},
        write=True,
    )


@pytest.mark.parametrize(
    ("first", "done", "part"),
    [
        ("TODO: migrate the vector index to 512 dimensions.", "Done with the vector index migration.", "vector"),
        ("待办：整理检索设计文档", "整理检索设计文档已完成", "检索设计"),
    ],
)
def test_a_task_from_another_session_is_found_by_its_words(brain: Brain, first: str, done: str, part: str) -> None:
    brain.commit_turn("planning", turn("t1", first))
    _bury(brain, 320)
    brain.commit_turn("standup", turn("t2", done))
    assert [s for s in _task_states(brain, part)] == [("superseded", "todo"), ("active", "done")]


def test_a_bare_correction_refers_to_the_sessions_last_item(brain: Brain) -> None:
    brain.commit_turn("s1", turn("t1", "I prefer tabs for indentation."))
    _bury(brain, 320)
    r = brain.commit_turn("s1", turn("t2", "No, that's wrong: I prefer spaces for indentation."))
    assert any(c.action in ("superseded", "retracted") for c in r.explain.conflicts), r.explain.conflicts


def test_forget_drops_what_the_pipeline_cached_of_the_namespace(brain: Brain) -> None:
    brain.commit_turn("s1", turn("t1", "Atlas is our new search service; Dana owns Atlas."))
    pipeline = brain.commit_pipeline
    assert brain.namespace in pipeline._lexicons  # read by the commit, kept for the next one
    brain.forget(session_id="s1")
    cached: dict[str, Any] = pipeline._lexicons
    assert brain.namespace not in cached
