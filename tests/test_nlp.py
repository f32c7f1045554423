"""graphbrain.nlp: language detection, tokens, token estimates, canonical forms, entity candidates,
keywords and pipeline loading. No database; spaCy and jieba load once for the whole module."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from graphbrain.config import NlpConfig
from graphbrain.nlp import (
    canonicalize,
    detect_language,
    entity_candidates,
    estimate_tokens,
    get_pipeline,
    keywords,
    normalize_url,
    pipeline_info,
    structural_entities,
    tokenize,
)
from graphbrain.nlp.tokens import content_tokens, light_stem


def by_kind(text: str, kind: str) -> list[str]:
    return [c.canonical for c in entity_candidates(text) if c.kind == kind]


# ------------------------------------------------------------------------------------ language
@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("我们用 Neo4j 做存储", "zh"),
        ("今天天气很好", "zh"),
        ("Let's go with Neo4j for the memory store.", "en"),
        ("我们决定用 Neo4j 5.26 做 memory store", "mixed"),
        ("Let's use 图数据库 for storage", "mixed"),
        ("", "other"),
        ("12345 !!!", "other"),
        ("Привет, как дела?", "other"),
        ("ベクトル索引とはなにか", "ja"),
        ("벡터 인덱스를 만들었다", "ko"),
        ("PR #42 merged", "en"),  # short Latin text is English without a function word
        ("x = f(y)", "other"),  # no word to tell by
        ("def load(path): return json.loads(path.read_text())", "other"),  # code: no English function words
    ],
)
def test_detect_language(text: str, lang: str) -> None:
    assert detect_language(text) == lang


# ------------------------------------------------------------------------------------ tokens
def test_tokenize_english_lowercases_and_drops_stop_words() -> None:
    assert tokenize("The Memory Store is on Neo4j 5.26") == ["memory", "store", "neo4j", "5.26"]


def test_tokenize_chinese_segments_with_jieba_and_drops_function_words() -> None:
    toks = tokenize("我们决定用知识图谱")
    assert "决定" in toks
    assert "知识" in toks and "图谱" in toks
    assert "我们" not in toks and "用" not in toks


def test_tokenize_mixed_text_keeps_both_scripts() -> None:
    assert tokenize("我们决定用 Neo4j 5.26 做 memory store") == ["决定", "neo4j", "5.26", "memory", "store"]


def test_content_tokens_fold_plurals() -> None:
    assert content_tokens("the tests") == content_tokens("test")
    assert light_stem("status") == "status"
    assert light_stem("libraries") == "library"


# ------------------------------------------------------------------------------------ token estimate
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("你好", 2),  # 2 Han characters
        ("hello world", 3),  # 2 words × 1.3 = 2.6 → 3
        ("你好, world!", 5),  # 2 + 1.3 + 2 punctuation × 0.5 = 4.3 → 5
        ("internationalization", 5),  # one long word: 20 letters / 4
    ],
)
def test_estimate_tokens_follows_the_documented_rule(text: str, expected: int) -> None:
    assert estimate_tokens(text) == expected


# ------------------------------------------------------------------------------------ canonical forms
def test_normalize_url_drops_tracking_fragment_and_trailing_slash() -> None:
    raw = "HTTPS://Example.COM:443/Docs/?utm_source=x&a=1&utm_medium=y#section"
    assert normalize_url(raw) == "https://example.com/Docs?a=1"
    assert normalize_url("https://example.com/") == "https://example.com"
    assert normalize_url("www.example.com/a") == "https://www.example.com/a"
    assert normalize_url("http://user:secret@example.com:8080/x") == "http://example.com:8080/x"
    assert normalize_url("http://[::1]:8080/x/") == "http://[::1]:8080/x"  # IPv6 keeps its brackets
    assert normalize_url("http://[::1") == "http://[::1"  # cannot be taken apart: kept as given
    assert normalize_url("mailto:a@b.c") == "mailto:a@b.c"  # no host: kept as given


@pytest.mark.parametrize(
    "url",
    [
        "HTTPS://Docs.Example.com:443/Guide/?utm_source=x&fbclid=y&page=2#intro",
        "http://user:secret@example.com:80/a/",
        "www.example.com/a",
        "https://github.com/acme/widgets/blob/main/README.md",
    ],
)
def test_a_ref_and_the_entity_for_its_url_have_one_key(url: str) -> None:
    from graphbrain.resources.refs import normalise_ref_uri

    ref_uri = normalise_ref_uri("url", url)
    assert ref_uri == canonicalize(url, "url") == canonicalize(ref_uri, "url")  # idempotent
    said = [c.canonical for c in entity_candidates(f"see {url} for details") if c.kind == "url"]
    assert said == [ref_uri]


@pytest.mark.parametrize(
    ("name", "kind", "canonical"),
    [
        ("The Memory Store!", "topic", "memory store"),
        ("  Alice   Chen ", "person", "alice chen"),
        ("Alice's", "person", "alice"),
        ("Node.js", "topic", "node.js"),
        ("C++", "topic", "c++"),
        ("https://GitHub.com/Acme/Widgets.git", "repo", "acme/widgets"),
        ("Acme/Widgets", "repo", "acme/widgets"),
        ("./Docs//Guide.md", "file", "docs/guide.md"),
        ("C:\\Users\\Me\\notes.txt", "file", "c:/users/me/notes.txt"),
        ("知识图谱", "topic", "知识图谱"),
    ],
)
def test_canonicalize(name: str, kind: str, canonical: str) -> None:
    assert canonicalize(name, kind) == canonical


def test_one_thing_one_canonical_form() -> None:
    assert canonicalize("Neo4j", "topic") == canonicalize("neo4j.", "topic") == canonicalize("NEO4J", "topic")


# ------------------------------------------------------------------------------------ entities
def test_urls_are_normalised_and_github_urls_are_repos() -> None:
    text = "See https://neo4j.com/docs/?utm_source=chat#x and https://github.com/acme/widgets/"
    cands = entity_candidates(text)
    urls = [c for c in cands if c.kind == "url"]
    repos = [c for c in cands if c.kind == "repo"]
    assert [u.canonical for u in urls] == ["https://neo4j.com/docs"]
    assert [r.canonical for r in repos] == ["acme/widgets"]
    assert all(c.structural for c in urls + repos)


def test_a_page_inside_a_repo_is_both_a_url_and_the_repo() -> None:
    cands = entity_candidates("Read https://github.com/acme/widgets/blob/main/README.md now")
    assert {(c.kind, c.canonical) for c in cands} >= {
        ("repo", "acme/widgets"),
        ("url", "https://github.com/acme/widgets/blob/main/README.md"),
    }


def test_bare_repo_needs_a_cue_so_and_or_is_not_a_repo() -> None:
    assert by_kind("clone the repo acme/widgets first", "repo") == ["acme/widgets"]
    assert by_kind("看一下仓库 acme/widgets", "repo") == ["acme/widgets"]
    assert by_kind("use TCP/IP and/or UDP", "repo") == []


def test_file_paths_in_several_shapes() -> None:
    text = "Edit src/graphbrain/x.py, ./docs/a.md, C:\\work\\brain.yml and README.md, not v1.2 or 5.26"
    assert by_kind(text, "file") == ["src/graphbrain/x.py", "docs/a.md", "c:/work/brain.yml", "readme.md"]


def test_paths_inside_chinese_text() -> None:
    assert by_kind("请修改src/app.py里的函数", "file") == ["src/app.py"]


def test_english_ner_people_and_orgs() -> None:
    cands = entity_candidates("Alice Chen from Acme Corp reviewed the design.")
    kinds = {(c.kind, c.canonical) for c in cands}
    assert ("person", "alice chen") in kinds
    assert ("org", "acme corp") in kinds


def test_identifier_shaped_names_are_never_people() -> None:
    # en_core_web_sm tags "Neo4j" as PERSON; the shape check overrides that.
    cands = entity_candidates("Let's go with Neo4j for the memory store.")
    neo = [c for c in cands if c.canonical == "neo4j"]
    assert neo and neo[0].kind != "person"


def test_shape_rules_find_camelcase_and_snake_case() -> None:
    cands = {c.canonical: c for c in entity_candidates("we renamed GraphBrain's commit_turn helper")}
    assert "graphbrain" in cands
    assert cands["commit_turn"].kind == "concept"  # the neutral kind; "other" is for places
    assert cands["commit_turn"].signal == "proper_noun"


def test_chinese_names_orgs_and_quoted_titles() -> None:
    cands = {c.canonical: c for c in entity_candidates("张伟在腾讯工作，他推荐了《三体》和「知识图谱」。")}
    assert cands["张伟"].kind == "person"
    assert cands["三体"].signal == "quoted"
    assert cands["知识图谱"].signal == "quoted"


def test_english_words_inside_chinese_text_form_one_phrase() -> None:
    cands = {c.canonical: c for c in entity_candidates("我们决定用 Neo4j 5.26 做 memory store")}
    assert "memory store" in cands
    assert "neo4j" in cands


def test_candidate_spans_point_at_the_text() -> None:
    text = "Ping Alice Chen about src/app.py and 「知识图谱」"
    for c in entity_candidates(text):
        assert text[c.start : c.end] == c.name


def test_remember_object_is_a_candidate() -> None:
    # A short "remember X" object is a candidate of its own when no stronger rule covers it.
    cands = entity_candidates("please remember the blue deploy plan")
    assert [(c.canonical, c.signal) for c in cands] == [("blue deploy plan", "remember")]


def test_structural_entities_needs_no_model() -> None:
    found = structural_entities("see https://example.com/a and src/x.py")
    assert [(c.kind, c.signal) for c in found] == [("url", "url"), ("file", "path")]


def test_one_candidate_per_kind_and_canonical() -> None:
    cands = entity_candidates("Neo4j, neo4j and NEO4J everywhere: Neo4j")
    assert len([c for c in cands if c.canonical == "neo4j"]) == 1


def test_empty_text_has_no_candidates() -> None:
    assert entity_candidates("   ") == []


# ------------------------------------------------------------------------------------ keywords
def test_keywords_english_prefers_names_and_noun_chunks() -> None:
    kws = keywords("We decided to use Neo4j for the memory store because it has vector indexes.")
    assert kws[0] == "Neo4j"
    assert "memory store" in kws
    assert "vector indexes" in kws
    assert "the memory store" not in kws


def test_keywords_chinese_nouns() -> None:
    kws = keywords("我们需要为知识图谱设计新的存储方案，并且测试向量索引")
    # 向量索引 is one component (a compound entity); its words alone add nothing beside it.
    assert {"向量索引", "方案"} <= set(kws)
    assert not {"我们", "并且", "需要"} & set(kws)
    assert len(kws) <= 8


def test_keywords_respect_k_and_dedupe_words_inside_phrases() -> None:
    kws = keywords("Our memory store is slow, so the memory store needs a better index.", k=3)
    assert len(kws) == 3
    assert kws[0] == "memory store"
    assert "memory" not in kws and "store" not in kws  # already inside "memory store"


def test_keywords_empty() -> None:
    assert keywords("") == []
    assert keywords("hello", k=0) == []


# ------------------------------------------------------------------------------------ pipelines
def test_importing_nlp_loads_no_model() -> None:
    code = (
        "import sys, graphbrain.nlp, graphbrain.commit.extract, graphbrain.commit.retention; "
        "print('spacy' in sys.modules, 'jieba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_pipelines_load_once_and_are_cached() -> None:
    assert get_pipeline("en") is get_pipeline("en")
    assert get_pipeline("zh") is get_pipeline("zh")
    info = pipeline_info("en")
    assert "ner" in info.components and "lemmatizer" not in info.components
    assert not info.fallback


def test_chinese_pipeline_segments_with_jieba() -> None:
    doc = get_pipeline("zh")("我们决定用向量索引")
    assert [t.text for t in doc] == ["我们", "决定", "用", "向量", "索引"]
    assert pipeline_info("zh").spec == "blank:zh:jieba"


def test_missing_english_model_falls_back_to_blank_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    cfg = NlpConfig(en="graphbrain_no_such_model_xyz")
    with caplog.at_level(logging.WARNING):
        nlp = get_pipeline("en", cfg)
    assert nlp.pipe_names == []
    assert pipeline_info("en", cfg).fallback
    assert "not found" in caplog.text


def test_unknown_pipeline_language_is_refused() -> None:
    with pytest.raises(ValueError, match="expected 'en' or 'zh'"):
        get_pipeline("fr")  # type: ignore[arg-type]


def test_a_common_noun_jieba_calls_a_name_is_not_a_person() -> None:
    # jieba's dictionary tags 索引 ("index") as a person name (nr); names start with a surname.
    kinds = {c.name: c.kind for c in entity_candidates("我们先给向量索引写 schema，张伟负责，请发给陈静。")}
    assert kinds["向量索引"] == "concept" and "索引" not in kinds  # the component, never a person
    assert kinds["张伟"] == "person" and kinds["陈静"] == "person"


def test_batched_english_parses_give_the_same_candidates() -> None:
    from graphbrain.nlp import english_docs

    texts = [
        "Alice Smith moved the Neo4j cluster to Berlin on Monday.",
        "我们决定用 Neo4j 5.26 做 memory store，Bob Jones 负责。",
        "张伟负责第三部分。",
        "",
        "See https://github.com/acme/graphbrain and docs/guide.md, said Carol White of Acme Corp.",
    ]
    docs = english_docs(texts, [None] * len(texts))
    assert docs[2] is None and docs[3] is None  # Chinese and empty texts are not parsed
    for text, doc in zip(texts, docs, strict=True):
        assert entity_candidates(text, en_doc=doc) == entity_candidates(text)


# ------------------------------------------------------------------------------------ questions
@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("Neo4j 5.26 then?", "question mark"),
        ("我们用的是 Neo4j 吗", "question particle"),
        ("What database does Atlas use again", "question opening"),
        ("do you remember the port", "question opening"),
        ("我们用的是什么数据库", "question word"),  # no mark: the question word asks
        ("内存够不够", "question word"),  # A-不-A
        ("We decided to use Neo4j.", None),
        ("我们决定用 Neo4j。", None),
    ],
)
def test_one_question_test_for_both_languages(text: str, cue: str | None) -> None:
    from graphbrain.commit.utterance import classify_utterance
    from graphbrain.nlp import question_cue

    assert question_cue(text) == cue
    assert (classify_utterance(text) == "question") == (cue is not None)  # extraction asks the same test


def test_known_names_are_whole_words_longest_first_at_any_lexicon_size() -> None:
    """A name the namespace knows is found case-insensitively, a Latin one only as whole words, the
    longest at a position first, never overlapping; Chinese ones anywhere in the text. The lookup follows
    the text, so a lexicon of thousands of names (one more after each commit) works the same."""
    from graphbrain.nlp.entities import known_names

    lexicon = {f"name{i} thing": ("concept", f"name{i} thing") for i in range(5000)}
    lexicon |= {
        "Bob": ("person", "bob"),
        "billing service": ("concept", "billing service"),
        "billing": ("concept", "billing"),
        "计费服务": ("concept", "计费服务"),
        "李娜": ("person", "李娜"),
        "GPU 池 B": ("concept", "gpu 池 b"),
    }
    text = "Bobby and bob own the Billing Service; 李娜负责计费服务, GPU 池 B 和 name4999 thing. xBob"
    found = [(c.name, c.canonical, text[c.start : c.end]) for c in known_names(text, lexicon)]
    assert found == [
        ("bob", "bob", "bob"),
        ("Billing Service", "billing service", "Billing Service"),
        ("李娜", "李娜", "李娜"),
        ("计费服务", "计费服务", "计费服务"),
        ("GPU 池 B", "gpu 池 b", "GPU 池 B"),
        ("name4999 thing", "name4999 thing", "name4999 thing"),
    ]
    assert known_names("nothing known here", {}) == []


def test_a_name_index_finds_what_its_lexicon_finds_built_whole_or_grown() -> None:
    """The commit pipeline keeps each namespace's lexicon folded once (``NameIndex``) and adds the names a
    turn teaches with ``plus``: both find exactly what the plain mapping finds, English and Chinese."""
    from graphbrain.nlp.entities import NameIndex, known_names

    lexicon = {"Atlas": ("concept", "atlas"), "Dana Kim": ("person", "dana kim"), "计费服务": ("concept", "计费服务")}
    grown = NameIndex({"Atlas": ("concept", "atlas")})
    grown = grown.plus("Dana Kim", ("person", "dana kim")).plus("计费服务", ("concept", "计费服务"))
    assert grown.plus("Atlas", ("concept", "other")) is grown  # a known name keeps what it had
    text = "dana kim moved ATLAS onto 计费服务; Atlases are not Atlas."
    plain = known_names(text, lexicon)
    assert [c.name for c in plain] == ["dana kim", "ATLAS", "计费服务", "Atlas"]
    assert known_names(text, NameIndex(lexicon)) == plain == known_names(text, grown)
    assert dict(grown) == lexicon and "Atlas" in grown and len(grown) == 3


@pytest.mark.parametrize(
    ("text", "lang", "name"),
    [
        ("# Quillfeather\n\nQuillfeather is the ledger service our team runs.", "en", "Quillfeather"),
        ("## Atlas\nAtlas stores the invoices for the billing team.", "en", "Atlas"),
        ("# 陈静\n\n陈静负责账本服务。", "zh", "陈静"),
        ("# Quillfeather 账本\n\nQuillfeather 是我们团队的账本服务。", "mixed", "Quillfeather"),
    ],
)
def test_a_name_never_runs_across_a_line_break(text: str, lang: str, name: str) -> None:
    # The small English model glues a heading to the paragraph's first word ("Quillfeather\n\nQuillfeather").
    names = [c.name for c in entity_candidates(text, lang)]
    assert all("\n" not in n for n in names), names
    assert name in names
