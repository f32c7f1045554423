"""Chunk boundaries: size, overlap, exact offsets, and cut points that never break a word or a number."""

from __future__ import annotations

import random

import pytest

from graphbrain.errors import InputError
from graphbrain.resources import chunk_sections, parse_text, split_spans
from graphbrain.resources.chunking import is_cjk
from graphbrain.resources.model import ParsedSection

EN_PARAGRAPH = (
    "The memory store keeps every chunk of every document in Neo4j 5.26. Each chunk has an embedding "
    "with 384 dimensions and an entry in the full-text index. Retrieval runs both indexes and fuses the "
    "two ranked lists with reciprocal rank fusion, which needs no calibration of raw scores! Does the "
    "reranker see section titles? Not yet, but it might in version 0.4.0."
)
ZH_PARAGRAPH = (
    "混合检索同时运行向量检索和全文检索。向量检索负责语义召回，适合同义改写和跨语言的提问；"
    "全文检索负责精确匹配，适合错误码、函数名和版本号。两路候选用融合算法合并，只看排名，不看原始分数！"
    "重排模型处理前五十条候选，输出新的分数？最后做多样性控制，同一小节最多保留一条。"
)


def _check(text: str, spans: list[tuple[int, int]], max_chars: int) -> None:
    """Invariants every chunking must satisfy."""
    assert spans, "non-blank text gives at least one chunk"
    last_start = -1
    for a, b in spans:
        assert 0 <= a < b <= len(text)
        assert b - a <= max_chars
        piece = text[a:b]
        assert piece == piece.strip(), "chunks are trimmed"
        assert a > last_start, "chunks move forward"
        last_start = a
    covered: set[int] = set()
    for a, b in spans:
        covered.update(range(a, b))
    missing = [i for i, ch in enumerate(text) if not ch.isspace() and i not in covered]
    assert not missing, "every non-space character is in some chunk"


def _boundaries(text: str, spans: list[tuple[int, int]]) -> list[int]:
    return [p for a, b in spans for p in (a, b) if 0 < p < len(text)]


def _inside_latin_word(text: str, p: int) -> bool:
    a, b = text[p - 1], text[p]
    return a.isalnum() and b.isalnum() and not is_cjk(a) and not is_cjk(b)


def _inside_number(text: str, p: int) -> bool:
    if text[p - 1].isdigit() and text[p].isdigit():
        return True
    return p >= 2 and text[p - 2].isdigit() and text[p - 1] in ".," and text[p].isdigit()


def test_short_text_is_one_chunk() -> None:
    assert split_spans("  hello world  ", 100, 10) == [(2, 13)]
    assert split_spans("   \n\n  ", 100, 10) == []


def test_english_cuts_at_sentence_ends_never_inside_words() -> None:
    text = "\n\n".join([EN_PARAGRAPH] * 6)
    spans = split_spans(text, max_chars=300, overlap=60)
    _check(text, spans, 300)
    for p in _boundaries(text, spans):
        assert not _inside_latin_word(text, p), text[p - 10 : p + 10]
        assert not _inside_number(text, p), text[p - 10 : p + 10]
    # A chunk ends at a sentence end whenever there is one in the second half of the window.
    for a, b in spans[:-1]:
        assert text[b - 1] in ".!?", repr(text[a:b][-30:])


def test_paragraph_break_beats_sentence_end() -> None:
    para = "Alpha beta gamma delta. " * 6
    text = para.strip() + "\n\n" + para.strip() + "\n\n" + para.strip()
    spans = split_spans(text, max_chars=len(para) + 40, overlap=0)
    _check(text, spans, len(para) + 40)
    first_end = spans[0][1]
    assert text[first_end : first_end + 2] == "\n\n"


def test_overlap_repeats_the_tail_from_a_clean_start() -> None:
    text = " ".join([EN_PARAGRAPH] * 5)
    spans = split_spans(text, max_chars=250, overlap=80)
    _check(text, spans, 250)
    overlapping = [(prev, cur) for prev, cur in zip(spans, spans[1:], strict=False) if cur[0] < prev[1]]
    assert overlapping, "some consecutive chunks share text"
    for prev, cur in overlapping:
        assert prev[1] - cur[0] <= 80
        assert text[cur[0] - 1].isspace(), "an overlapping chunk starts at a word"


def test_no_overlap_tiles_the_text() -> None:
    text = " ".join([EN_PARAGRAPH] * 4)
    spans = split_spans(text, max_chars=200, overlap=0)
    _check(text, spans, 200)
    for prev, cur in zip(spans, spans[1:], strict=False):
        assert cur[0] >= prev[1]
        assert text[prev[1] : cur[0]].strip() == ""


def test_chinese_cuts_at_sentence_punctuation() -> None:
    text = ZH_PARAGRAPH * 3
    spans = split_spans(text, max_chars=60, overlap=10)
    _check(text, spans, 60)
    for _, b in spans[:-1]:
        assert text[b - 1] in "。！？；", text[b - 8 : b]


def test_chinese_without_punctuation_cuts_between_characters() -> None:
    text = "向量索引建在分块节点的嵌入属性上维度为三百八十四相似度函数为余弦" * 5
    spans = split_spans(text, max_chars=40, overlap=5)
    _check(text, spans, 40)
    for p in _boundaries(text, spans):
        assert is_cjk(text[p - 1]) and is_cjk(text[p])


def test_chinese_clause_marks_beat_bare_character_boundaries() -> None:
    text = "检索计划列出若干查询，每个查询指定模式和过滤条件，规划器根据用户消息判断意图，" * 4
    spans = split_spans(text, max_chars=50, overlap=0)
    _check(text, spans, 50)
    for _, b in spans[:-1]:
        assert text[b - 1] == "，"


def test_mixed_cjk_and_latin_never_splits_a_latin_word_or_version() -> None:
    text = ("存储层继续使用Neo4j5.26版本不引入单独的向量数据库而是用vectorindex和fulltextindex" * 6).strip()
    spans = split_spans(text, max_chars=45, overlap=8)
    _check(text, spans, 45)
    for p in _boundaries(text, spans):
        assert not _inside_latin_word(text, p), text[p - 6 : p + 6]
        assert not _inside_number(text, p), text[p - 6 : p + 6]


def test_numbers_are_never_split() -> None:
    text = " ".join(f"{i},000.{i}5" for i in range(200))
    spans = split_spans(text, max_chars=37, overlap=6)
    _check(text, spans, 37)
    for p in _boundaries(text, spans):
        assert not _inside_number(text, p)


@pytest.mark.parametrize(
    "unit",
    [
        "👍🏽",  # emoji + skin-tone modifier
        "👩\u200d💻",  # ZWJ sequence
        "e\u0301",  # combining acute accent
        "❤\ufe0f",  # variation selector
        "\U00020000",  # an astral CJK ideograph (a surrogate pair in UTF-16)
    ],
)
def test_grapheme_pieces_stay_together(unit: str) -> None:
    text = unit * 200
    spans = split_spans(text, max_chars=25, overlap=4)
    _check(text, spans, 25)
    for a, b in spans:
        assert text[a:b].startswith(unit[0])
        assert len(text[a:b]) % len(unit) == 0


def test_surrogate_pairs_in_surrogatepass_text_stay_together() -> None:
    # Python joins a pair into one code point when it decodes; text built from UTF-16 code units (or
    # JSON "\ud83d\ude00" escapes read without joining) keeps two. Never split them.
    text = "\ud83d\ude00" * 100
    spans = split_spans(text, max_chars=21, overlap=0)
    assert spans
    for a, b in spans:
        assert not ("\udc00" <= text[a] <= "\udfff"), "a chunk never starts with a low surrogate"
        assert not ("\ud800" <= text[b - 1] <= "\udbff"), "a chunk never ends with a high surrogate"


def test_one_giant_token_is_cut_hard_within_the_limit() -> None:
    text = "a" * 1000
    spans = split_spans(text, max_chars=300, overlap=50)
    _check(text, spans, 300)
    url = "https://example.invalid/" + "/".join(["segment"] * 80)
    spans = split_spans(url, max_chars=100, overlap=0)
    _check(url, spans, 100)
    for _, b in spans[:-1]:
        assert url[b - 1] == "/" or url[b] == "/" or url[b - 1] in "-_.", "a long URL is cut at punctuation"


def test_random_mixtures_keep_the_invariants() -> None:
    rng = random.Random(20260220)
    vocab = ["Neo4j", "5.26", "vector", "index", "向量索引", "混合检索", "。", "，", "the", "1,000", "RRF."]
    vocab += ["recall@10", "👍🏽", "\n\n", "\n", "re-rank!", "e\u0301", "？"]
    for _ in range(200):
        text = " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 300)))
        max_chars = rng.choice([30, 80, 200, 1200])
        overlap = rng.choice([0, max_chars // 10, max_chars // 3])
        spans = split_spans(text, max_chars, overlap)
        if not text.strip():
            assert spans == []
            continue
        _check(text, spans, max_chars)
        for p in _boundaries(text, spans):
            assert not _inside_number(text, p)


def test_bad_parameters_are_input_errors() -> None:
    with pytest.raises(InputError):
        split_spans("text", max_chars=5)
    with pytest.raises(InputError):
        split_spans("text", max_chars=300, overlap=200)
    with pytest.raises(InputError):
        split_spans("text", max_chars=300, overlap=-1)


def _section(index: int, text: str, start: int, page: int | None = None) -> ParsedSection:
    return ParsedSection(
        index=index,
        section_id=f"s{index:02d}-x",
        title=f"Section {index}",
        heading_path=[f"Section {index}"],
        level=1,
        text=text,
        page=page,
        offset_start=start,
        offset_end=start + len(text),
    )


def test_chunk_sections_numbers_globally_and_maps_offsets_to_the_document() -> None:
    a = "First section. " * 30
    b = "第二节的内容。" * 40
    doc = a + "\n\n" + b
    sections = [_section(0, a.strip(), 0, page=1), _section(1, b, len(a) + 2, page=2)]
    chunks = chunk_sections(sections, max_chars=120, overlap=20)
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    assert {c.section_index for c in chunks} == {0, 1}
    for c in chunks:
        assert doc[c.offset_start : c.offset_end] == c.text
        assert c.page == (1 if c.section_index == 0 else 2)
        assert c.section_title == f"Section {c.section_index}"
        assert len(c.content_hash) == 64
    # chunks do not cross sections
    boundary = len(a) + 2
    for c in chunks:
        assert c.offset_end <= len(a) or c.offset_start >= boundary


def test_parsed_document_chunks_round_trip_at_many_sizes() -> None:
    text = "# Title\n\n" + "\n\n".join(
        f"## Part {i}\n\n{EN_PARAGRAPH}\n\n{ZH_PARAGRAPH}\n\n- item one\n- item two" for i in range(5)
    )
    for max_chars, overlap in [(60, 0), (120, 30), (400, 100), (1200, 150)]:
        doc = parse_text(text, max_chars=max_chars, overlap=overlap)
        assert doc.chunks
        for s, c in doc.iter_chunks():
            assert doc.text[c.offset_start : c.offset_end] == c.text
            assert s.offset_start <= c.offset_start < c.offset_end <= s.offset_end
            assert len(c.text) <= max_chars
        assert [c.chunk_index for c in doc.chunks] == list(range(len(doc.chunks)))
