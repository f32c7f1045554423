"""Stop words: one source per language, built from spaCy's own lists (search tokens, keywords, layers).

- **English**: spaCy's list (``spacy/lang/en/stop_words.py``) without the words that carry content in a
  memory, measured on LoCoMo (see the README): numbers and ordinals ("two kids", "the first time"),
  time and frequency words ("last", "next", "never", "often"), verbs that name what happened ("move",
  "call", "name", "show", "made") and nouns ("top", "side", "part"); plus what our tokenizer keeps whole
  where spaCy's splits ("don't", "i'm": spaCy lists "n't" and "'m"), and chat fillers ("ok", "yeah").
- **Chinese**: spaCy's list (``spacy/lang/zh/stop_words.py``), its Han entries that are function words:
  one character, or a word jieba tags as a pronoun, preposition, conjunction, auxiliary, adverb,
  particle, interjection, onomatopoeia, numeral, measure word, locative or time word, or an auxiliary
  verb (jieba tags 可能 / 应该 / 需要 as verbs). The content words spaCy also lists (问题, 决定, 完成,
  使用, 安全, 任务) stay words. Plus a few chat and position words spaCy lacks (谢谢, 请, 里, 中).

A key term (``keywords``, a section's key terms) is never any word spaCy lists (``KEY_TERM_STOP_WORDS``).

The lists are read from spaCy's files without importing spaCy (that costs about a second at start-up).
The Chinese one needs jieba's tags, so it is built on first use (when jieba is loaded anyway).
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Iterable, Iterator, Set
from pathlib import Path
from typing import Any


def word_set(*chunks: str) -> frozenset[str]:
    """A frozenset of the whitespace-separated words in ``chunks`` (for word tables kept readable)."""
    return frozenset(w for chunk in chunks for w in chunk.split())


def _spacy_list(lang: str) -> frozenset[str]:
    """``STOP_WORDS`` of ``spacy/lang/<lang>/stop_words.py``, run on its own (the file imports nothing)."""
    spec = importlib.util.find_spec("spacy")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("spaCy is not installed: graphbrain's stop words come from its lists")
    path = Path(next(iter(spec.submodule_search_locations))) / "lang" / lang / "stop_words.py"
    namespace: dict[str, Any] = {}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)  # noqa: S102
    return frozenset(str(w).lower() for w in namespace["STOP_WORDS"])


# Words spaCy lists that carry content in a memory (see the module docstring).
EN_CONTENT_WORDS = word_set(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty forty fifty sixty",
    "hundred first third",
    "last next never always often sometimes sometime once again already still ever before after since",
    "until during together alone",
    "name move call show give take make made put keep get go see say become became used using done",
    "amount bottom top front back side full empty serious part whole mine",
)
# Tokens spaCy's list has no entry for: contractions our tokenizer keeps whole, chat fillers, URL parts.
EN_EXTRA_WORDS = word_set(
    "don't i'm i'll i've i'd we're we'll we've it's that's let's lets let having shall theirs s t",
    "ok okay yes yeah oh http https www",
)
EN_STOP_WORDS: frozenset[str] = (_spacy_list("en") - EN_CONTENT_WORDS) | EN_EXTRA_WORDS

# jieba POS flags of function words: pronoun, preposition, conjunction, auxiliary, adverb, modal
# particle, interjection, onomatopoeia, numeral, measure word, locative, time, status word.
_ZH_FUNCTION_FLAGS = ("r", "p", "c", "u", "d", "y", "e", "o", "m", "q", "f", "t", "z")
# Auxiliary verbs and fillers jieba tags as verbs or nouns.
ZH_AUXILIARIES = word_set("可能 应该 应当 需要 能够 愿意 没有 是否 是不是 大家 时候 好的 有的")
ZH_EXTRA_WORDS = word_set("谢谢 请 做 中 里 前 后 时 太 一下")


def _zh_function_word(word: str, tags: Callable[[str], list[tuple[str, str]]]) -> bool:
    if len(word) == 1 or word in ZH_AUXILIARIES:
        return True
    flags = [f for w, f in tags(word) if w.strip()]
    return bool(flags) and flags[0].startswith(_ZH_FUNCTION_FLAGS)


def _zh_stop_words() -> frozenset[str]:
    from graphbrain.nlp import pipelines

    return frozenset(w for w in _zh_spacy_han() if _zh_function_word(w, pipelines.posseg)) | ZH_EXTRA_WORDS


class LazyWords(Set[str]):
    """A frozen word set built on first use (``in``, iteration, ``|``), once, thread-safely."""

    def __init__(self, build: Callable[[], frozenset[str]]) -> None:
        self._build = build
        self._words: frozenset[str] | None = None
        self._lock = threading.Lock()

    def words(self) -> frozenset[str]:
        if self._words is None:
            with self._lock:
                if self._words is None:
                    self._words = self._build()
        return self._words

    def __contains__(self, word: object) -> bool:
        return word in self.words()

    def __iter__(self) -> Iterator[str]:
        return iter(self.words())

    def __len__(self) -> int:
        return len(self.words())

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> frozenset[Any]:
        # What ``a | b`` and friends build: a plain frozenset, not another lazy set.
        return frozenset(it)


def _zh_spacy_han() -> frozenset[str]:
    from graphbrain.nlp.chars import is_han

    return frozenset(w for w in _spacy_list("zh") if w and all(is_han(c) for c in w))


ZH_STOP_WORDS: LazyWords = LazyWords(_zh_stop_words)
STOP_WORDS: LazyWords = LazyWords(lambda: EN_STOP_WORDS | ZH_STOP_WORDS.words())
# A key term (keywords, a section's key terms) is never a word spaCy lists, content word or not: "one",
# "used", 问题 say something in a search but nothing as the summary of a text.
KEY_TERM_STOP_WORDS: LazyWords = LazyWords(
    lambda: STOP_WORDS.words() | _spacy_list("en") | _zh_spacy_han() | EN_EXTRA_WORDS | ZH_EXTRA_WORDS
)
