"""Memory keys (CONTRACTS.md §2): stable, readable, scoped; projects and preference scopes inferred."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graphbrain.commit import keys
from graphbrain.contracts import ExplicitItem, MemoryType


# ------------------------------------------------------------------------------------ slugs
@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Release v1.2!", "release-v1-2"),
        ("  Memory   Store ", "memory-store"),
        ("用 Neo4j 做 memory store", "用-neo4j-做-memory-store"),
        ("知识图谱", "知识图谱"),
        ("Café au lait", "cafe-au-lait"),
        ("snake_case & CamelCase", "snake-case-camelcase"),
    ],
)
def test_slugify(text: str, slug: str) -> None:
    assert keys.slugify(text) == slug


def test_slugify_is_stable_and_idempotent() -> None:
    s = keys.slugify("Add tests for the retention gate")
    assert s == keys.slugify("Add tests for the retention gate")
    assert keys.slugify(s) == s


def test_slugify_hashes_only_when_nothing_is_left() -> None:
    assert keys.slugify("!!!").startswith("h-")
    assert keys.slugify("!!!") == keys.slugify("!!!")
    assert keys.slugify("!!!") != keys.slugify("???")
    assert not keys.slugify("a!").startswith("h-")


def test_slugify_cuts_at_a_word_boundary() -> None:
    slug = keys.slugify("one two three four five six seven eight nine ten eleven twelve", max_len=20)
    assert slug == "one-two-three-four"
    assert len(keys.slugify("长" * 100, max_len=10)) == 10


def test_topic_slug_folds_articles_possessives_and_plurals() -> None:
    assert keys.topic_slug("the memory stores") == keys.topic_slug("Memory store") == "memory-store"
    assert keys.topic_slug("our team's tests") == "team-test"
    assert keys.topic_slug("我们的记忆存储") == "记忆存储"
    assert keys.topic_slug("第一个版本") == "第一个版本"


# ------------------------------------------------------------------------------------ key builders
def test_each_builder_gives_its_contract_prefix() -> None:
    when = date(2026, 2, 20)
    built = {
        MemoryType.tasks: keys.task_key("graphbrain", "Write the schema migration"),
        MemoryType.decisions: keys.decision_key("graphbrain", "the memory store"),
        MemoryType.preferences: keys.pref_key("coding", "indentation"),
        MemoryType.goals: keys.goal_key("graphbrain", "ship v1"),
        MemoryType.events: keys.event_key("graphbrain", when, "release v1.2"),
        MemoryType.entities: keys.entity_key("repo", "acme/widgets"),
        MemoryType.profile: keys.profile_key("user", "name"),
        MemoryType.cases: keys.case_key("debugging", "neo4j out of memory"),
        MemoryType.patterns: keys.pattern_key("debugging", "bisect first"),
    }
    assert built == {
        MemoryType.tasks: "task:graphbrain:write-schema-migration",
        MemoryType.decisions: "decision:graphbrain:memory-store",
        MemoryType.preferences: "pref:coding:indentation",
        MemoryType.goals: "goal:graphbrain:ship-v1",
        MemoryType.events: "event:graphbrain:2026-02-20:release-v1-2",
        MemoryType.entities: "entity:repo:acme/widgets",
        MemoryType.profile: "profile:user:name",
        MemoryType.cases: "case:debugging:neo4j-out-of-memory",
        MemoryType.patterns: "pattern:debugging:bisect-first",
    }
    for mtype, key in built.items():  # every key is accepted by the wire contract
        ExplicitItem(type=mtype, key=key, value={})


def test_missing_project_is_general_and_unknown_scope_is_other() -> None:
    assert keys.task_key(None, "x y") == "task:general:x-y"
    assert keys.pref_key("cooking", "salt") == "pref:other:salt"


def test_event_key_accepts_dates_datetimes_strings_and_none() -> None:
    at = datetime(2026, 2, 20, 23, 0, tzinfo=UTC)
    assert keys.event_key("p", at, "x") == "event:p:2026-02-20:x"
    assert keys.event_key("p", "2026-02-20", "x") == "event:p:2026-02-20:x"
    assert keys.event_key("p", None, "x") == "event:p:undated:x"


def test_entity_key_keeps_the_canonical_form_and_bounds_its_length() -> None:
    assert keys.entity_key("url", "https://neo4j.com/docs") == "entity:url:https://neo4j.com/docs"
    long_url = "https://example.com/" + "a" * 600
    key = keys.entity_key("url", long_url)
    assert len(key) < 300
    assert key == keys.entity_key("url", long_url)
    assert key != keys.entity_key("url", long_url + "b")


def test_profile_key_without_attribute() -> None:
    assert keys.profile_key("agent") == "profile:agent"


def test_key_project() -> None:
    assert keys.key_project("task:graphbrain:x") == "graphbrain"
    assert keys.key_project("pref:coding:x") is None


# ------------------------------------------------------------------------------------ projects
@pytest.mark.parametrize(
    ("text", "project"),
    [
        ("in the graphbrain project we decided", "graphbrain"),
        ("for the graphbrain repo", "graphbrain"),
        ("project graphbrain needs tests", "graphbrain"),
        ("在 graphbrain 项目里加测试", "graphbrain"),
        ("graphbrain项目的任务", "graphbrain"),
        ("在记忆项目里加测试", "记忆"),
        ("clone the repo acme/widgets and add tests", "widgets"),
        ("https://github.com/acme/widgets has a bug", "widgets"),
        ("this project is great", "general"),
        ("a new project", "general"),
        ("let's go with Neo4j for the memory store", "general"),  # "for X" is a topic, not a project
    ],
)
def test_infer_project(text: str, project: str) -> None:
    assert keys.infer_project(text) == project


def test_known_projects_count_when_merely_mentioned() -> None:
    assert keys.infer_project("add tests for graphbrain", known={"graphbrain"}) == "graphbrain"
    assert keys.infer_project("add tests for GraphBrain", known={"graphbrain"}) == "graphbrain"
    assert keys.infer_project("add tests for graphbrainx", known={"graphbrain"}) == "general"


def test_default_project_when_none_is_named() -> None:
    assert keys.infer_project("add tests", default="Side Quest") == "side-quest"


# ------------------------------------------------------------------------------------ preference scopes
@pytest.mark.parametrize(
    ("text", "scope"),
    [
        ("I prefer tabs over spaces", "coding"),
        ("use type hints in Python", "coding"),
        ("answer in Chinese, concise please", "writing"),
        ("我更喜欢简洁的回答", "writing"),
        ("I use vim as my editor", "tools"),
        ("dark mode everywhere", "ui"),
        ("深色主题", "ui"),
        ("pineapple on pizza", "other"),
    ],
)
def test_infer_pref_scope(text: str, scope: str) -> None:
    assert keys.infer_pref_scope(text) == scope


def test_pref_facets_name_the_dimension() -> None:
    assert keys.pref_facet("tabs") == keys.pref_facet("spaces") == ("coding", "indentation")
    assert keys.pref_facet("简洁的回答") == keys.pref_facet("detailed answers") == ("writing", "length")
    assert keys.pref_facet("pineapple") is None
