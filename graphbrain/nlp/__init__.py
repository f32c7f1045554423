"""Language processing for graphbrain: rules plus spaCy (English) and jieba (Chinese), no LLM.

Importing the package loads nothing; pipelines load on first use (see ``pipelines``).
"""

from graphbrain.nlp import dates
from graphbrain.nlp.candidate import EntityCandidate, EntityKind, EntitySignal
from graphbrain.nlp.canonical import canonicalize, normalize_url
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.detection import entity_candidates
from graphbrain.nlp.english import english_docs
from graphbrain.nlp.key_terms import keywords
from graphbrain.nlp.language import Language, detect_language
from graphbrain.nlp.pipelines import (
    PipelineInfo,
    get_pipeline,
    parse,
    pipeline_info,
    set_default_config,
)
from graphbrain.nlp.questions import is_question, question_cue
from graphbrain.nlp.shapes import remember_spans, structural_entities
from graphbrain.nlp.stopwords import EN_STOP_WORDS, STOP_WORDS, ZH_STOP_WORDS
from graphbrain.nlp.tokens import content_tokens, estimate_tokens, light_stem, tokenize

__all__ = [
    "EN_STOP_WORDS",
    "STOP_WORDS",
    "ZH_STOP_WORDS",
    "EntityCandidate",
    "EntityKind",
    "EntitySignal",
    "Language",
    "PipelineInfo",
    "canonicalize",
    "content_tokens",
    "dates",
    "detect_language",
    "english_docs",
    "entity_candidates",
    "estimate_tokens",
    "get_pipeline",
    "has_cjk",
    "is_question",
    "keywords",
    "light_stem",
    "normalize_url",
    "parse",
    "pipeline_info",
    "question_cue",
    "remember_spans",
    "set_default_config",
    "structural_entities",
    "tokenize",
]
