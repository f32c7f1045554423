"""Token counters: the documented estimate, a real tokenizer.json, and truncation to a token budget."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from graphbrain.compose.tokens import (
    EstimateCounter,
    HFTokenizerCounter,
    TokenCounter,
    get_counter,
    truncate_to_tokens,
)
from graphbrain.errors import ConfigError

EN = "The executor fuses the lists with reciprocal rank fusion, then reranks the head."
ZH = "执行器用倒数排名融合合并多个列表，然后重排并应用多样性约束。"
MIXED = "我们用 Neo4j 5.26 的 vector index 做语义召回：https://neo4j.com/docs/ (v2) 见文档。"


def test_estimate_rules() -> None:
    est = EstimateCounter()
    assert est.name == "estimate"
    assert est.count("") == 0 and est.count("   \n\t") == 0
    assert est.count("中文") == 2  # one per CJK character
    assert est.count("hello") == 2  # ceil(1.3)
    assert est.count("hello world") == 3  # ceil(2.6)
    assert est.count("ten words " * 10) == 26  # 20 words x 1.3
    assert est.count("internationalization") == 5  # 20 letters: max(1.3, 20/4)
    assert est.count("42") == 1 and est.count("!") == 1  # ceil(0.5)
    assert est.count("1, 2, 3") == 2  # three runs "1," "2," "3" x 0.5 = 1.5
    assert est.count("你好 world") == 4  # 2 + 1.3


def test_estimate_is_consistent_and_monotone() -> None:
    est = EstimateCounter()
    rng = random.Random(7)
    alphabet = list("abcdefg xyz 中文字符 123 .,;!? \n") + ["Neo4j", "向量", "https://x.y/z"]
    for _ in range(500):
        a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        b = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert est.count(a + b) <= est.count(a) + est.count(b) + 1
        assert est.count(a) <= est.count(a + b)  # a prefix never costs more
        assert est.count(a) == est.count(a)


def test_get_counter() -> None:
    assert isinstance(get_counter(None), EstimateCounter)
    assert isinstance(get_counter(None), TokenCounter)
    with pytest.raises(ConfigError, match="policies.composition.tokenizer"):
        get_counter("/nonexistent/tokenizer.json")


def _word_level_tokenizer(path: Path) -> Path:
    """A tiny WordLevel tokenizer.json built with the tokenizers library (no download)."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[UNK]": 0, "the": 1, "head": 2, "lists": 3}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    file = path / "tokenizer.json"
    tok.save(str(file))
    assert json.loads(file.read_text())["model"]["type"] == "WordLevel"
    return file


def test_hf_tokenizer_counter(tmp_path: Path) -> None:
    file = _word_level_tokenizer(tmp_path)
    counter = get_counter(str(file))
    assert isinstance(counter, HFTokenizerCounter)
    assert counter.count("the head of the lists") == 5
    assert counter.count("the head, the lists.") == 6  # Whitespace pre-tokenizer splits punctuation
    assert counter.count("") == 0
    assert counter.name == f"tokenizer:{tmp_path.name}"
    # a directory holding tokenizer.json works too
    assert HFTokenizerCounter(str(tmp_path)).count("the head") == 2


def test_hf_tokenizer_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match="cannot be loaded"):
        HFTokenizerCounter(str(bad))


@pytest.mark.parametrize("text", [EN, ZH, MIXED, EN * 20, ZH * 20])
def test_truncate_fits_and_is_a_prefix(text: str) -> None:
    est = EstimateCounter()
    for budget in (1, 2, 3, 5, 8, 13, 21, 40, 100):
        out = truncate_to_tokens(text, est, budget)
        assert est.count(out) <= budget, (budget, out)
        if out != text and out:
            assert out.endswith("…")
            assert text.startswith(out[:-1])
            body = out[:-1]
            # never ends inside a Latin word: the next character of the text is not a letter
            nxt = text[len(body)] if len(body) < len(text) else " "
            assert not (body[-1:].isascii() and body[-1:].isalnum() and nxt.isascii() and nxt.isalnum())


def test_truncate_keeps_what_fits_and_uses_the_budget() -> None:
    est = EstimateCounter()
    assert truncate_to_tokens(EN, est, 1000) == EN
    out = truncate_to_tokens(EN, est, 10)
    # The 1.3 + executor max(1.3, 8/4) = 2 + fuses/the/lists/with 4 x 1.3 = 5.2 -> 8.5, "…" 0.5 -> 9;
    # adding "reciprocal" (10 letters: 2.5) would make 11.5 -> 12 > 10
    assert out == "The executor fuses the lists with…"
    longer = truncate_to_tokens(EN, est, 11)
    assert len(longer) >= len(out)
    assert truncate_to_tokens(EN, est, 0) == ""
    assert truncate_to_tokens(EN, est, 10, marker="") == "The executor fuses the lists with"


def test_truncate_with_a_real_tokenizer(tmp_path: Path) -> None:
    counter = HFTokenizerCounter(str(_word_level_tokenizer(tmp_path)))
    out = truncate_to_tokens("the head the lists the head", counter, 4, marker="")
    assert out == "the head the lists"
    assert counter.count(out) == 4
