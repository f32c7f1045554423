"""The compose_context planner: intents, the resource decision, time and scope filters, expansion,
the two RetrievalPlans (pure: no database)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from graphbrain.compose.expand import Expansion, core_terms, expand_queries, mentions_core, split_subtopics
from graphbrain.compose.intent import classify_intent, is_chit_chat, should_search_resources
from graphbrain.compose.plan import Planner, build_plans, expansion_query_indexes
from graphbrain.compose.scope import ScopeFilters, parse_scope
from graphbrain.compose.time import parse_time_range
from graphbrain.config import CompositionConfig, QueryExpansionConfig, RetrievalConfig
from graphbrain.contracts import MAX_QUERY_CHARS, Mode, RetrievalPlan
from graphbrain.errors import InputError

# A Wednesday afternoon: the week started Monday 2026-02-16.
NOW = datetime(2026, 2, 18, 15, 30, tzinfo=UTC)


def utc(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


# ============================================================================================ intent
@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("why does the exact mode miss Chinese words?", "qa"),
        ("how does RRF fusion work", "qa"),
        ("explain the rerank formula", "qa"),
        ("为什么向量检索这么慢", "qa"),
        ("RRF 是什么", "qa"),
        ("怎么配置 brain.yml", "qa"),
        ("continue", "continue_task"),
        ("ok, next step please", "continue_task"),
        ("where were we?", "continue_task"),
        ("继续", "continue_task"),
        ("下一步做什么", "continue_task"),
        ("the test is failing with a traceback", "debug"),
        ("why does it throw an error on commit?", "debug"),  # debug outranks qa
        ("报错了：连接失败", "debug"),
        ("导入的时候出现异常", "debug"),
        ("summarize what we decided", "summarize"),
        ("give me a quick recap", "summarize"),
        ("总结一下今天的讨论", "summarize"),
        ("帮我概括这篇文章", "summarize"),
        ("find the design doc about the vector index", "research"),
        ("compare Neo4j and Postgres for vector search", "research"),
        ("what papers cover hybrid retrieval?", "research"),  # research outranks qa
        ("帮我查一下检索设计的资料", "research"),
        ("对比一下 Neo4j 和 Postgres", "research"),
        ("了解一下 HNSW", "research"),
        ("hi", "other"),
        ("thanks!", "other"),
        ("ok", "other"),
        ("哈哈好的", "other"),
        ("你好", "other"),
        ("谢谢", "other"),
        ("We use Neo4j 5.26.", "other"),
    ],
)
def test_intents_in_both_languages(message: str, intent: str) -> None:
    got, reason = classify_intent(message, None)
    assert got == intent, reason
    assert reason


def test_intent_reasons_name_the_cue() -> None:
    assert classify_intent("the build is failing")[1] == "cue:failing"
    assert classify_intent("哈哈好的")[1] == "chit-chat"
    assert classify_intent("Neo4j 5.26 then?")[1] == "question mark"


def test_agent_state_hints() -> None:
    # an explicit intent overrides the message
    assert classify_intent("why is it slow?", {"intent": "debug"}) == ("debug", "agent_state.intent=debug")
    assert classify_intent("hi", {"purpose": "summarize"})[0] == "summarize"
    # an unknown value is ignored
    assert classify_intent("why is it slow?", {"intent": "bogus"})[0] == "qa"
    # an active task makes an uncued message continue_task; a cue still wins
    assert classify_intent("the schema migration", {"active_task": "task:gb:schema"}) == (
        "continue_task",
        "agent_state.active_task",
    )
    assert classify_intent("why is the schema migration slow?", {"active_task": "x"})[0] == "qa"
    assert classify_intent("the ingest", {"last_error": "Timeout"})[0] == "debug"
    # chit-chat stays chit-chat
    assert classify_intent("thanks", {"active_task": "x"})[0] == "other"


@pytest.mark.parametrize("message", ["thanks!", "哈哈好的", "ok 👍", "Thank you so much!!", "好的，谢谢", "嗯嗯"])
def test_chit_chat(message: str) -> None:
    assert is_chit_chat(message)


@pytest.mark.parametrize("message", ["thanks, now find the docs", "好的，继续", "了解一下 HNSW", "", "ok use Postgres"])
def test_not_chit_chat(message: str) -> None:
    assert not is_chit_chat(message)


# ================================================================================ resource decision
@pytest.mark.parametrize("message", ["thanks!", "哈哈好的", "hi", "你好", "ok"])
def test_resource_search_off_for_chit_chat(message: str) -> None:
    intent, _ = classify_intent(message)
    assert should_search_resources(message, intent) == (False, "chit-chat")


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("find the design doc about the vector index", "request:find"),
        ("帮我查一下检索设计的资料", "request:帮我查"),
        ("compare HNSW vs IVF", "request:compare"),
        ("了解一下 OpenViking", "request:了解一下"),
        ("what does RFC 9110 say about caching", "external:rfc 9110"),
        ("论文里的结论是", "external:论文"),
        ("按照标准来", "external:标准"),
    ],
)
def test_resource_search_on_for_requests_and_external_facts(message: str, reason: str) -> None:
    intent, _ = classify_intent(message)
    assert should_search_resources(message, intent) == (True, reason)


def test_resource_search_on_for_a_named_ref_and_for_evidence_intents() -> None:
    refs = ["Neo4j Vector Indexes", "file:///work/notes/retention-policy.md"]
    msg = "let's apply the Neo4j vector indexes settings"
    assert classify_intent(msg)[0] == "other"
    assert should_search_resources(msg, "other", refs_in_memory=refs) == (True, "ref:Neo4j Vector Indexes")
    msg2 = "use the retention policy notes"
    on, reason = should_search_resources(msg2, "other", refs_in_memory=refs)
    assert on and reason == "ref:file:///work/notes/retention-policy.md"
    assert should_search_resources("the schema", "other", refs_in_memory=refs) == (False, "intent:other")
    assert should_search_resources("why is RRF robust?", "qa") == (True, "intent:qa")
    assert should_search_resources("it crashes on start", "debug") == (True, "intent:debug")


def test_resource_search_off_when_the_recent_window_answers() -> None:
    recent = ["We chose Neo4j because its vector index supports HNSW and cosine similarity."]
    assert should_search_resources("why the Neo4j vector index?", "qa", recent_turns_text=recent) == (
        False,
        "answered_by_recent_window",
    )
    assert should_search_resources("why?", "qa", recent_turns_text=recent)[0] is False
    # a new content word needs evidence
    assert should_search_resources("why not Postgres?", "qa", recent_turns_text=recent) == (True, "intent:qa")
    # a resource cue beats the window
    on, reason = should_search_resources("find sources on the Neo4j vector index", "research", recent_turns_text=recent)
    assert on and reason.startswith("request:")
    # Chinese window
    zh_recent = ["我们选择 Neo4j 是因为它的向量索引支持 HNSW。"]
    assert should_search_resources("为什么用向量索引？", "qa", recent_turns_text=zh_recent)[0] is False


def test_resource_setting_overrides() -> None:
    assert should_search_resources("thanks", "other", setting="always") == (True, "setting:always")
    assert should_search_resources("find the docs", "research", setting="never") == (False, "setting:never")
    assert should_search_resources("thanks", "other", setting=True)[0] is True
    assert should_search_resources("find the docs", "research", setting=False)[0] is False


# ========================================================================================= time range
@pytest.mark.parametrize(
    ("message", "phrase", "start", "end"),
    [
        ("what changed recently?", "recently", NOW - timedelta(days=7), NOW),
        ("anything new lately", "lately", NOW - timedelta(days=7), NOW),
        ("what did we do last week", "last week", utc(2026, 2, 9), utc(2026, 2, 16)),
        ("this week's decisions", "this week", utc(2026, 2, 16), NOW),
        ("yesterday's errors", "yesterday", utc(2026, 2, 17), utc(2026, 2, 18)),
        ("today", "today", utc(2026, 2, 18), NOW),
        ("the day before yesterday", "day before yesterday", utc(2026, 2, 16), utc(2026, 2, 17)),
        ("what happened last month", "last month", utc(2026, 1, 1), utc(2026, 2, 1)),
        ("in the last 10 days", "in the last 10 days", NOW - timedelta(days=10), NOW),
        ("over the past three days", "over the past three days", NOW - timedelta(days=3), NOW),
        ("in the last 2 weeks", "in the last 2 weeks", NOW - timedelta(days=14), NOW),
        ("since 2026-01-05", "since 2026-01-05", utc(2026, 1, 5), NOW),
        ("最近有什么进展", "最近", NOW - timedelta(days=7), NOW),
        ("上周的进展", "上周", utc(2026, 2, 9), utc(2026, 2, 16)),
        ("上个星期", "上个星期", utc(2026, 2, 9), utc(2026, 2, 16)),
        ("本周", "本周", utc(2026, 2, 16), NOW),
        ("这周做了什么", "这周", utc(2026, 2, 16), NOW),
        ("昨天的报错", "昨天", utc(2026, 2, 17), utc(2026, 2, 18)),
        ("今天", "今天", utc(2026, 2, 18), NOW),
        ("前天说的", "前天", utc(2026, 2, 16), utc(2026, 2, 17)),
        ("上个月的决定", "上个月", utc(2026, 1, 1), utc(2026, 2, 1)),
        ("最近3天", "最近3天", NOW - timedelta(days=3), NOW),
        ("最近三天的提交", "最近三天", NOW - timedelta(days=3), NOW),
        ("最近十五天", "最近十五天", NOW - timedelta(days=15), NOW),
        ("这几天", "这几天", NOW - timedelta(days=3), NOW),
        ("自2026-01-05以来", "自2026-01-05以来", utc(2026, 1, 5), NOW),
    ],
)
def test_time_phrases_in_both_languages(message: str, phrase: str, start: datetime, end: datetime) -> None:
    tr, got_phrase = parse_time_range(message, NOW)
    assert tr is not None
    assert got_phrase == phrase
    assert (tr.from_, tr.to) == (start, end)
    # the wire form uses "from"
    assert set(tr.model_dump(by_alias=True)) >= {"from", "to"}


def test_time_range_is_deterministic_and_local_to_now() -> None:
    assert parse_time_range("how does RRF work", NOW) == (None, "")
    assert parse_time_range("上周", NOW) == parse_time_range("上周", NOW)
    # Day boundaries are in now's timezone: 01:00 in Shanghai is still "today" there.
    cst = timezone(timedelta(hours=8))
    now = datetime(2026, 2, 18, 1, 0, tzinfo=cst)
    tr, _ = parse_time_range("yesterday", now)
    assert tr is not None and tr.from_ == datetime(2026, 2, 17, tzinfo=cst)
    # a naive now is read as UTC
    tr, _ = parse_time_range("today", datetime(2026, 2, 18, 9, 0))
    assert tr is not None and tr.from_ == utc(2026, 2, 18)
    # month arithmetic across a year boundary
    tr, _ = parse_time_range("last month", utc(2026, 1, 10))
    assert tr is not None and (tr.from_, tr.to) == (utc(2025, 12, 1), utc(2026, 1, 1))
    # a future "since" is not a range
    assert parse_time_range("since 2030-01-01", NOW)[0] is None


# ============================================================================================== scope
SOURCES = [
    {"uri": "file:///work/smart_rag/docs/design.md", "title": "SmartRAG retrieval design", "document_id": "d1"},
    {"uri": "file:///work/smart_rag/README.md", "title": "README", "document_id": "d2"},
    {"uri": "file:///work/graphbrain/docs/vector-index.md", "title": "Vector index design", "document_id": "d3"},
    {"uri": "https://neo4j.com/docs/cypher-manual/current/indexes/", "title": "Indexes", "document_id": "d4"},
    {"uri": "file:///notes/检索设计.md", "title": "检索设计说明", "document_id": "d5"},
]


@pytest.mark.parametrize(
    ("message", "prefixes", "docs"),
    [
        ("how is ranking done in smart_rag?", ["file:///work/smart_rag/"], []),
        ("在 smart_rag 里怎么做重排", ["file:///work/smart_rag/"], []),
        ("smart_rag 里的检索流程", ["file:///work/smart_rag/"], []),
        ("anything from graphbrain/docs about HNSW", ["file:///work/graphbrain/docs/"], []),
        ("what is said in docs/vector-index.md", [], ["d3"]),
        ("in the design doc about the vector index", [], ["d3"]),
        ("在检索设计文档里有什么", [], ["d5"]),
        ("《检索设计说明》里的要点", [], ["d5"]),
        ('what does "Vector index design" say about HNSW', [], ["d3"]),
    ],
)
def test_scope_from_the_message(message: str, prefixes: list[str], docs: list[str]) -> None:
    scope = parse_scope(message, SOURCES)
    assert (scope.source_uri_prefix, scope.document_ids) == (prefixes, docs), scope
    assert scope.reason.startswith("scope:")


@pytest.mark.parametrize("message", ["in python", "in the last week", "in Chinese please", "what is RRF"])
def test_scope_ignored_when_nothing_matches(message: str) -> None:
    assert parse_scope(message, SOURCES).empty
    assert parse_scope("in smart_rag", []).empty


def test_scope_fields() -> None:
    s = ScopeFilters(["file:///a/"], [], "a", "scope:x")
    assert s.fields() == {"source_uri_prefix": ["file:///a/"]}
    assert ScopeFilters().fields() == {}


# ========================================================================================== expansion
CFG = QueryExpansionConfig()


def _check(expansions: list[Expansion], message: str, cfg: QueryExpansionConfig = CFG) -> None:
    assert cfg.min_queries <= len(expansions) <= cfg.max_queries, expansions
    keys = [" ".join(e.text.casefold().split()).replace(" ", "") for e in expansions]
    assert len(set(keys)) == len(keys)  # deduplicated, case/space-insensitively
    assert message.casefold().replace(" ", "") not in keys  # never the message itself
    for e in expansions:
        assert cfg.min_weight <= e.weight <= cfg.max_weight < 1.0
        assert e.text.strip() and e.reason
    assert [e.weight for e in expansions] == sorted((e.weight for e in expansions), reverse=True)


def test_expansion_from_graph_aliases() -> None:
    message = "How does Neo4j handle the vector index?"
    aliases = {"Neo4j": ["neo4j graph database", "N4J"], "Postgres": ["PostgreSQL"]}
    out = expand_queries(message, aliases=aliases, recent_turns_text=[], cfg=CFG)
    _check(out, message)
    alias = [e for e in out if e.reason.startswith("alias:")]
    assert [e.text for e in alias] == [
        "How does neo4j graph database handle the vector index?",
        "How does N4J handle the vector index?",
    ]
    assert all(e.weight == CFG.max_weight for e in alias)
    assert out == expand_queries(message, aliases=aliases, recent_turns_text=[], cfg=CFG)  # deterministic


def test_expansion_alias_named_by_its_alias_and_in_chinese() -> None:
    out = expand_queries("PostgreSQL 的向量插件", aliases={"Postgres": ["PostgreSQL", "pg"]}, cfg=CFG)
    texts = {e.text for e in out}
    assert {"Postgres 的向量插件", "pg 的向量插件"} <= texts
    message = "向量检索和全文检索的区别"
    out = expand_queries(message, aliases={"向量检索": ["语义检索"]}, cfg=CFG)
    _check(out, message)
    assert "语义检索和全文检索的区别" in {e.text for e in out}
    assert {"向量检索", "全文检索的区别"} <= {e.text for e in out if e.reason.startswith("subtopic")}


def test_expansion_long_message_uses_alias_with_key_terms() -> None:
    message = "We need to decide how Neo4j stores the vector index. " * 6
    out = expand_queries(message, aliases={"Neo4j": ["N4J"]}, cfg=CFG)
    alias = [e for e in out if e.reason.startswith("alias:")]
    assert alias and alias[0].text.startswith("N4J ") and len(alias[0].text) < 100


def test_expansion_subtopics_and_recent_keywords() -> None:
    assert split_subtopics("compare Neo4j and Postgres for vector search") == [
        "Neo4j",
        "Postgres for vector search",
    ]
    assert split_subtopics("参与和平谈判") == []  # 和 inside 和平 is no separator
    assert split_subtopics("Neo4j 还是 Postgres") == ["Neo4j", "Postgres"]
    out = expand_queries(
        "what about its limits?",
        recent_turns_text=["We talked about the Neo4j vector index and HNSW."],
        cfg=CFG,
    )
    _check(out, "what about its limits?")
    recent = [e for e in out if e.reason == "keywords:recent"]
    assert recent and "limits" in recent[0].text and "HNSW" in recent[0].text


@pytest.mark.parametrize(
    "message",
    [
        "How does the reranker combine coverage and recency signals?",
        "compare reciprocal rank fusion with weighted sum fusion",
        "帮我查一下检索设计的资料",
        "为什么向量索引的召回率比全文检索低",
        "Neo4j 的 vector index 和 fulltext index 有什么区别",
    ],
)
def test_expansion_count_and_weights(message: str) -> None:
    _check(expand_queries(message, aliases={}, recent_turns_text=[], cfg=CFG), message)


def test_expansion_respects_config() -> None:
    cfg = QueryExpansionConfig(max_queries=4, min_queries=3, min_weight=0.3, max_weight=0.6)
    message = "compare Neo4j, Postgres, SQLite and DuckDB for vector search and full-text search"
    out = expand_queries(message, aliases={"Neo4j": ["a", "b", "c", "d", "e"]}, cfg=cfg)
    _check(out, message, cfg)
    assert {e.reason.split(":")[0] for e in out} >= {"alias", "subtopic"}  # the caps keep other angles
    assert expand_queries(message, cfg=QueryExpansionConfig(enabled=False)) == []
    assert all(e.text.casefold() != "hi" for e in expand_queries("hi", cfg=CFG))


def test_core_terms_and_mentions() -> None:
    terms = core_terms("How does Neo4j handle the vector index?")
    assert "Neo4j" in terms and "vector index" in terms
    assert mentions_core("Neo4j 5.26 ships HNSW vector indexes.", terms)
    assert not mentions_core("Postgres has pgvector.", terms)
    zh = core_terms("向量检索和全文检索的区别")
    assert mentions_core("全文检索基于倒排索引", zh)


# ============================================================================================== plans
def _plans(
    search: bool = True, expansions: list[Expansion] | None = None
) -> tuple[RetrievalPlan, RetrievalPlan | None]:
    tr, _ = parse_time_range("上周", NOW)
    return build_plans(
        "How does Neo4j handle the vector index?",
        intent="qa",
        search_resources=search,
        expansions=expansions if expansions is not None else [Expansion("N4J vector index", 0.8, "alias:x")],
        time_range=tr,
        scope_filters=ScopeFilters(["file:///work/smart_rag/"], [], "smart_rag", "scope"),
        retrieval_cfg=RetrievalConfig(),
        composition_cfg=CompositionConfig(),
        request_id="req-1",
        session_id="s1",
    )


def test_plans_have_the_seed_defaults() -> None:
    memory, resource = _plans()
    assert resource is not None
    for plan in (memory, resource):
        assert plan.version == "0.1" and plan.purpose == "qa" and plan.request_id == "req-1"
        assert plan.budget.top_k == 30 and plan.budget.candidate_k == 200
        assert plan.debug.caller == {"app": "graphbrain", "session_id": "s1"}
        assert plan.output.max_snippet_chars == 800
        assert plan.ranking.fusion.method == "weighted_sum" and plan.ranking.fusion.rrf_k == 60
        assert plan.ranking.fusion.weights == {"exact": 0.5, "semantic": 0.5, "relational": 0.2, "associative": 0.2}
        # valid on the wire, nothing unknown
        again = RetrievalPlan.parse(plan.model_dump(mode="json", by_alias=True))
        assert again == plan and again.unknown_fields() == []

    assert [(q.mode, q.weight) for q in memory.queries] == [
        (Mode.exact, 1.0),
        (Mode.relational, 1.0),
        (Mode.semantic, 0.9),
        (Mode.associative, 0.8),
    ]
    assert memory.global_filters.scope == ["memory", "turns"]
    # the conversation side prefers the named time (a boost); the resource side filters by it
    assert memory.global_filters.time_range is None
    for query in memory.queries[:3]:
        assert query.hints["prefer_time"]["from"].startswith("2026-02-09")
    assert resource.global_filters.time_range is not None
    assert resource.global_filters.time_range.from_ == utc(2026, 2, 9)
    assert memory.global_filters.source_uri_prefix is None  # scope filters are for resources
    assert memory.budget.per_mode_k == {Mode.exact: 10, Mode.semantic: 10, Mode.relational: 10, Mode.associative: 10}

    assert [(q.mode, q.weight) for q in resource.queries] == [(Mode.hybrid, 1.0), (Mode.associative, 0.8)]
    assert resource.global_filters.scope == ["resources"]
    assert resource.global_filters.source_uri_prefix == ["file:///work/smart_rag/"]
    assert resource.budget.per_mode_k[Mode.hybrid] == 30
    assert (resource.budget.diversity.by_document, resource.budget.diversity.by_source) == (3, 10)
    assert expansion_query_indexes(memory) == {3} and expansion_query_indexes(resource) == {1}
    assert resource.queries[1].hints == {"origin": "expansion", "reason": "alias:x"}


def test_no_resource_plan_when_not_searching() -> None:
    memory, resource = _plans(search=False, expansions=[])
    assert resource is None and len(memory.queries) == 3


def test_plans_clip_a_huge_message_and_refuse_a_blank_one() -> None:
    memory, resource = build_plans(
        "vector index " * 30_000,
        intent="qa",
        search_resources=True,
        expansions=[],
        time_range=None,
        scope_filters=None,
        retrieval_cfg=RetrievalConfig(),
        composition_cfg=CompositionConfig(),
        request_id=None,
        session_id=None,
    )
    assert resource is not None
    assert all(len(q.text) <= MAX_QUERY_CHARS for q in [*memory.queries, *resource.queries])
    with pytest.raises(InputError):
        _ = build_plans(
            "   ",
            intent="other",
            search_resources=False,
            expansions=[],
            time_range=None,
            scope_filters=None,
            retrieval_cfg=RetrievalConfig(),
            composition_cfg=CompositionConfig(),
            request_id=None,
            session_id=None,
        )


# ============================================================================================ planner
def test_planner_end_to_end_english() -> None:
    out = Planner(RetrievalConfig(), CompositionConfig()).plan(
        "find the design doc about the vector index in smart_rag from last week",
        None,
        now=NOW,
        recent_turns_text=["We are building the retrieval layer."],
        aliases={"vector index": ["HNSW index"]},
        refs_in_memory=[],
        known_sources=SOURCES,
        request_id="r1",
        session_id="s1",
    )
    assert out.intent == "research" and out.search_resources
    assert out.time_phrase == "last week"
    assert out.scope.source_uri_prefix == ["file:///work/smart_rag/"]
    assert out.resource_plan is not None
    assert out.resource_plan.global_filters.source_uri_prefix == ["file:///work/smart_rag/"]
    assert any(e.reason.startswith("alias:vector index") for e in out.expansions)
    debug = out.debug()
    json.dumps(debug)  # JSON-ready for the trace
    assert debug["intent"] == "research" and debug["search_reason"] == "request:find"
    assert debug["time_range"]["from"] == "2026-02-09T00:00:00+00:00"
    assert {"memory", "resource"} == set(debug["queries"])
    assert out.plans() == [out.memory_plan, out.resource_plan]


def test_planner_end_to_end_chinese_and_chit_chat() -> None:
    planner = Planner()
    out = planner.plan("帮我查一下上周检索设计的资料", None, now=NOW)
    assert out.intent == "research" and out.search_resources
    assert out.time_range is not None and out.time_range.from_ == utc(2026, 2, 9)
    assert out.resource_plan is not None and len(out.expansions) >= 3

    chat = planner.plan("哈哈好的", None, now=NOW)
    assert chat.intent == "other" and not chat.search_resources and chat.resource_plan is None
    assert chat.expansions == [] and "expansion skipped: chit-chat" in chat.notes
    assert [q.mode for q in chat.memory_plan.queries] == [Mode.exact, Mode.relational, Mode.semantic]
