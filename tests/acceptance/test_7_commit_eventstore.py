"""§7 commit_turn — "EventStore 全量记录 turn/tool/refs".

EN: the EventStore records every turn, tool call and ref in full (seed-policies.md §7; §1.1 "事件全收:
EventStore 记录每轮对话、工具调用、refs（文件/URL/产物）" — every turn, tool call and ref (file / URL /
artifact) is recorded), verbatim, whatever the retention gate later keeps.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from acceptance_seed import rows

from graphbrain import Brain

TEXT = {
    "en": {
        "user": "Let's check the Neo4j 5.26 vector index docs and the design note.  Keep  the spacing!",
        "assistant": "Searching the docs and reading the note.",
        "search": "Neo4j 5.26 supports vector indexes with cosine similarity.",
        "fetch_error": "HTTP 503 from the mirror",
        "doc": "# Storage\n\nWe store memory in Neo4j 5.26.\n",
        "chat": "thanks, that's all for now!",
    },
    "zh": {
        "user": "帮我查一下 Neo4j 5.26 向量索引的文档，再看看设计笔记。  保留  空格！",
        "assistant": "正在查文档并阅读笔记。",
        "search": "Neo4j 5.26 支持余弦相似度的向量索引。",
        "fetch_error": "镜像返回 HTTP 503",
        "doc": "# 存储\n\n记忆存放在 Neo4j 5.26 中。\n",
        "chat": "好的，谢谢，先这样！",
    },
}


def _turn(lang: str, doc: Path) -> dict[str, Any]:
    t = TEXT[lang]
    return {
        "turn_id": f"{lang}-t1",
        "at": "2026-11-10T09:00:00+00:00",
        "metadata": {"project": "graphbrain", "lang": lang},
        "messages": [
            {"message_id": "u1", "role": "user", "content": t["user"]},
            {
                "message_id": "a1",
                "role": "assistant",
                "content": t["assistant"],
                "tool_calls": [
                    {"id": "call-search", "name": "web_search", "args": {"q": "neo4j 5.26 vector index", "k": 3}},
                    {"id": "call-fetch", "name": "fetch", "args": {"url": "https://mirror.example.com/doc"}},
                ],
            },
            {
                "message_id": "r1",
                "role": "tool",
                "tool_call_id": "call-search",
                "status": "ok",
                "content": t["search"],
                "result": {"hits": 2, "top": "indexes"},
            },
            {
                "message_id": "r2",
                "role": "tool",
                "tool_call_id": "call-fetch",
                "status": "error",
                "content": t["fetch_error"],
            },
        ],
        "refs": [
            {"type": "url", "uri": "https://neo4j.com/docs/cypher-manual/current/indexes/", "title": "Indexes"},
            {"type": "file", "uri": str(doc), "title": "design note"},
            {"type": "artifact", "uri": "artifact://build/42/report.json", "metadata": {"size": 1024}},
        ],
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_7_commit_eventstore_records_turn_tool_refs(brain: Brain, tmp_path: Path, lang: str) -> None:
    doc = tmp_path / f"design-{lang}.md"
    doc.write_text(TEXT[lang]["doc"], encoding="utf-8")
    ev = _turn(lang, doc)
    r1 = brain.commit_turn("s-events", ev)
    # A chit-chat turn writes no memory, yet it is recorded in full like any other (事件全收).
    r2 = brain.commit_turn(
        "s-events",
        {"turn_id": f"{lang}-t2", "messages": [{"message_id": "u2", "role": "user", "content": TEXT[lang]["chat"]}]},
    )
    assert (r1.seq, r2.seq) == (1, 2) and r2.memory_written == []

    turns = rows(
        brain,
        "MATCH (:Session {namespace: $ns, session_id: 's-events'})-[:HAS_TURN]->(t:Turn) "
        "RETURN t.turn_id AS turn_id, t.seq AS seq, t.metadata_json AS meta ORDER BY t.seq",
    )
    assert [(t["turn_id"], t["seq"]) for t in turns] == [(f"{lang}-t1", 1), (f"{lang}-t2", 2)]
    assert json.loads(turns[0]["meta"]) == {"project": "graphbrain", "lang": lang}
    assert rows(brain, "MATCH (a:Turn {namespace: $ns})-[:NEXT]->(b:Turn) RETURN a.seq AS a, b.seq AS b") == [
        {"a": 1, "b": 2}
    ]

    # Every message verbatim (spacing kept), in order, with its role, status and tool result.
    messages = rows(
        brain,
        "MATCH (t:Turn {namespace: $ns})-[:HAS_MESSAGE]->(m:Message) "
        "RETURN t.seq AS seq, m.message_id AS id, m.role AS role, m.content AS content, m.status AS status, "
        "m.tool_call_id AS call, m.result_json AS result ORDER BY t.seq, m.position",
    )
    sent = [(1, m) for m in ev["messages"]] + [(2, {"message_id": "u2", "role": "user", "content": TEXT[lang]["chat"]})]
    assert [(m["seq"], m["id"], m["role"], m["content"]) for m in messages] == [
        (seq, m["message_id"], m["role"], m["content"]) for seq, m in sent
    ]
    assert [(m["call"], m["status"]) for m in messages if m["role"] == "tool"] == [
        ("call-search", "ok"),
        ("call-fetch", "error"),
    ]
    assert json.loads(messages[2]["result"]) == {"hits": 2, "top": "indexes"}

    # Every tool call: name, arguments, outcome and the result message that answered it.
    calls = rows(
        brain,
        "MATCH (m:Message {namespace: $ns})-[:CALLED]->(c:ToolCall) OPTIONAL MATCH (c)-[:RETURNED]->(r:Message) "
        "RETURN m.message_id AS by, c.call_id AS id, c.name AS name, c.args_json AS args, c.status AS status, "
        "r.message_id AS result ORDER BY c.call_id",
    )
    assert [(c["by"], c["id"], c["name"], json.loads(c["args"]), c["status"], c["result"]) for c in calls] == [
        ("a1", "call-fetch", "fetch", {"url": "https://mirror.example.com/doc"}, "error", "r2"),
        ("a1", "call-search", "web_search", {"q": "neo4j 5.26 vector index", "k": 3}, "ok", "r1"),
    ]

    # Every ref of every kind, whatever the ingestion policy does with it afterwards.
    refs = rows(
        brain,
        "MATCH (:Turn {namespace: $ns, turn_id: $tid})-[:REFERENCES]->(r:Ref) "
        "RETURN r.type AS type, r.uri AS uri, r.title AS title, r.metadata_json AS meta ORDER BY r.type",
        tid=f"{lang}-t1",
    )
    assert [(r["type"], r["uri"], r["title"]) for r in refs] == [
        ("artifact", "artifact://build/42/report.json", None),
        ("file", f"file://{doc}", "design note"),
        ("url", "https://neo4j.com/docs/cypher-manual/current/indexes", "Indexes"),
    ]
    assert json.loads(refs[0]["meta"]) == {"size": 1024}
    assert len(r1.explain.refs) == 3 and all(o["recorded"] for o in r1.explain.refs)
