"""Key terms of a text (``keywords``): entities, noun chunks, Chinese TF-IDF nouns and content words."""

from __future__ import annotations

import re

from graphbrain.config import NlpConfig
from graphbrain.nlp import pipelines
from graphbrain.nlp.chars import HAN_RUN_RE, has_cjk
from graphbrain.nlp.detection import entity_candidates
from graphbrain.nlp.english import english_doc
from graphbrain.nlp.language import detect_language
from graphbrain.nlp.stopwords import KEY_TERM_STOP_WORDS, STOP_WORDS
from graphbrain.nlp.tokens import LATIN_WORD_RE, en_word

__all__ = ["keywords"]

# jieba POS flags of nouns and noun-like words worth a keyword (vn: verbal nouns such as 测试, 部署).
_ZH_KEYWORD_POS = ("n", "nr", "nrfg", "nrt", "ns", "nt", "nz", "vn", "eng")
_CHUNK_EDGE_POS = frozenset({"DET", "PRON", "ADP", "PUNCT", "CCONJ", "PART", "NUM", "AUX", "SCONJ"})


def _noun_chunks(text: str, cfg: NlpConfig | None) -> list[tuple[str, int]]:
    if not pipelines.has_component("en", "parser", cfg):
        return []
    doc = english_doc(text, cfg)
    out: list[tuple[str, int]] = []
    for chunk in doc.noun_chunks:
        toks = list(chunk)
        # Trim determiners, pronouns and stop words at both ends: "the memory store" → "memory store".
        while toks and (toks[0].pos_ in _CHUNK_EDGE_POS or toks[0].lower_ in STOP_WORDS):
            toks = toks[1:]
        while toks and (toks[-1].pos_ in _CHUNK_EDGE_POS or toks[-1].lower_ in STOP_WORDS):
            toks = toks[:-1]
        # The small parser sometimes glues coordinated phrases into one chunk; a key term is short.
        if not toks or len(toks) > 5 or any(t.pos_ in ("PUNCT", "CCONJ") for t in toks):
            continue
        phrase = text[toks[0].idx : toks[-1].idx + len(toks[-1].text)]
        if has_cjk(phrase) or len(phrase) < 2:
            continue
        out.append((phrase, toks[0].idx))
    return out


def _contains_term(phrase: str, term: str) -> bool:
    if has_cjk(term):
        return term in phrase  # Chinese has no word boundaries: 图谱 is part of 知识图谱
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", phrase) is not None


def keywords(text: str, k: int = 8, *, cfg: NlpConfig | None = None) -> list[str]:
    """Up to ``k`` key terms of ``text``, best first, as written (deduplicated case-insensitively).

    Scores: entity candidates 3 (structural ones 4), English noun chunks 2, Chinese TF-IDF nouns
    (jieba.analyse) 2 × their relative weight, any other content word 1 per occurrence. Ties go to the
    term that appears first. Used for query expansion and for one-line (L0) abstracts.
    """
    if not text.strip() or k <= 0:
        return []
    lang = detect_language(text)
    scores: dict[str, list[float | int | str]] = {}  # lowercase term → [score, first position, surface]

    def add(term: str, pos: int, weight: float) -> None:
        term = term.strip()
        low = term.casefold()
        if not term or low in KEY_TERM_STOP_WORDS:
            return
        entry = scores.get(low)
        if entry is None:
            scores[low] = [weight, pos, term]
        else:
            entry[0] = float(entry[0]) + weight
            entry[1] = min(int(entry[1]), pos)

    for c in entity_candidates(text, lang, cfg=cfg):
        add(c.name, c.start, 4.0 if c.structural else 3.0)
    if lang in ("en", "mixed"):
        for phrase, pos in _noun_chunks(text, cfg):
            add(phrase, pos, 2.0)
    if has_cjk(text):
        han_only = " ".join(HAN_RUN_RE.findall(text))
        tags = pipelines.extract_tags(han_only, k * 2, _ZH_KEYWORD_POS)
        top = max((w for _, w in tags), default=1.0) or 1.0
        for word, weight in tags:
            pos = text.find(word)
            add(word, pos if pos >= 0 else len(text), 2.0 * weight / top)
    for m in LATIN_WORD_RE.finditer(text):
        word = m.group()
        if len(word) >= 3 and en_word(word) not in KEY_TERM_STOP_WORDS and not word.isdigit():
            add(word, m.start(), 1.0)

    # A single word already covered by a chosen longer phrase adds nothing to a query or an abstract.
    ranked = sorted(scores.values(), key=lambda e: (-float(e[0]), int(e[1])))
    out: list[str] = []
    for entry in ranked:
        term = str(entry[2])
        low = term.casefold()
        if any(low != o.casefold() and _contains_term(o.casefold(), low) for o in out):
            continue
        out.append(term)
        if len(out) >= k:
            break
    return out
