"""Language processing for graphbrain: rules plus spaCy (English) and jieba (Chinese), no LLM.

Importing the package loads nothing; pipelines load on first use (see ``pipelines``).
"""

from graphbrain.nlp import dates
from graphbrain.nlp.pipelines import (
    PipelineInfo,
    get_pipeline,
    parse,
    pipeline_info,
    set_default_config,
)
from graphbrain.nlp.text import (
    EN_STOP_WORDS,
    STOP_WORDS,
    ZH_STOP_WORDS,
    EntityCandidate,
    EntityKind,
    EntitySignal,
    Language,
    canonicalize,
    content_tokens,
    detect_language,
    english_docs,
    entity_candidates,
    estimate_tokens,
    has_cjk,
    is_question,
    keywords,
    light_stem,
    normalize_url,
    question_cue,
    remember_spans,
    structural_entities,
    tokenize,
)

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
