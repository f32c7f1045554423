"""Snippets never exceed max_chars (EN, ZH, mixed; every policy), cut on boundaries, and the ids."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphbrain.retrieve.candidate import Candidate
from graphbrain.retrieve.snippets import (
    ELLIPSIS,
    boundary_cut,
    fit_chars,
    make_snippet,
    memory_evidence_id,
    query_window,
    resource_evidence_id,
    sentences,
    turn_evidence_id,
)

MakeCandidate = Callable[..., Candidate]

EN = (
    "Graphbrain keeps every turn in an event store. Memory items are distilled from the turns. "
    "Resources are split into sections and chunks; each chunk is indexed for full-text and vector "
    "search. The executor fuses the lists with reciprocal rank fusion, reranks the head, and applies "
    "diversity caps before the snippets are cut. Neo4j 5.26 provides the vector index used here. "
    "Supercalifragilisticexpialidocious words are rare but must not be split in the middle."
)
ZH = (
    "图谱大脑把每一轮对话都记录在事件存储中。记忆条目从对话中提炼出来。资源被切分为章节和片段，"
    "每个片段都建立全文索引和向量索引。执行器用倒数排名融合合并多个列表，然后重排并应用多样性约束。"
    "最后按照字符上限截取摘要片段，保证不会超过上限。"
)
MIXED = (
    "我们用 Neo4j 5.26 的 vector index 做语义召回，用 full-text index 做精确召回。"
    "RetrievalPlan 的 snippet_policy 支持 l0/l1/l2/auto 四种策略。"
    "https://neo4j.com/docs/cypher-manual/current/indexes/semantic-indexes/vector-indexes/ 是参考文档。"
)
TEXTS = {"en": EN, "zh": ZH, "mixed": MIXED}
LIMITS = [1, 2, 3, 5, 8, 13, 20, 33, 50, 80, 120, 200, 400, 2000]


@pytest.mark.parametrize("lang", sorted(TEXTS))
@pytest.mark.parametrize("policy", ["l0", "l1", "l2", "auto"])
def test_never_longer_than_max_chars(make_candidate: MakeCandidate, lang: str, policy: str) -> None:
    text = TEXTS[lang]
    for limit in LIMITS:
        for c in (
            make_candidate("plain", text=text, query_text="vector index 向量索引"),
            make_candidate("layered", text=text, l0=text[:90], l1=text[:300], query_text="Neo4j"),
        ):
            snippet, used = make_snippet(c, policy, limit)  # type: ignore[arg-type]
            assert len(snippet) <= limit, (lang, policy, limit, snippet)
            assert used in ("l0", "l1", "l2", "auto")
            if limit >= 20:
                assert snippet.strip(ELLIPSIS), (lang, policy, limit)


def _latin(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_cuts_on_word_boundaries(lang: str) -> None:
    text = TEXTS[lang]
    # from 12 on, every prefix holds a boundary (the longest leading word, "Graphbrain", has 10 letters)
    for limit in range(12, len(text), 3):
        out = fit_chars(text, limit)
        assert len(out) <= limit and out.endswith(ELLIPSIS)
        body = out[: -len(ELLIPSIS)]
        assert text.startswith(body)
        if body:  # the character after the cut never continues the last word
            assert not (_latin(body[-1]) and _latin(text[len(body)])), (limit, body)


def test_boundary_cut() -> None:
    assert boundary_cut("hello world", 8) == "hello "
    assert boundary_cut("hello world", 11) == "hello world"
    assert boundary_cut("中文句子", 3) == "中文句"  # any point between CJK characters
    assert boundary_cut("abc中文", 2) == "ab"  # a hard cut: the only boundary would lose everything
    assert boundary_cut("x" * 50, 10) == "x" * 10
    assert boundary_cut("hello world", 0) == ""


def test_fit_chars_marks_the_cut() -> None:
    assert fit_chars("short", 10) == "short"
    assert fit_chars("one two three four", 10) == "one two…"
    assert fit_chars("one two three four", 1) == "…"
    assert fit_chars("一二三四五六", 4) == "一二三…"


def test_l0_is_the_abstract_or_first_sentence(make_candidate: MakeCandidate) -> None:
    c = make_candidate("c", text=EN)
    assert make_snippet(c, "l0", 800) == ("Graphbrain keeps every turn in an event store.", "l0")
    c.l0 = "One-line abstract."
    assert make_snippet(c, "l0", 800) == ("One-line abstract.", "l0")
    zh = make_candidate("z", text=ZH)
    assert make_snippet(zh, "l0", 800)[0] == "图谱大脑把每一轮对话都记录在事件存储中。"


def test_l1_is_the_overview_or_lead(make_candidate: MakeCandidate) -> None:
    c = make_candidate("c", text=EN)
    snippet, used = make_snippet(c, "l1", 800)
    assert used == "l1" and snippet.startswith("Graphbrain keeps") and snippet.count(". ") == 2
    snippet, _ = make_snippet(c, "l1", 60)  # only the first sentence fits
    assert snippet == "Graphbrain keeps every turn in an event store."
    zh = make_candidate("z", text=ZH)
    assert make_snippet(zh, "l1", 800)[0] == "".join(sentences(ZH)[:3])
    c.l1 = "The overview."
    assert make_snippet(c, "l1", 800) == ("The overview.", "l1")


def test_l2_is_the_full_text(make_candidate: MakeCandidate) -> None:
    c = make_candidate("c", text=EN)
    assert make_snippet(c, "l2", 5000) == (EN, "l2")
    snippet, used = make_snippet(c, "l2", 100)
    assert used == "l2" and EN.startswith(snippet[:-1]) and snippet.endswith(ELLIPSIS)


def test_auto(make_candidate: MakeCandidate) -> None:
    short = make_candidate("s", text="A short text.")
    assert make_snippet(short, "auto", 800) == ("A short text.", "l2")
    layered = make_candidate("l", text=EN, l1="The overview fits.")
    assert make_snippet(layered, "auto", 100) == ("The overview fits.", "l1")
    plain = make_candidate("p", text=EN, query_text="Neo4j vector index")
    snippet, used = make_snippet(plain, "auto", 120)
    assert used == "auto" and "Neo4j 5.26" in snippet and snippet.startswith(ELLIPSIS)
    assert len(snippet) <= 120
    # an explicit query overrides the candidate's
    snippet, _ = make_snippet(plain, "auto", 120, query="reciprocal rank fusion")
    assert "reciprocal rank fusion" in snippet


def test_query_window_chinese_and_no_match() -> None:
    out = query_window(ZH, "倒数排名融合", 40)
    assert "倒数排名融合" in out and len(out) <= 40
    lead = query_window(EN, "zebra", 60)
    assert EN.startswith(lead[:-1]) and lead.endswith(ELLIPSIS) and len(lead) <= 60


def test_empty_text_falls_back_to_layers(make_candidate: MakeCandidate) -> None:
    c = make_candidate("c", text="", l1="Overview only.", title="Title")
    assert make_snippet(c, "l2", 50) == ("Overview only.", "l2")
    t = make_candidate("t", text="", title="Only a title")
    assert make_snippet(t, "auto", 50)[0] == "Only a title"
    with pytest.raises(ValueError):
        make_snippet(c, "l2", 0)


def test_evidence_ids() -> None:
    assert resource_evidence_id("doc1", "sec2", 3) == "doc1:sec2:3"
    assert resource_evidence_id("doc1", "sec2", 0) == "doc1:sec2:0"
    assert resource_evidence_id("doc1", "sec2", None) == "doc1:sec2"
    assert resource_evidence_id("doc1", None, None) == "doc1"
    assert memory_evidence_id("abc") == "memory:abc"
    assert turn_evidence_id("t-0042") == "turn:t-0042"
