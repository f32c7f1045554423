"""Entity detection: every detector's candidates for a text, gathered and resolved (``entity_candidates``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from graphbrain.config import NlpConfig
from graphbrain.nlp import pipelines
from graphbrain.nlp.candidate import EntityCandidate, resolve
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.chinese import zh_noun_candidates, zh_roles
from graphbrain.nlp.english import english_doc, ner_candidates, proper_noun_candidates
from graphbrain.nlp.language import detect_language
from graphbrain.nlp.shapes import quoted_candidates, remembered_candidates, structural_candidates

if TYPE_CHECKING:
    from spacy.tokens import Doc

__all__ = ["entity_candidates"]


def entity_candidates(
    text: str,
    lang: str | None = None,
    *,
    cfg: NlpConfig | None = None,
    en_doc: Doc | None = None,
    lexicon: Mapping[str, tuple[str, str]] | None = None,
) -> list[EntityCandidate]:
    """Possible entity mentions in ``text``, one per (kind, canonical), in text order.

    Sources, strongest first: URLs (github-like URLs become repos), ``owner/name`` repos near a repo cue,
    file paths; quoted terms (「」 “” 《》 "" ``); English NER (spaCy, for en / mixed text); Latin proper
    nouns and identifiers by shape (Capitalised Words, CamelCase, Neo4j-style, ACRONYMS, snake_case);
    Chinese nouns by jieba POS (nr person, nt org, ns / nrt other, nz topic, runs of English words
    inside Chinese text as topics); short "remember X" objects. A candidate overlapping a stronger one
    is dropped. ``en_doc``: the text's spaCy parse when the caller has it already (``english_docs``).
    ``lexicon``: names the namespace already knows (as written → (kind, canonical)), found first and
    with their known kind (the entity ruler). Kinds: see ``graphbrain.nlp.entities``.
    """
    from graphbrain.nlp.entities import common_abbreviation, en_candidates, known_names

    if not text.strip():
        return []
    lang = lang or detect_language(text)
    cands: list[EntityCandidate] = []
    cands += structural_candidates(text)
    cands += known_names(text, lexicon or {})
    cands += quoted_candidates(text)
    if lang in ("en", "mixed") and pipelines.has_component("en", "parser", cfg):
        doc = en_doc if en_doc is not None else english_doc(text, cfg)
        cands += en_candidates(text, doc, strict=lang == "mixed" or has_cjk(text))
    elif lang in ("en", "mixed"):
        cands += ner_candidates(text, cfg, en_doc)
    cands += proper_noun_candidates(text)
    if lang in ("zh", "mixed") or has_cjk(text):
        cands += zh_noun_candidates(text)
    cands += remembered_candidates(text)
    if has_cjk(text):
        cands = zh_roles(text, cands)
    # Abbreviations of common nouns (API, VPN, PR) are words; dropped before overlaps are settled, so
    # that the compound around one ("ETL pipeline") is what is found.
    cands = [
        c for c in cands if c.signal in ("known", "quoted") or c.kind != "concept" or not common_abbreviation(c.name)
    ]
    return resolve(cands)
