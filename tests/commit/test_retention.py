"""The retention gate (seed §1.2–1.4) and the entity gate (§1.3). Pure logic, no database."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

import pytest

from graphbrain.commit.candidate import Candidate, ExtractionContext, Role, explicit_to_candidate
from graphbrain.commit.extract import extract
from graphbrain.commit.retention import (
    Dropped,
    EntityGate,
    confidence_for,
    gate,
    references,
    retention_decisions,
)
from graphbrain.commit.utterance import classify_utterance
from graphbrain.config import ConfidenceConfig, EntityGateConfig, RetentionConfig
from graphbrain.contracts import ExplicitItem, MemoryType
from graphbrain.nlp import entity_candidates

CFG = RetentionConfig()
NOW = datetime(2026, 2, 20, 12, 0, tzinfo=UTC)
CTX = ExtractionContext(known_projects=["graphbrain"], default_project="graphbrain", now=NOW)


def run(text: str, role: Role = "user", cfg: RetentionConfig = CFG) -> tuple[list[Candidate], list[Dropped]]:
    """Extraction then the gate, as commit_turn does it."""
    return gate(extract(text, role, context=CTX), role=role, utterance_class=classify_utterance(text), cfg=cfg)


def reasons(dropped: list[Dropped]) -> list[str]:
    return [r for _, r in dropped]


# ------------------------------------------------------------------------------------ must-write
def test_tasks_and_decisions_are_must_write() -> None:
    kept, dropped = run("We decided to use Neo4j for the memory store. TODO: write the schema.")
    assert [(c.type, c.gate_reason) for c in kept] == [
        (MemoryType.decisions, "must-write: decisions"),
        (MemoryType.tasks, "must-write: tasks"),
    ]
    assert dropped == []


def test_confidence_by_role_follows_the_seed_policy() -> None:
    for role, expected in (("user", 0.8), ("tool", 0.9), ("assistant", 0.6)):
        kept, _ = run("TODO: write the schema.", role=role)  # type: ignore[arg-type]
        assert kept[0].confidence == expected, role


def test_configured_confidence_bounds_are_used() -> None:
    cfg = RetentionConfig(confidence=ConfidenceConfig(user_asserted=0.85, tool_derived=0.95, inferred=0.5))
    assert run("TODO: write the schema.", cfg=cfg)[0][0].confidence == 0.85
    assert run("TODO: write the schema.", role="assistant", cfg=cfg)[0][0].confidence == 0.5


# ------------------------------------------------------------------------------------ never
@pytest.mark.parametrize("text", ["thanks!", "哈哈好的", "谢谢", "你好", "lol", "ok, cool", "累死了"])
def test_chit_chat_and_emotion_keep_nothing(text: str) -> None:
    kept, _ = run(text)
    assert kept == []


def test_a_chit_chat_message_drops_whatever_was_extracted() -> None:
    cands = extract("TODO: write the schema.", "user", context=CTX)
    kept, dropped = gate(cands, role="user", utterance_class="chit_chat", cfg=CFG)
    assert kept == []
    assert reasons(dropped) == ["message is chit-chat, not memory"]


def test_speculation_is_dropped_with_a_reason() -> None:
    kept, dropped = run("Maybe we'll use Redis for caching. We decided to use Neo4j for the memory store.")
    assert [c.key for c in kept] == ["decision:graphbrain:memory-store"]
    assert reasons(dropped) == ["speculation, unconfirmed"]
    kept, dropped = run("我们可能需要加一层缓存")
    assert kept == [] and reasons(dropped) == ["message is speculation, unconfirmed"]


def test_assistant_guess_about_user_preference_is_dropped() -> None:
    kept, dropped = run("You seem to prefer tabs over spaces.", role="assistant")
    assert kept == []
    assert [(c.key, r) for c, r in dropped] == [("pref:coding:indentation", "model guess, unconfirmed")]
    kept, dropped = run("你好像更喜欢简洁的回答", role="assistant")
    assert kept == [] and reasons(dropped) == ["model guess, unconfirmed"]


def test_a_confirmed_guess_is_kept_as_user_asserted() -> None:
    (guess,) = extract("You seem to prefer tabs over spaces.", "assistant", context=CTX)
    guess.confirmed = True
    kept, _ = gate([guess], role="assistant", utterance_class="statement", cfg=CFG)
    assert [(c.key, c.confidence) for c in kept] == [("pref:coding:indentation", 0.8)]


def test_the_assistant_cannot_retract_a_user_fact() -> None:
    location = (
        MemoryType.profile,
        "profile:user:location",
        {"subject": "user", "attribute": "location", "value": "Munich"},
    )
    context = ExtractionContext(active_items=[location], now=NOW)
    cands = extract("No, that's wrong, it's Berlin.", "assistant", context=context)
    kept, dropped = gate(cands, role="assistant", utterance_class="statement", cfg=CFG)
    assert kept == []
    assert reasons(dropped) == ["model guess, unconfirmed"]


def test_a_user_correction_is_kept() -> None:
    location = (
        MemoryType.profile,
        "profile:user:location",
        {"subject": "user", "attribute": "location", "value": "Munich"},
    )
    context = ExtractionContext(active_items=[location], now=NOW)
    cands = extract("不对，其实我住在柏林", "user", context=context)
    kept, _ = gate(cands, role="user", utterance_class=classify_utterance("不对，其实我住在柏林"), cfg=CFG)
    assert [(c.key, c.value["value"], c.retracts_key) for c in kept] == [
        ("profile:user:location", "柏林", "profile:user:location")
    ]
    assert kept[0].gate_reason == "correction of profile:user:location: write the corrected fact"


# ------------------------------------------------------------------------------------ conditional
def test_stable_preferences_are_kept_one_offs_are_not() -> None:
    kept, dropped = run("I prefer concise answers. Just for now, I prefer bullet points.")
    assert [c.key for c in kept] == ["pref:writing:length"]
    assert reasons(dropped) == ["one-off request, not a stable preference"]


def test_explicit_goals_are_kept() -> None:
    kept, _ = run("Our goal is to ship v1 by March 1.")
    assert [(c.key, c.gate_reason) for c in kept] == [("goal:graphbrain:ship-v1", "explicit goal")]


@pytest.mark.parametrize(
    ("text", "kept_reason"),
    [
        ("We released v1.2 today!", "high-value event: release"),
        ("线上事故：数据库宕机了", "high-value event: incident"),
        ("Milestone: first end-to-end demo", "high-value event: milestone"),
        ("Meeting with the design team on 2026-02-24", "scheduled meeting (has a date)"),
    ],
)
def test_high_value_events_are_kept(text: str, kept_reason: str) -> None:
    kept, _ = run(text)
    assert [c.gate_reason for c in kept] == [kept_reason]


def test_a_meeting_without_a_date_is_low_value() -> None:
    kept, dropped = run("Meeting with Bob")
    assert kept == [] and reasons(dropped) == ["low-value event: meeting"]


def test_cases_and_patterns_only_from_tools() -> None:
    value = {"problem": "neo4j ran out of memory", "outcome": "raised the heap"}
    from_tool = explicit_to_candidate(ExplicitItem(type=MemoryType.cases, key="case:ops:oom", value=value))
    from_user = explicit_to_candidate(
        ExplicitItem(type=MemoryType.patterns, key="pattern:ops:heap", value={"pattern": "x"}, source="user")
    )
    kept, dropped = gate([from_tool, from_user], role="tool", utterance_class="statement", cfg=CFG)
    assert [c.key for c in kept] == ["case:ops:oom"]
    assert reasons(dropped) == ["patterns are only written from tool output"]


def test_profile_facts_from_the_user_are_kept() -> None:
    kept, _ = run("My name is Li Wei and I live in Berlin.")
    assert [c.key for c in kept] == ["profile:user:name", "profile:user:location"]


# ------------------------------------------------------------------------------------ confidence, wire
def test_explicit_confidence_is_clamped_into_its_class() -> None:
    def conf(source: Literal["tool", "user", "assistant", "inferred"], value: float) -> float:
        item = ExplicitItem(type=MemoryType.tasks, key="task:p:x", value={}, source=source, confidence=value)
        return confidence_for(explicit_to_candidate(item), CFG.confidence)

    assert conf("tool", 0.5) == 0.9  # tool-derived is at least 0.9
    assert conf("tool", 0.97) == 0.97
    assert conf("user", 0.3) == 0.8
    assert conf("inferred", 0.95) == 0.6  # inferred is at most 0.6 unless confirmed
    assert conf("inferred", 0.4) == 0.4


def test_the_later_statement_of_one_key_wins_within_a_message() -> None:
    kept, dropped = run("I prefer tabs. Actually no, I prefer spaces.")
    assert [c.value["value"] for c in kept] == ["spaces"]
    assert reasons(dropped) == ["superseded by a later statement in the same message"]


def test_dropped_unpacks_and_wire_decisions_cover_everything() -> None:
    kept, dropped = run("TODO: write the schema. This time, I prefer tables.")
    (cand, reason) = dropped[0]
    assert cand.type == MemoryType.preferences and reason == dropped[0].reason
    wire = retention_decisions(kept, dropped)
    assert [(d.type, d.kept, d.confidence) for d in wire] == [
        ("tasks", True, 0.8),
        ("preferences", False, 0.8),
    ]


# ------------------------------------------------------------------------------------ entity gate
GATE = EntityGate(EntityGateConfig())


def decide_all(text: str, history: list[list[str]] | None = None, **kw: object) -> dict[str, tuple[bool, str]]:
    cands = entity_candidates(text)
    decisions = GATE.evaluate(cands, counts=GATE.window_counts(history or []), text=text, **kw)  # type: ignore[arg-type]
    return {d.canonical: (d.passed, d.reason) for d in decisions}


def test_a_plain_name_passes_on_its_second_mention_not_its_first() -> None:
    first = decide_all("We could try Postgres here")
    assert first["postgres"] == (False, "'Postgres' seen 1/2 times in the last 20 turns, no other signal")
    second = decide_all("What about Postgres then", history=[["postgres"]])
    assert second["postgres"] == (True, "frequency: 2 mentions in the last 20 turns")


def test_mentions_outside_the_window_do_not_count() -> None:
    gate3 = EntityGate(EntityGateConfig(window_turns=3))
    old = [["postgres"], [], []]  # three turns back: outside a 3-turn window that includes this one
    assert gate3.window_counts(old)["postgres"] == 0
    assert gate3.window_counts([["postgres"], []])["postgres"] == 1
    assert gate3.window_counts([["postgres", "postgres"]])["postgres"] == 1  # a turn counts once


def test_urls_repos_and_paths_pass_on_first_sight() -> None:
    found = decide_all("See https://neo4j.com/docs?utm_source=x, the repo acme/widgets and src/app.py")
    assert found["https://neo4j.com/docs"] == (True, "structural signal: url")
    assert found["acme/widgets"] == (True, "structural signal: repo")
    assert found["src/app.py"] == (True, "structural signal: path")


def test_an_entity_inside_a_kept_task_or_decision_passes() -> None:
    text = "We decided to use Qdrant for the vector cache"
    kept, _ = gate(extract(text, "user", context=CTX), role="user", utterance_class="statement", cfg=CFG)
    found = decide_all(text, kept=kept)
    assert found["qdrant"][0] and found["qdrant"][1] == "structural signal: inside a kept memory item"


def test_remember_and_from_now_on_pass() -> None:
    assert decide_all("记住 Qdrant 的端口")["qdrant"] == (True, "user declared: remember / 以后都按")
    assert decide_all("以后都按 Google 风格写注释")["google"][0]
    # The assistant saying "remember" does not make anything important.
    cands = entity_candidates("remember Qdrant")
    (d,) = GATE.evaluate(cands, counts={}, text="remember Qdrant", role="assistant")
    assert not d.passed


def test_explicit_reference_with_continue_passes_an_earlier_entity() -> None:
    recent = [("topic", "postgres"), ("repo", "acme/widgets"), ("url", "https://neo4j.com/docs")]
    decisions = GATE.evaluate([], counts={}, text="let's continue with that repo", recent=recent)  # type: ignore[arg-type]
    assert [(d.key, d.passed, d.candidate) for d in decisions] == [("entity:repo:acme/widgets", True, None)]
    zh = GATE.evaluate([], counts={}, text="继续看上次那个链接", recent=recent)  # type: ignore[arg-type]
    assert [d.canonical for d in zh] == ["https://neo4j.com/docs"]


def test_a_reference_without_continue_is_not_enough() -> None:
    assert references("that repo was slow") == []
    assert GATE.evaluate([], counts={}, text="that repo was slow", recent=[("repo", "acme/widgets")]) == []


def test_decide_takes_the_pipeline_signals() -> None:
    assert GATE.decide(name="x", kind="other", signals={"ref"}, window_count=1) == (
        True,
        "structural signal: ref",
    )
    assert GATE.decide(name="Bob", kind="person", signals={"ner"}, window_count=2)[0]
    assert GATE.decide(name="Bob", kind="person", signals={"ner"}, window_count=1, referenced=True) == (
        True,
        "explicit reference with a request to continue",
    )
    assert not GATE.decide(name="Bob", kind="person", signals={"ner"}, window_count=1)[0]
