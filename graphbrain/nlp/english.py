"""English entity signals: the spaCy parse (cached), its named entities, and capitalised names."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from graphbrain.config import NlpConfig
from graphbrain.nlp import pipelines
from graphbrain.nlp.candidate import EntityCandidate, EntityKind
from graphbrain.nlp.canonical import canonicalize
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.language import detect_language
from graphbrain.nlp.stopwords import EN_STOP_WORDS, STOP_WORDS, word_set

if TYPE_CHECKING:
    from spacy.tokens import Doc

__all__ = ["english_doc", "english_docs", "ner_candidates", "plausible_person", "proper_noun_candidates"]

_NER_KIND: dict[str, EntityKind] = {
    "PERSON": "person",
    "ORG": "org",
    "PRODUCT": "concept",
    "WORK_OF_ART": "concept",
    "EVENT": "concept",
    "LAW": "concept",
    "LANGUAGE": "concept",
    "GPE": "other",
    "LOC": "other",
    "FAC": "other",
    "NORP": "other",
}  # DATE, TIME, MONEY, PERCENT, QUANTITY, ORDINAL, CARDINAL are values, not entities: skipped.

# Shape rules for Latin proper nouns and identifiers: (pattern, kind).
_PROPER_RES: tuple[tuple[re.Pattern[str], EntityKind], ...] = (
    (re.compile(r"\b[A-Z][a-z0-9]+(?:[ \t]+[A-Z][a-zA-Z0-9]+)+\b"), "concept"),  # Memory Store Service
    (re.compile(r"\b[A-Z]?[a-z]+(?:[A-Z][a-z0-9]+)+\b"), "concept"),  # GraphBrain, iPhone, camelCase
    (re.compile(r"\b[A-Z][A-Za-z]*[0-9][A-Za-z0-9]*\b"), "concept"),  # Neo4j, GPT4, S3
    (re.compile(r"\b[A-Z]{2,}[0-9]*\b"), "concept"),  # API, NER
    (re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"), "concept"),  # snake_case identifiers
)
_SINGLE_CAP_RE = re.compile(r"\b[A-Z][a-z]{2,}\b")
# Capitalised words that are not names (shouting, calendar words, chat acronyms).
_NOT_PROPER = word_set(
    """
    todo fixme note ok fyi asap lol btw imo imho tbd tba wip eod pm am ps faq
    monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday
    january february march april may june july august september october november december
    """
)


_NAME_WORD_RE = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*\.?")


def plausible_person(name: str) -> bool:
    """A name a person could have: one to four capitalised alphabetic words ("Tomás", "Li Na",
    "O'Brien", "Jean-Luc"). The small English model calls "Neo4j" a PERSON; this says no."""
    words = name.split()
    if not 0 < len(words) <= 4:
        return False
    for w in words:
        if not _NAME_WORD_RE.fullmatch(w):
            return False
        for part in re.split(r"['’-]", w.rstrip(".")):
            if not part or not part[0].isupper() or not (len(part) == 1 or part[1:].islower()):
                return False
    return True


_DOC_CACHE_MAX_CHARS = 20_000  # a cached Doc costs memory; long texts are parsed each time


@lru_cache(maxsize=128)
def _cached_en_doc(text: str, spec: str) -> Doc:
    return pipelines.parse(text, "en", NlpConfig(en=spec, zh=pipelines.default_config().zh))


def english_doc(text: str, cfg: NlpConfig | None = None) -> Doc:
    """The English pipeline's parse of ``text``, shared by every reader of the same short text (keywords,
    entities, phrases, the filler test) through a small cache."""
    return _en_doc(text, (cfg or pipelines.default_config()).en)


def _en_doc(text: str, spec: str) -> Doc:
    # Cached per text: keywords and entity detection of one message share one parse.
    if len(text) > _DOC_CACHE_MAX_CHARS:
        return pipelines.parse(text, "en", NlpConfig(en=spec, zh=pipelines.default_config().zh))
    return _cached_en_doc(text, spec)


def ner_candidates(text: str, cfg: NlpConfig | None, doc: Doc | None = None) -> list[EntityCandidate]:
    if doc is None:
        doc = english_doc(text, cfg)
    out: list[EntityCandidate] = []
    for ent in doc.ents:
        kind = _NER_KIND.get(ent.label_)
        name = ent.text.strip()
        # A name never runs across a line break (a heading and its paragraph): proper nouns find each part.
        if kind is None or has_cjk(name) or len(name) < 2 or name.lower() in STOP_WORDS or "\n" in name:
            continue
        if kind == "person" and not plausible_person(name):
            kind = "concept"
        canonical = canonicalize(name, kind)
        if canonical and not canonical.isdigit():
            out.append(EntityCandidate(name, canonical, kind, ent.start_char, ent.start_char + len(name), "ner"))
    return out


def _sentence_start(text: str, pos: int) -> bool:
    before = text[:pos].rstrip()
    return not before or before[-1] in '.!?。！？\n:：;；"“「'


def proper_noun_candidates(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    for rx, kind in _PROPER_RES:
        for m in rx.finditer(text):
            words = m.group().split()
            start = m.start()
            # "The Memory Store" / "We Decided": drop capitalised function words in front.
            while words and (words[0].lower() in EN_STOP_WORDS or words[0].lower() in _NOT_PROPER):
                start = text.index(words[0], start) + len(words[0])
                start += len(text[start:]) - len(text[start:].lstrip())
                words = words[1:]
            if not words:
                continue
            name = " ".join(words)
            if len(words) == 1 and (name.lower() in _NOT_PROPER or re.fullmatch(r"[Vv]\d+", name)):
                continue
            if len(words) == 1 and rx is _PROPER_RES[0][0] and _sentence_start(text, start):
                continue
            end = start + len(text[start : m.end()].rstrip())
            out.append(EntityCandidate(text[start:end], canonicalize(name, kind), kind, start, end, "proper_noun"))
    for m in _SINGLE_CAP_RE.finditer(text):
        word = m.group()
        # Mid-sentence capitals are names ("we'll use Postgres"); sentence-initial ones usually are not.
        if word.lower() in EN_STOP_WORDS or word.lower() in _NOT_PROPER or _sentence_start(text, m.start()):
            continue
        out.append(EntityCandidate(word, canonicalize(word, "concept"), "concept", m.start(), m.end(), "proper_noun"))
    return out


def english_docs(texts: Sequence[str], langs: Sequence[str | None], cfg: NlpConfig | None = None) -> list[Doc | None]:
    """The spaCy Docs ``entity_candidates`` would parse for ``texts`` (English or mixed ones; None for
    the rest), in one batched pass: for a caller with many texts, such as a document's chunks."""
    wanted = [
        i for i, (t, lang) in enumerate(zip(texts, langs, strict=True))
        if t.strip() and (lang or detect_language(t)) in ("en", "mixed")
    ]  # fmt: skip
    out: list[Doc | None] = [None] * len(texts)
    if wanted:
        for i, doc in zip(wanted, pipelines.parse_many([texts[i] for i in wanted], "en", cfg), strict=True):
            out[i] = doc
    return out
