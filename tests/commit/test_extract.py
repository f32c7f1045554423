"""Rule-based extraction: every family in English and Chinese (and mixed), stable keys, the task
lifecycle through ExtractionContext, retractions, "remember", utterance classes. No database."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from graphbrain.commit.candidate import Candidate, ExtractionContext, Role, explicit_to_candidate
from graphbrain.commit.extract import extract
from graphbrain.commit.utterance import classify_utterance
from graphbrain.contracts import ExplicitItem, MemoryType

NOW = datetime(2026, 2, 20, 12, 0, tzinfo=UTC)  # a Friday


def ctx(*items: tuple[MemoryType, str, dict[str, Any]], project: str | None = "graphbrain") -> ExtractionContext:
    return ExtractionContext(active_items=list(items), known_projects=["graphbrain"], default_project=project, now=NOW)


def one(text: str, role: Role = "user", context: ExtractionContext | None = None) -> Candidate:
    found = extract(text, role, context=context or ctx())
    assert len(found) == 1, [(c.key, c.reason) for c in found]
    return found[0]


def task(key: str, title: str, status: str = "todo") -> tuple[MemoryType, str, dict[str, Any]]:
    return (MemoryType.tasks, key, {"title": title, "status": status, "project": "graphbrain"})


# ------------------------------------------------------------------------------------ decisions
@pytest.mark.parametrize(
    "text",
    [
        "Let's go with Neo4j for the memory store.",
        "We decided to use Neo4j for the memory store.",
        "We'll use Neo4j as the memory store.",
        "Decision: use Neo4j for the memory store",
        "我们决定用 Neo4j 5.26 做 memory store",
        "最终选 Neo4j 作为 memory store",
    ],
)
def test_phrasings_of_one_decision_share_the_topic_key(text: str) -> None:
    c = one(text)
    assert c.type == MemoryType.decisions
    assert c.key == "decision:graphbrain:memory-store"
    assert c.value["topic"] == "memory store"
    assert c.value["choice"].startswith("Neo4j")


def test_decision_rationale_and_readable_text() -> None:
    c = one("We decided to use Neo4j for the memory store because it has vector indexes.")
    assert c.value == {
        "topic": "memory store",
        "decision": "use Neo4j",
        "choice": "Neo4j",
        "rationale": "it has vector indexes",
        "project": "graphbrain",
    }
    assert c.text.startswith("Decision on memory store: use Neo4j, because it has vector indexes")
    assert c.searchable_text().startswith("[decisions:decision:graphbrain:memory-store] Decision on")
    assert c.confidence_class == "user_asserted"
    assert c.reason == "en.decision.decided"


def test_decision_without_topic_uses_the_choice_without_its_version() -> None:
    assert one("We decided to use Neo4j 5.26.").key == one("Let's use Neo4j 5.25").key == "decision:graphbrain:neo4j"


def test_chinese_topic_first_decision() -> None:
    c = one("存储就用 Neo4j 吧")
    assert c.key == "decision:graphbrain:存储"
    assert c.value["choice"] == "Neo4j"


def test_project_named_in_the_text_wins_over_the_default() -> None:
    c = one("In the widgets project we decided to use Redis for caching", context=ctx(project=None))
    assert c.key == "decision:widgets:cache"


def test_without_any_project_the_key_says_general() -> None:
    c = one("Let's go with Neo4j for the memory store.", context=ExtractionContext())
    assert c.key == "decision:general:memory-store"


# ------------------------------------------------------------------------------------ new tasks
@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("TODO: add retries to the embedding client", "add retries to the embedding client"),
        ("We need to write the migration guide.", "write the migration guide"),
        ("I'll refactor the parser", "refactor the parser"),
        ("Let's add a health check endpoint", "add a health check endpoint"),
        ("- [ ] document the config keys", "document the config keys"),
        ("待办：补充中文分词测试", "补充中文分词测试"),
        ("任务：整理发布说明", "整理发布说明"),
        ("我们需要加一个缓存层", "加一个缓存层"),
        ("要做 schema 迁移", "schema 迁移"),
    ],
)
def test_new_tasks(text: str, title: str) -> None:
    c = one(text)
    assert c.type == MemoryType.tasks
    assert c.value["title"] == title
    assert c.value["status"] == "todo"
    assert c.key.startswith("task:graphbrain:")


def test_task_due_dates_resolve_against_the_turn_time() -> None:
    c = one("TODO: add retries to the embedding client by Friday")
    assert c.value["title"] == "add retries to the embedding client"
    assert c.value["due"] == "2026-02-27"
    assert one("我们需要在周五前完成 schema 迁移").value["due"] == "2026-02-27"
    assert one("I'll review the PR tomorrow").value["due"] == "2026-02-21"


def test_task_title_drops_the_project_it_is_filed_under() -> None:
    c = one("We need to write docs for graphbrain.", context=ctx(project=None))
    assert c.key == "task:graphbrain:write-doc"


def test_things_that_are_not_tasks() -> None:
    assert extract("我需要一杯咖啡", "user", context=ctx()) == []  # 需要 + a noun, not a verb
    assert extract("I'll be back in five minutes", "user", context=ctx()) == []
    assert extract("Should we add retries?", "user", context=ctx()) == []  # a question


def test_saying_a_known_task_again_keeps_its_key_and_status() -> None:
    known = task("task:graphbrain:write-schema-migration", "write the schema migration", "doing")
    c = one("TODO: write the schema migration", context=ctx(known))
    assert c.key == "task:graphbrain:write-schema-migration"
    assert c.value["status"] == "doing"


# ------------------------------------------------------------------------------------ task lifecycle
def test_task_lifecycle_todo_doing_blocked_done_keeps_one_key() -> None:
    created = one("TODO: write the schema migration")
    assert created.value["status"] == "todo"
    key = created.key

    def step(text: str, before: Candidate) -> Candidate:
        c = one(text, context=ctx((MemoryType.tasks, before.key, before.value)))
        assert c.key == key, c.reason
        return c

    doing = step("I'm working on the schema migration now", created)
    assert doing.value["status"] == "doing"
    blocked = step("The migration is blocked on the Neo4j license", doing)
    assert blocked.value["status"] == "blocked"
    assert blocked.value["notes"] == "blocked on the Neo4j license"
    done = step("Finished the schema migration!", blocked)
    assert done.value["status"] == "done"
    assert done.value["title"] == "write the schema migration"


def test_chinese_task_lifecycle() -> None:
    created = one("待办：完成 schema 迁移")
    key = created.key
    doing = one("开始做 schema 迁移", context=ctx((MemoryType.tasks, key, created.value)))
    assert (doing.key, doing.value["status"]) == (key, "doing")
    blocked = one("schema 迁移被权限问题卡住了", context=ctx((MemoryType.tasks, key, doing.value)))
    assert (blocked.key, blocked.value["status"]) == (key, "blocked")
    assert blocked.value["notes"] == "被权限问题卡住"
    for text in ("schema 迁移已完成", "完成了 schema 迁移", "schema 迁移搞定了"):
        done = one(text, context=ctx((MemoryType.tasks, key, blocked.value)))
        assert (done.key, done.value["status"]) == (key, "done")


def test_status_change_picks_the_best_matching_task() -> None:
    tasks = (
        task("task:graphbrain:write-doc", "write the docs"),
        task("task:graphbrain:add-test-retention-gate", "add tests for the retention gate"),
        task("task:graphbrain:fix-parser", "fix the parser"),
    )
    c = one("The retention gate tests are done.", context=ctx(*tasks))
    assert c.key == "task:graphbrain:add-test-retention-gate"
    assert one("I'm done with the docs", context=ctx(*tasks)).key == "task:graphbrain:write-doc"


def test_it_refers_to_the_task_in_progress() -> None:
    tasks = (
        task("task:graphbrain:a", "write the docs"),
        task("task:graphbrain:b", "fix the parser", "doing"),
    )
    assert one("Done with it.", context=ctx(*tasks)).key == "task:graphbrain:b"
    blocked = one("I'm blocked on the CI runner", context=ctx(*tasks))
    assert (blocked.key, blocked.value["status"], blocked.value["blocked_by"]) == (
        "task:graphbrain:b",
        "blocked",
        "the CI runner",
    )
    assert extract("Done with it.", "user", context=ctx(tasks[0])) == []  # nothing in progress


def test_status_of_an_unknown_task_creates_it_with_that_status() -> None:
    c = one("I finished the tokenizer.")
    assert (c.key, c.value["status"], c.value["title"]) == ("task:graphbrain:tokenizer", "done", "tokenizer")
    assert one("I'm working on the release notes").value["status"] == "doing"


# ------------------------------------------------------------------------------------ preferences
@pytest.mark.parametrize(
    ("text", "key", "value", "polarity"),
    [
        ("I prefer tabs over spaces.", "pref:coding:indentation", "tabs", "positive"),
        ("Please always answer in English.", "pref:writing:language", "answer in English", "positive"),
        ("Never use emojis.", "pref:writing:emoji", "use emojis", "negative"),
        ("From now on, don't add emojis", "pref:writing:emoji", "add emojis", "negative"),
        ("我更喜欢简洁的回答", "pref:writing:length", "简洁的回答", "positive"),
        ("别再用 emoji 了", "pref:writing:emoji", "用 emoji", "negative"),
        ("以后都按 PEP 8 来写代码", "pref:coding:写代码", "PEP 8", "positive"),
        ("I like dark mode", "pref:ui:theme", "dark mode", "positive"),
    ],
)
def test_preferences(text: str, key: str, value: str, polarity: str) -> None:
    c = one(text)
    assert c.type == MemoryType.preferences
    assert (c.key, c.value["value"], c.value["polarity"]) == (key, value, polarity)
    assert c.stable


def test_opposite_preferences_on_one_dimension_share_a_key() -> None:
    assert one("I prefer tabs.").key == one("I prefer spaces, please.").key == "pref:coding:indentation"
    assert one("I prefer concise answers").key == one("我喜欢详细的回答").key == "pref:writing:length"


def test_one_off_requests_are_not_stable_preferences() -> None:
    assert not one("Just for now, I prefer bullet points").stable
    assert not one("这次我更喜欢用表格").stable


def test_assistant_guesses_are_extracted_for_the_gate_to_drop() -> None:
    c = one("You seem to prefer tabs over spaces.", role="assistant")
    assert (c.type, c.key, c.source, c.confidence_class) == (
        MemoryType.preferences,
        "pref:coding:indentation",
        "assistant",
        "inferred",
    )
    assert extract("You seem to prefer tabs over spaces.", "user", context=ctx()) == []


# ------------------------------------------------------------------------------------ goals and events
def test_goals() -> None:
    c = one("Our goal is to ship v1 by March 1.")
    assert (c.key, c.value["goal"], c.value["by"]) == ("goal:graphbrain:ship-v1", "ship v1", "2026-03-01")
    zh = one("目标是三月前上线 v1")
    assert (zh.key, zh.value["goal"], zh.value["by"]) == ("goal:graphbrain:上线-v1", "上线 v1", "三月")
    # A month alone names no day and is kept as said; "the end of the year" is a day (nlp.dates).
    assert one("I want to learn Rust by the end of the year").value["by"] == "2026-12-31"


def test_a_release_is_one_event_in_both_languages() -> None:
    keys = {one(t).key for t in ("We released v1.2 today!", "v1.2 shipped.", "发布了 v1.2", "v1.2 已经上线了")}
    assert keys == {"event:graphbrain:2026-02-20:release-v1-2"}
    assert one("v1.2 is out").value["kind"] == "release"


@pytest.mark.parametrize(
    ("text", "kind", "title"),
    [
        ("Incident: the API was down for 20 minutes", "incident", "the API was down for 20 minutes"),
        ("We had an outage in the ingest worker", "incident", "We had an outage in the ingest worker"),
        ("线上事故：数据库宕机了", "incident", "数据库宕机"),
        ("Milestone: first end-to-end demo", "milestone", "first end-to-end demo"),
        ("里程碑：完成第一个端到端演示", "milestone", "完成第一个端到端演示"),
        ("Meeting with the design team on 2026-02-24", "meeting", "meeting with the design team"),
        ("和设计团队开了会", "meeting", "和设计团队开会"),
    ],
)
def test_events(text: str, kind: str, title: str) -> None:
    c = one(text)
    assert (c.type, c.value["kind"], c.value["title"]) == (MemoryType.events, kind, title)


def test_event_dates_come_from_the_text_else_the_turn() -> None:
    dated = one("Meeting with the design team on 2026-02-24")
    assert (dated.key, dated.value["date_source"]) == (
        "event:graphbrain:2026-02-24:meeting-design-team",
        "text",
    )
    assert one("v2 shipped.").value == {
        "kind": "release",
        "title": "release v2",
        "project": "graphbrain",
        "date": "2026-02-20",
        "date_source": "turn",
    }


# ------------------------------------------------------------------------------------ profile
def test_profile_facts_english() -> None:
    found = extract("My name is Li Wei and I'm a backend engineer. I live in Berlin.", "user", context=ctx())
    assert [(c.key, c.value["value"]) for c in found] == [
        ("profile:user:name", "Li Wei"),
        ("profile:user:occupation", "backend engineer"),
        ("profile:user:location", "Berlin"),
    ]


def test_profile_facts_chinese() -> None:
    found = extract("我叫张伟，我是一名后端工程师，我在阿里巴巴工作。", "user", context=ctx())
    assert [(c.key, c.value["value"]) for c in found] == [
        ("profile:user:name", "张伟"),
        ("profile:user:occupation", "后端工程师"),
        ("profile:user:employer", "阿里巴巴"),
    ]
    assert one("我是王芳").value["value"] == "王芳"
    assert extract("我是新来的", "user", context=ctx()) == []


def test_the_agent_has_a_profile_too() -> None:
    assert one("Your name is Jarvis.").key == "profile:agent:name"


# ------------------------------------------------------------------------------------ remember
def test_remember_a_preference() -> None:
    c = one("记住我喜欢深色主题")
    assert (c.type, c.key) == (MemoryType.preferences, "pref:ui:theme")
    assert c.reason.startswith("remember > ")
    assert c.stable


def test_remember_a_fact_no_rule_knows_becomes_a_profile_note() -> None:
    c = one("Remember that the staging database is at db.internal:5432.")
    assert c.type == MemoryType.profile
    assert c.key == "profile:user:note-staging-database-be-at-db-internal-5432"
    assert c.value == {
        "subject": "user",
        "attribute": "note",
        "value": "the staging database is at db.internal:5432",
        "remembered": True,
    }
    assert one("请记住：周会改到周三").value["value"] == "周会改到周三"


def test_a_question_asking_to_remember_still_counts() -> None:
    assert one("Can you remember that I prefer tabs?").key == "pref:coding:indentation"


def test_dont_forget_to_is_a_task() -> None:
    c = one("Don't forget to rotate the API keys")
    assert (c.type, c.value["title"]) == (MemoryType.tasks, "rotate the API keys")


# ------------------------------------------------------------------------------------ retractions
DECISION = (
    MemoryType.decisions,
    "decision:graphbrain:memory-store",
    {"topic": "memory store", "decision": "use Neo4j", "choice": "Neo4j", "project": "graphbrain"},
)
LOCATION = (
    MemoryType.profile,
    "profile:user:location",
    {"subject": "user", "attribute": "location", "value": "Munich"},
)


def test_english_correction_with_not_names_the_wrong_value() -> None:
    c = one("Actually, we'll use Postgres for the memory store, not Neo4j.", context=ctx(LOCATION, DECISION))
    assert c.retracts and c.corrected
    assert c.corrects == (MemoryType.decisions, "decision:graphbrain:memory-store")
    assert c.retracts_key == c.key == "decision:graphbrain:memory-store"
    assert c.wrong == "Neo4j"
    assert (c.value["choice"], c.value["decision"]) == ("Postgres", "use Postgres")


def test_no_thats_wrong_corrects_the_most_recent_item() -> None:
    c = one("No, that's wrong, it's Berlin.", context=ctx(DECISION, LOCATION))
    assert (c.key, c.value["value"], c.retracts) == ("profile:user:location", "Berlin", True)
    assert c.corrects == (MemoryType.profile, "profile:user:location")


def test_a_correction_may_continue_in_the_next_sentence() -> None:
    c = one("No, that's wrong. It's Berlin.", context=ctx(LOCATION))
    assert (c.key, c.value["value"]) == ("profile:user:location", "Berlin")


def test_a_correction_restating_a_fact_keeps_its_key() -> None:
    name = (MemoryType.profile, "profile:user:name", {"subject": "user", "attribute": "name", "value": "Li"})
    c = one("Correction: my name is Lee", context=ctx(name, LOCATION))
    assert (c.key, c.value["value"], c.corrects) == (
        "profile:user:name",
        "Lee",
        (MemoryType.profile, "profile:user:name"),
    )


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("不对，其实是用 Postgres 做 memory store", None),
        ("我们用的不是 Neo4j，而是 Postgres", "Neo4j"),
        ("说错了，应该是用 Postgres 做 memory store", None),
    ],
)
def test_chinese_corrections(text: str, wrong: str | None) -> None:
    c = one(text, context=ctx(LOCATION, DECISION))
    assert c.retracts
    assert c.corrects == (MemoryType.decisions, "decision:graphbrain:memory-store")
    assert c.key == "decision:graphbrain:memory-store"
    assert c.value["choice"] == "Postgres"
    assert c.wrong == wrong


def test_a_weak_marker_that_corrects_nothing_is_an_ordinary_sentence() -> None:
    c = one("Actually, I'll write the docs tomorrow.")
    assert (c.type, c.retracts) == (MemoryType.tasks, False)


def test_a_strong_correction_with_nothing_known_yields_the_new_fact_only() -> None:
    c = one("Correction: my name is Lee", context=ctx())
    assert (c.key, c.retracts, c.corrects) == ("profile:user:name", True, None)


# ------------------------------------------------------------------------------------ utterance classes
@pytest.mark.parametrize(
    ("text", "cls"),
    [
        ("thanks!", "chit_chat"),
        ("Hi there, thanks a lot :)", "chit_chat"),
        ("哈哈好的", "chit_chat"),
        ("谢谢你！", "chit_chat"),
        ("你好", "chit_chat"),
        ("lol ok", "chit_chat"),
        ("累死了", "emotion"),
        ("ugh, I'm so tired", "emotion"),
        ("maybe we'll use Redis", "speculation"),
        ("I guess the cache is broken", "speculation"),
        ("可能是缓存的问题", "speculation"),
        ("大概下周发布吧", "speculation"),
        ("Should we use Redis?", "question"),
        ("这个怎么用呢", "question"),
        ("We decided to use Neo4j.", "statement"),
        ("thanks! we decided to use Neo4j", "statement"),
    ],
)
def test_classify_utterance(text: str, cls: str) -> None:
    assert classify_utterance(text) == cls


@pytest.mark.parametrize("text", ["thanks!", "哈哈好的", "好的，收到", "ok cool", "累死了"])
def test_chit_chat_and_emotion_yield_nothing(text: str) -> None:
    assert extract(text, "user", context=ctx()) == []


def test_speculation_is_extracted_but_flagged_hedged() -> None:
    c = one("maybe we'll use Redis for caching")
    assert (c.type, c.hedged) == (MemoryType.decisions, True)


# ------------------------------------------------------------------------------------ roles, spans, explicit
def test_confidence_class_follows_the_role() -> None:
    assert one("We decided to use Neo4j.", role="user").confidence_class == "user_asserted"
    assert one("We decided to use Neo4j.", role="assistant").confidence_class == "inferred"
    assert one("We decided to use Neo4j.", role="tool").confidence_class == "tool_derived"


def test_spans_point_into_the_message() -> None:
    text = "Thanks! TODO: add retries. 我们决定用 Neo4j 做 memory store"
    found = extract(text, "user", context=ctx())
    assert [c.type for c in found] == [MemoryType.tasks, MemoryType.decisions]
    assert text[found[0].span[0] : found[0].span[1]].startswith("TODO: add retries")
    assert text[found[1].span[0] : found[1].span[1]].startswith("我们决定用 Neo4j")


def test_several_facts_in_one_message_come_in_text_order() -> None:
    found = extract("We decided to use Neo4j for the memory store. I'll write the schema. I prefer tabs.", "user")
    assert [c.type for c in found] == [MemoryType.decisions, MemoryType.tasks, MemoryType.preferences]


def test_explicit_items_become_candidates() -> None:
    item = ExplicitItem(
        type=MemoryType.tasks,
        key="task:graphbrain:schema",
        value={"title": "Create the schema", "status": "doing"},
        source="tool",
        confidence=0.95,
        evidence_refs=["call:c1"],
    )
    c = explicit_to_candidate(item)
    assert (c.type, c.key, c.role, c.source, c.confidence_class, c.confidence) == (
        MemoryType.tasks,
        "task:graphbrain:schema",
        "tool",
        "tool",
        "tool_derived",
        0.95,
    )
    assert c.text.startswith("Task [doing] Create the schema")
    assert c.evidence_refs == ["call:c1"]
    assert not c.retracts

    gone = explicit_to_candidate(
        ExplicitItem(type=MemoryType.preferences, key="pref:ui:theme", value={}, source="user", status="retracted")
    )
    assert (gone.retracts, gone.retracts_key, gone.confidence_class) == (
        True,
        "pref:ui:theme",
        "user_asserted",
    )


def test_a_status_names_its_task_by_its_words_not_by_a_shared_head_noun() -> None:
    migrate = task("task:graphbrain:migrate-vector-index", "migrate the vector index to 512 dimensions")
    # "migration" is the noun of "migrate": the same task.
    assert one("Done with the vector index migration.", context=ctx(migrate)).key == migrate[1]
    tune = task("task:graphbrain:全文索引调好", "全文索引调好")
    # Both are indexes; the modifier says which: 向量索引 is another task.
    assert one("向量索引已经做完了。", context=ctx(tune)).key == "task:graphbrain:向量索引"


def test_a_decision_key_never_names_whom_it_is_for() -> None:
    # The demo showed decision:graphbrain:you: the "for X" split took the pronoun for the topic.
    c = one("Added the schema task. I'll use tabs in code I write for you.", "assistant")
    assert c.type == MemoryType.decisions and "tab" in c.key
    assert not c.key.endswith((":you", "-you"))
