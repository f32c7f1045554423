"""The things a message talks about that are no name: noun phrases and identifiers, for the graph walk.

    phrases("Heron is blocked until the orders schema change lands.")   # ['orders schema change']
    phrases("PR 913 lowered the connection pool limit to 20.")          # ['PR 913', 'connection pool limit']
    phrases("青鸟项目卡在 Kafka 集群升级上。")                              # ['Kafka 集群升级']

A chain of turns is often tied by such a thing: one turn says the orders schema change blocks Heron,
another that only Dana merges it. ``entity_candidates`` finds names and named components; these are the
rest — nouns (English by lemma, Chinese words jieba tags as nouns), several words naming one thing
(English noun phrases of two words or more as spaCy parses them, with the shorter phrases inside them;
Chinese runs of nouns) and identifiers ("PR 913", "BA 178"). The graph then links turn to turn as the
issue's flat probe did (a turn–noun graph, hubs damped by how many turns mention each), but in the
database, with names. The commit pipeline
records them as *candidate* entities: linked to the turns that mention them, so that the walk and the
bridges can follow them, but never memory items (the entity gate decides those).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graphbrain.config import NlpConfig
from graphbrain.nlp import pipelines
from graphbrain.nlp.candidate import EntityCandidate
from graphbrain.nlp.canonical import canonicalize
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.english import english_doc
from graphbrain.nlp.language import detect_language
from graphbrain.nlp.lemmas import lemma
from graphbrain.nlp.stopwords import EN_STOP_WORDS, ZH_STOP_WORDS

__all__ = ["known_phrases", "phrases"]

# "PR 913", "BA 178", "INC-482", "RFC 27": letters naming a series, then its number.
_IDENTIFIER_RE = re.compile(r"\b[A-Z]{2,6}[ -]?\d{1,6}\b")
# A name written across scripts: a Latin word, a few Chinese characters, a short tag ("GPU 池 B",
# "A 栋 3"): jieba cuts it into pieces that each mean little.
_MIXED_NAME_RE = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*\s?[\u4e00-\u9fff]{1,3}\s?[A-Za-z0-9]{1,3}(?![A-Za-z0-9])"
)
_EN_WORD_POS = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})
_EN_HEAD_POS = frozenset({"NOUN", "PROPN"})
# jieba flags of the words a Chinese noun phrase is made of, and of the word it ends with.
_ZH_WORD_FLAGS = frozenset({"n", "nz", "vn", "nt", "ns", "nrt", "eng", "j", "l"})
_ZH_HEAD_FLAGS = frozenset({"n", "nz", "vn", "eng", "j"})
_ZH_NOUN_FLAGS = frozenset({"n", "nz", "nr", "ns", "nt", "nrt", "j"})
MAX_WORDS = 5


def _candidate(name: str, start: int, end: int) -> EntityCandidate:
    return EntityCandidate(name, canonicalize(name, "concept"), "concept", start, end, "phrase")


def _english(text: str, cfg: NlpConfig | None) -> list[EntityCandidate]:
    doc = english_doc(text, cfg)
    out: list[EntityCandidate] = []
    for tok in doc:
        # Single nouns too, by lemma ("kraken", "invoices" → invoice): one turn says "the feature store
        # moved to kraken", another "kraken is the Frankfurt cluster".
        if (
            tok.pos_ in _EN_HEAD_POS
            and not tok.is_stop
            and len(tok.text) >= 3
            and tok.text.isalpha()
            and tok.lower_ not in EN_STOP_WORDS
            and tok.ent_type_ not in ("DATE", "TIME")  # "today", "weekend": the turn's time says it
        ):
            out.append(_word(lemma(tok.lower_, "noun") if tok.pos_ == "NOUN" else tok.text, tok.idx, len(tok.text)))
    for chunk in doc.noun_chunks:
        words = [t for t in chunk if not (t.is_stop or t.lower_ in EN_STOP_WORDS or t.pos_ in ("DET", "PRON"))]
        # the phrase is its words from the first content word to the head, all nouns, adjectives, numbers
        while words and words[0].pos_ not in _EN_WORD_POS:
            words = words[1:]
        if len(words) < 2 or len(words) > MAX_WORDS or words[-1].i != chunk.root.i:
            continue
        if chunk.root.pos_ not in _EN_HEAD_POS or any(t.pos_ not in _EN_WORD_POS | {"PUNCT"} for t in words):
            continue
        if all(t.pos_ == "PROPN" for t in words):
            continue  # a name: entity_candidates' business
        # The phrase and the shorter ones that end where it ends ("orders schema change", "schema
        # change"), and the one before its last word ("orders schema"): people shorten a name either way.
        ends = [(i, len(words)) for i in range(len(words) - 1)] + ([(0, len(words) - 1)] if len(words) > 2 else [])
        for i, j in ends:
            start, end = words[i].idx, words[j - 1].idx + len(words[j - 1].text)
            out.append(_candidate(text[start:end], start, end))
    return out


def _word(name: str, start: int, length: int) -> EntityCandidate:
    return EntityCandidate(name, canonicalize(name, "concept"), "concept", start, start + length, "phrase")


def _chinese(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    run: list[tuple[str, str, int]] = []
    pos = 0

    def close() -> None:
        while run and run[-1][1] not in _ZH_HEAD_FLAGS:
            run.pop()
        if len(run) >= 2 and has_cjk("".join(w for w, _, _ in run)):
            start, end = run[0][2], run[-1][2] + len(run[-1][0])
            name = text[start:end].strip()
            if len(name) >= 3:
                out.append(_candidate(name, start, end))
        run.clear()

    for word, flag in pipelines.posseg(text):
        if flag in _ZH_NOUN_FLAGS and len(word) >= 2 and has_cjk(word) and word not in ZH_STOP_WORDS:
            out.append(_word(word, pos, len(word)))  # a noun alone: 橘猫, 嘉定, 顺丰
        if flag in _ZH_WORD_FLAGS or (word.strip() == "" and run and run[-1][1] == "eng"):
            if word.strip():
                run.append((word, flag, pos))
        else:
            close()
        pos += len(word)
    close()
    return out


def phrases(text: str, lang: str | None = None, *, cfg: NlpConfig | None = None) -> list[EntityCandidate]:
    """The noun phrases and identifiers of ``text`` (see the module docstring), in order, each once."""
    if not text.strip():
        return []
    lang = lang or detect_language(text)
    found = [_candidate(m.group(), m.start(), m.end()) for m in _IDENTIFIER_RE.finditer(text)]
    if lang in ("en", "mixed"):
        found += _english(text, cfg)
    if has_cjk(text):
        found += [_candidate(m.group(), m.start(), m.end()) for m in _MIXED_NAME_RE.finditer(text)]
        found += _chinese(text)
    seen: set[str] = set()
    out: list[EntityCandidate] = []
    for c in sorted(found, key=lambda c: c.start):
        if c.canonical and c.canonical not in seen:
            seen.add(c.canonical)
            out.append(c)
    return out


def known_phrases(text: str, names: Iterable[str]) -> list[EntityCandidate]:
    """The Chinese ``names`` (candidates the namespace already holds) found in ``text`` as written.

    jieba cuts the same words differently in different sentences ("橘猫" alone, "橘/猫叫" before 叫), so
    a thing named once is found again by its characters, whatever the segmenter makes of them. A plain
    substring test per name: no pattern to rebuild as the names grow with every turn.
    """
    out: list[EntityCandidate] = []
    for name in names:
        if len(name) >= 2 and has_cjk(name[0]) and has_cjk(name[-1]):
            at = text.find(name)
            if at >= 0:
                out.append(_word(name, at, len(name)))
    return sorted(out, key=lambda c: (c.start, c.name))  # names may come as a set: a stable order
