"""Property tests of the RetrievalPlan edge and of the rules-based planner (hypothesis; no database).

The promise (contracts.py, executor step 1): ``RetrievalPlan.parse`` of anything — a dict of any shape,
wrong types, huge numbers, unknown modes, NaN weights, reversed or naive time ranges, any unicode, a
JSON string — either returns a plan every later step can use (dump, hash, settings, a round trip) or
raises ``PlanError`` (an ``InputError``) whose ``errors`` name the field under ``plan``. Nothing else.

The planner, given any user message (and any agent_state, recent turns, aliases, known sources: all
text a user once typed), either yields plans that parse again or, for a blank message only, an
``InputError`` naming ``user_message``.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from graphbrain.compose.plan import Planner
from graphbrain.compose.time import parse_time_range
from graphbrain.config import RetrievalConfig
from graphbrain.contracts import MAX_QUERY_CHARS, Mode, RetrievalPlan
from graphbrain.errors import InputError, PlanError
from graphbrain.retrieve.settings import Settings, plan_id_of, plan_json

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)

# Every code point, lone surrogates included (hypothesis leaves category Cs out by default).
ANY_CHAR = st.characters(exclude_categories=())
any_text = st.text(ANY_CHAR, max_size=40)
tricky_text = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "'}) DETACH DELETE n //",
        "`) MATCH (n) DETACH DELETE n //",
        "$namespace",
        "{{dimension}}",
        '"unclosed',
        "AND OR NOT",
        "*",
        "~",
        "\\",
        ":",
        "\u202eevil",
        "a\u200db",
        "e\u0301",
        "\ud800",
        "\udfff tail",
        "😀",
        "数据库 memory store",
        "x" * (MAX_QUERY_CHARS + 1),
    ]
)
some_text = st.one_of(any_text, tricky_text)
huge_int = st.sampled_from([-(2**63) - 1, -1, 0, 1, 2**31, 2**63, 10**30])
any_float = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308])
)
scalar = st.one_of(st.none(), st.booleans(), st.integers(), huge_int, any_float, some_text)
json_like = st.recursive(
    scalar,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(some_text, children, max_size=4)),
    max_leaves=12,
)

offsets = st.sampled_from([None, UTC, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12, minutes=-59))])
edge_datetimes = (
    st.sampled_from([datetime.min, datetime.max, datetime(1, 1, 1, 0, 30), datetime(9999, 12, 31, 23, 59)])
    | st.datetimes()
)


@st.composite
def moment(draw: st.DrawFn) -> Any:
    """A time as a caller may send one: ISO text (naive or with an offset), a number, junk."""
    dt = draw(edge_datetimes)
    tz = draw(offsets)
    if tz is not None:
        dt = dt.replace(tzinfo=tz)
    return draw(st.one_of(st.just(dt.isoformat()), st.just(dt), scalar))


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The right kind of value most of the time, any JSON value sometimes."""
    return st.one_of(strategy, strategy, strategy, json_like)


def optional_keys(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional=fields)


modes = st.sampled_from([m.value for m in Mode] + ["fuzzy", "EXACT", "", "\ud800"])
time_range = optional_keys(**{"from": moment(), "to": moment(), "extra": json_like})
filters = optional_keys(
    document_ids=maybe(st.lists(some_text, max_size=3)),
    tag_ids=maybe(st.lists(some_text, max_size=3)),
    source_type=maybe(st.lists(st.sampled_from(["url", "file", "manual", "pdf"]), max_size=3)),
    language=maybe(st.lists(some_text, max_size=3)),
    time_range=maybe(time_range),
    types=maybe(st.lists(st.sampled_from(["decisions", "tasks", "decision", "nope"]), max_size=3)),
    status=maybe(st.lists(st.sampled_from(["active", "superseded", "all", "x"]), max_size=2)),
    session_ids=maybe(st.lists(some_text, max_size=2)),
    scope=maybe(st.lists(st.sampled_from(["memory", "turns", "resources", "web"]), max_size=3)),
    unknown_filter=json_like,
)
query = optional_keys(
    text=maybe(some_text),
    mode=maybe(modes),
    weight=maybe(any_float),
    filters=maybe(filters),
    hints=maybe(st.dictionaries(st.sampled_from(["hops", "entities", "min_similarity", "x"]), json_like)),
    unknown=json_like,
)
plan_dict = optional_keys(
    version=maybe(st.sampled_from(["0.1", "", "9" * 20])),
    request_id=maybe(some_text),
    purpose=maybe(st.sampled_from(["qa", "debug", "chat"])),
    queries=maybe(st.lists(query, max_size=4)),
    global_filters=maybe(filters),
    budget=maybe(
        optional_keys(
            top_k=maybe(huge_int),
            candidate_k=maybe(huge_int),
            per_mode_k=maybe(st.dictionaries(modes, maybe(huge_int), max_size=3)),
            diversity=maybe(optional_keys(by_document=maybe(huge_int), by_source=maybe(huge_int))),
        )
    ),
    ranking=maybe(
        optional_keys(
            fusion=maybe(
                optional_keys(
                    method=maybe(st.sampled_from(["rrf", "weighted_sum", "none", "max"])),
                    rrf_k=maybe(huge_int),
                    weights=maybe(st.dictionaries(modes, maybe(any_float), max_size=3)),
                )
            ),
            rerank=maybe(optional_keys(enabled=json_like, top_n=maybe(huge_int))),
            tie_breaker=maybe(st.sampled_from(["recency", "source_priority", "random"])),
            source_priority=maybe(st.dictionaries(some_text, maybe(any_float), max_size=3)),
        )
    ),
    output=maybe(optional_keys(max_snippet_chars=maybe(huge_int), snippet_policy=maybe(some_text))),
    debug=maybe(optional_keys(trace=json_like, caller=json_like)),
    namespace=maybe(some_text),
    unknown_top=json_like,
)
# Mostly near-valid plans: one valid query guaranteed, the rest as drawn.
near_valid = st.builds(
    lambda base, q: {**base, "version": "0.1", "queries": [{"text": "memory store", **q}]}, plan_dict, query
)


def check_outcome(data: Any) -> RetrievalPlan | None:
    """parse(data) is a usable plan, or a PlanError naming fields under ``plan``; anything else fails."""
    try:
        plan = RetrievalPlan.parse(data)
    except PlanError as e:
        assert e.errors, f"no field named: {e}"
        for err in e.errors:
            assert err["field"] == "plan" or err["field"].startswith("plan."), err
            assert err["reason"]
            # The message and fields can always be sent back (JSON, UTF-8), whatever the input held.
            json.dumps(e.errors, ensure_ascii=False).encode("utf-8")
        str(e).encode("utf-8")
        return None
    received = plan_json(plan)
    plan_id_of(received)  # hashes the canonical JSON: must encode
    json.dumps(received, ensure_ascii=False, allow_nan=False).encode("utf-8")
    plan.unknown_fields()
    Settings.of(plan, RetrievalConfig())
    for q in plan.queries:
        assert 1 <= len(q.text) <= MAX_QUERY_CHARS and q.text.strip()
        assert math.isfinite(q.weight) and 0 <= q.weight <= 10
    for w in plan.ranking.fusion.weights.values():
        assert math.isfinite(w)
    tr = plan.global_filters.time_range
    if tr is not None:
        for bound in (tr.from_, tr.to):
            assert bound is None or bound.tzinfo is not None
        if tr.from_ and tr.to:
            assert tr.from_ <= tr.to
    # What was accepted once is accepted again from its own JSON (the executor echoes it in the pack).
    again = RetrievalPlan.parse(json.dumps(received, ensure_ascii=False))
    assert plan_json(again) == received
    return plan


@FUZZ
@given(plan_dict)
def test_any_plan_shaped_dict_parses_or_names_the_field(data: dict[str, Any]) -> None:
    check_outcome(data)


@FUZZ
@given(near_valid)
def test_near_valid_plans_parse_or_name_the_field(data: dict[str, Any]) -> None:
    check_outcome(data)


@FUZZ
@given(json_like)
def test_any_json_value_parses_or_names_the_field(data: Any) -> None:
    check_outcome(data)


@FUZZ
@given(st.one_of(some_text, st.binary(max_size=64), plan_dict.map(lambda d: json.dumps(d, default=str))))
def test_any_text_or_bytes_parses_or_names_the_field(data: Any) -> None:
    check_outcome(data)


@pytest.mark.parametrize(
    ("plan", "field"),
    [
        ({"version": "0.1", "queries": [{"text": "x", "weight": math.nan}]}, "plan.queries.0.weight"),
        ({"version": "0.1", "queries": [{"text": "x", "mode": "fuzzy"}]}, "plan.queries.0.mode"),
        ({"version": "0.1", "queries": [{"text": "x"}], "ranking": {"fusion": {"weights": {"exact": math.inf}}}},
         "plan.ranking.fusion.weights.exact"),
        ({"version": "0.1", "queries": [{"text": "x"}], "ranking": {"fusion": {"weights": {"exact": math.nan}}}},
         "plan.ranking.fusion.weights.exact"),
        ({"version": "0.1", "queries": [{"text": "x"}], "ranking": {"source_priority": {"memory": math.nan}}},
         "plan.ranking.source_priority.memory"),
        ({"version": "0.1", "queries": [{"text": "x"}],
          "global_filters": {"time_range": {"from": "2026-02-02", "to": "2026-02-01"}}},
         "plan.global_filters.time_range"),
        ({"version": "0.1", "queries": [{"text": "x"}],
          "global_filters": {"time_range": {"from": "0001-01-01T00:00:00+14:00"}}},
         "plan.global_filters.time_range.from"),
        ({"version": "0.1", "queries": [{"text": "x"}],
          "global_filters": {"time_range": {"to": "9999-12-31T23:59:59-14:00"}}},
         "plan.global_filters.time_range.to"),
        ({"version": "0.1", "queries": [{"text": "x", "hints": {"h": "\ud800"}}]}, "plan.queries.0.hints"),
        ({"version": "0.1", "queries": [{"text": "x"}], "debug": {"caller": {"c": ["\udfff"]}}}, "plan.debug.caller"),
        ({"version": "0.1", "queries": [{"text": "x"}], "extra": {"k": "\ud800"}}, "plan"),
        ({"version": "0.1", "queries": [{"text": "x", "hints": {"deep": json.loads("[" * 80 + "]" * 80)}}]},
         "plan.queries.0.hints"),
    ],
)  # fmt: skip
def test_known_bad_plans_name_their_field(plan: dict[str, Any], field: str) -> None:
    with pytest.raises(PlanError) as info:
        RetrievalPlan.parse(plan)
    assert field in [e["field"] for e in info.value.errors], info.value.errors


# ------------------------------------------------------------------------------------------- planner
NOW = datetime(2026, 2, 18, 15, 30, tzinfo=UTC)
# Fragments the rules react to, so random messages reach the time, scope and expansion code.
CUES = st.sampled_from(
    [
        "last 3 days", "in the past 99999999999 days", "last 100000 months", "the last 24 hours",
        "since 2026-01-05", "since 0001-01-01T00:00+14:00", "since 9999-12-31", "from 2026-13-45",
        "最近三天", "最近 99999999999 天", "过去九十九个月", "上周", "去年", "今天", "自2026-2-1以来",
        "yesterday", "this year", "recently", "why", "continue", "error", "summarize", "find docs",
        "in docs/vector-index.md", '"Vector Index Guide"', "and", "以及", "?", "？", "哈哈", "thanks!",
        "`) MATCH (n) DETACH DELETE n //", "$ns", "{{dimension}}", "Neo4j", "RRF", "\ud800",
    ]
)  # fmt: skip
message = st.lists(st.one_of(CUES, any_text), min_size=1, max_size=6).map(" ".join)
agent_state = st.dictionaries(
    st.sampled_from(["intent", "purpose", "current_task", "task", "last_error", "error", "tool_state", "x"]),
    json_like,
    max_size=4,
)
# What the composer loads from the graph (recent turns, aliases, sources) was stored, so it is valid
# Unicode (the edge refuses lone surrogates); any other character may be in it.
stored_text = st.one_of(
    st.text(max_size=40), tricky_text.filter(lambda t: not any("\ud800" <= c <= "\udfff" for c in t))
)
known_sources = st.lists(
    st.fixed_dictionaries({"uri": stored_text, "title": st.one_of(st.none(), stored_text), "document_id": stored_text}),
    max_size=3,
)


@FUZZ
@given(
    message,
    st.one_of(st.none(), agent_state),
    st.lists(stored_text, max_size=3),
    st.dictionaries(stored_text, st.lists(stored_text, max_size=2), max_size=2),
    known_sources,
)
def test_planner_never_crashes_and_its_plans_parse(
    msg: str,
    state: dict[str, Any] | None,
    recent: list[str],
    aliases: dict[str, list[str]],
    sources: list[dict[str, Any]],
) -> None:
    try:
        out = Planner(trace=True).plan(
            msg,
            state,
            now=NOW,
            recent_turns_text=recent,
            aliases=aliases,
            refs_in_memory=[s["uri"] for s in sources],
            known_sources=sources,
            request_id="r1",
            session_id="s1",
        )
    except InputError as e:
        # only a blank message, or one no query can hold (NUL, a lone surrogate), is refused
        assert not msg.strip() or "\x00" in msg or any("\ud800" <= c <= "\udfff" for c in msg), e
        assert e.errors and e.errors[0]["field"] == "user_message"
        return
    assert out.intent in ("qa", "continue_task", "debug", "summarize", "research", "other")
    assert out.plans() and out.memory_plan is out.plans()[0]
    for plan in out.plans():
        assert check_outcome(plan_json(plan)) is not None
    json.dumps(out.debug(), default=str)


@FUZZ
@given(
    message,
    st.one_of(
        edge_datetimes,
        st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12))])),
    ),
)
def test_time_phrases_never_crash_whatever_now_is(msg: str, now: datetime) -> None:
    assume(now.tzinfo is None or now.utcoffset() is not None)
    tr, phrase = parse_time_range(msg, now)
    if tr is not None:
        assert phrase
        assert tr.from_ is None or tr.to is None or tr.from_ <= tr.to
