"""Forgetting an item removes it from everything distilled from it — working summaries (every version,
rewritten), commit traces (rewritten), context traces that served it (deleted), system blocks and
evidence of the next compose, full-text and vector entries — and keeps only the raw turn it came from.
Forgetting a session does the same for the items it takes with it, in the other sessions' summaries.
English and Chinese, on both backends."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from admin_world import fulltext_hits, turn, vector_hits

from graphbrain import Brain
from graphbrain.contracts import CommitResult

# The raw record of a conversation: what forgetting an item keeps (forget the session to remove it).
RAW = {"Turn", "Message"}


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string inside a property value, JSON blobs opened up (so escaped text is seen as text)."""
    if isinstance(value, str):
        try:
            inner = json.loads(value)
        except ValueError:
            inner = None
        if isinstance(inner, dict | list):
            yield from _strings(inner, path)
        else:
            yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{path}[{i}]")


def quoting(brain: Brain, *needles: str) -> list[str]:
    """Where in the namespace (outside the raw turns) any needle still appears: label.property.path."""
    rows = brain.store.cypher(
        "MATCH (n) WHERE n.namespace = $namespace RETURN labels(n) AS labels, properties(n) AS props",
        {"namespace": brain.namespace},
        row_cap=100_000,
    ).rows
    found = []
    for row in rows:
        labels = set(row["labels"])
        if labels & RAW:
            continue
        for prop, value in row["props"].items():
            if prop == "embedding":
                continue
            for path, text in _strings(value, prop):
                for needle in needles:
                    if needle in text:
                        found.append(f"{sorted(labels)}.{path}: {needle!r} in {text[:120]!r}")
    return found


def _item(brain: Brain, key_part: str) -> dict[str, Any]:
    items = [i for i in brain.list_memory(types=["decisions"], status="all") if key_part in i["key"]]
    assert items, f"no decision with {key_part!r}: {[i['key'] for i in brain.list_memory(status='all')]}"
    return items[0]


@pytest.mark.parametrize(
    ("decision", "key_part", "phrase"),
    [
        ("We decided to use RRF for rank fusion, because it needs no score calibration.", "fusion", "no score"),
        ("我们决定用倒数排名融合来合并检索结果，因为它不需要校准分数。", "融合", "不需要校准分数"),
    ],
    ids=["en", "zh"],
)
def test_forget_key_leaves_its_text_nowhere_but_the_raw_turn(
    brain: Brain, decision: str, key_part: str, phrase: str
) -> None:
    brain.commit_turn("s1", turn("t1", "Our goal: ship graphbrain by December. 目标：十二月发布。"))
    brain.commit_turn("s1", turn("t2", decision, "Noted."))  # a decision: a stage event, so a summary
    brain.commit_turn("s1", turn("t3", "I prefer tabs. What did we decide for fusion? 融合怎么定的？"))
    before = brain.compose_context("s1", "What did we decide for rank fusion? 融合用什么？")
    item = _item(brain, key_part)
    key, text = item["key"], item["text"]
    readable = text.partition("] ")[2]
    assert phrase in readable
    assert quoting(brain, key, readable), "the setup should have distilled the item into summaries and traces"
    assert any(key in e.snippet or phrase in e.snippet for e in before.evidence) or phrase in (
        before.working_summary or ""
    )

    out = brain.forget(key=key)
    assert out["found"] and out["deleted"]["memory"] >= 1
    assert out["rewritten"]["summaries"] >= 1 and out["rewritten"]["commit_traces"] >= 1
    assert out["deleted"]["context_traces"] >= 1

    assert quoting(brain, key, readable, item["id"]) == []
    # The raw turn it came from stays.
    raw = brain.store.cypher(
        "MATCH (t:Turn) WHERE t.namespace = $namespace AND t.turn_id = 't2' RETURN t.text AS text",
        {"namespace": brain.namespace},
    ).rows
    assert raw and phrase in raw[0]["text"]
    # Summaries still read as summaries: every section there, the other items kept.
    summary = brain.store.cypher(
        "MATCH (s:Summary) WHERE s.namespace = $namespace RETURN s.text AS text ORDER BY s.version DESC",
        {"namespace": brain.namespace},
    ).rows[0]["text"]
    assert "Decisions:" in summary and "Goals:" in summary and "Open Questions:" in summary
    assert "December" in summary or "十二月" in summary

    after = brain.compose_context("s1", "What did we decide for rank fusion? 融合用什么？")
    served = " ".join(
        [after.working_summary or "", *(b.text for b in after.system_blocks), *(e.snippet for e in after.evidence)]
    )
    assert readable not in served and key not in served
    assert all(e.title != key for e in after.evidence)
    # Full-text and vector entries went with the node.
    assert fulltext_hits(brain, "memory_text", phrase, brain.namespace) == 0
    vector = brain.embedder.embed([readable])[0]
    assert all(h.get("key") != key for h in vector_hits(brain, "memory_embedding", list(vector), brain.namespace))
    # The rewritten commit traces still read as commit results.
    commit_ids = brain.store.cypher(
        "MATCH (c:CommitTrace) WHERE c.namespace = $namespace RETURN c.id AS id", {"namespace": brain.namespace}
    ).rows
    for row in commit_ids:
        trace = brain.get_commit_trace(row["id"])
        assert trace is not None and CommitResult.model_validate(trace["result"])


def test_forget_session_takes_its_items_out_of_other_sessions_summaries(brain: Brain) -> None:
    # A goal stated in s1 is listed in s2's summaries (goals are namespace-wide).
    brain.commit_turn("s1", turn("g1", "Our goal is to migrate billing to Kotlin by March."))
    brain.commit_turn("s2", turn("d1", "We decided to use Neo4j for the memory store.", "Noted."))
    goal = next(i for i in brain.list_memory(types=["goals"]) if "Kotlin" in i["text"])
    readable = goal["text"].partition("] ")[2]
    assert quoting(brain, readable)
    out = brain.forget(session_id="s1")
    assert out["found"] and out["rewritten"]["summaries"] >= 1
    assert quoting(brain, readable, goal["key"]) == []
    s2 = brain.store.cypher(
        "MATCH (s:Summary) WHERE s.namespace = $namespace AND s.session_id = 's2' RETURN s.text AS text",
        {"namespace": brain.namespace},
    ).rows
    assert s2 and all("Neo4j" in r["text"] for r in s2)  # s2's own decision is kept
