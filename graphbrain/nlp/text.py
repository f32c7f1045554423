"""Compatibility facade: the names ``graphbrain.nlp.text`` used to define, re-exported from their modules.

Deliberately kept (issue 21) so importers outside ``nlp`` keep working while the text utilities live in
one module per concept; new code imports from those modules (or ``graphbrain.nlp``) directly:

* ``language`` — ``detect_language``; ``questions`` — ``is_question``, ``question_cue``;
* ``tokens`` — ``tokenize``, ``light_stem``, ``content_tokens``, ``estimate_tokens``, ``token_cost``;
* ``canonical`` — ``canonicalize``, ``normalize_url``;
* ``candidate`` — ``EntityCandidate`` and its kinds; ``detection`` — ``entity_candidates``; the detectors
  ``shapes`` (URLs, repos, paths, quotes, "remember X"), ``english`` (spaCy) and ``chinese`` (jieba);
* ``key_terms`` — ``keywords``; ``chars`` and ``stopwords`` — character classes and stop word lists.
"""

from graphbrain.nlp.candidate import EntityCandidate, EntityKind, EntitySignal
from graphbrain.nlp.canonical import canonicalize, normalize_url
from graphbrain.nlp.chars import CJK_CLASS, HAN_CLASS, HAN_RUN_RE, HANGUL_RE, has_cjk, is_cjk, is_han
from graphbrain.nlp.chinese import ZH_OCCUPATIONS, plausible_zh_person
from graphbrain.nlp.detection import entity_candidates
from graphbrain.nlp.english import english_doc, english_docs, plausible_person
from graphbrain.nlp.key_terms import keywords
from graphbrain.nlp.language import ENGLISH_MIN_STOP_SHARE, ENGLISH_MIN_WORDS, Language, detect_language
from graphbrain.nlp.questions import is_question, question_cue
from graphbrain.nlp.shapes import FROM_NOW_ON_RES, REMEMBER_RES, remember_spans, structural_entities
from graphbrain.nlp.stopwords import EN_STOP_WORDS, KEY_TERM_STOP_WORDS, STOP_WORDS, ZH_STOP_WORDS, word_set
from graphbrain.nlp.tokens import (
    CJK_TOKEN,
    LATIN_WORD_RE,
    OTHER_CHARS_PER_TOKEN,
    OTHER_TOKEN,
    WORD_CHARS_PER_TOKEN,
    WORD_TOKEN,
    content_tokens,
    estimate_tokens,
    is_en_stop_word,
    light_stem,
    token_cost,
    tokenize,
)

__all__ = [
    "CJK_CLASS",
    "CJK_TOKEN",
    "ENGLISH_MIN_STOP_SHARE",
    "ENGLISH_MIN_WORDS",
    "EN_STOP_WORDS",
    "FROM_NOW_ON_RES",
    "HANGUL_RE",
    "HAN_CLASS",
    "HAN_RUN_RE",
    "KEY_TERM_STOP_WORDS",
    "LATIN_WORD_RE",
    "OTHER_CHARS_PER_TOKEN",
    "OTHER_TOKEN",
    "REMEMBER_RES",
    "STOP_WORDS",
    "WORD_CHARS_PER_TOKEN",
    "WORD_TOKEN",
    "ZH_OCCUPATIONS",
    "ZH_STOP_WORDS",
    "EntityCandidate",
    "EntityKind",
    "EntitySignal",
    "Language",
    "canonicalize",
    "content_tokens",
    "detect_language",
    "english_doc",
    "english_docs",
    "entity_candidates",
    "estimate_tokens",
    "has_cjk",
    "is_cjk",
    "is_en_stop_word",
    "is_han",
    "is_question",
    "keywords",
    "light_stem",
    "normalize_url",
    "plausible_person",
    "plausible_zh_person",
    "question_cue",
    "remember_spans",
    "structural_entities",
    "token_cost",
    "tokenize",
    "word_set",
]
