"""Entity mentions of a document: which entities its chunks name, and which of them may create Entity nodes."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

from graphbrain.config import NlpConfig
from graphbrain.ids import entity_id
from graphbrain.nlp import EntityCandidate, english_docs, entity_candidates, has_cjk
from graphbrain.resources.model import ParsedDocument

__all__ = ["MAX_MENTIONS_PER_CHUNK", "EntityPlan", "entity_plans"]

log = logging.getLogger(__name__)

# A chunk names at most this many entities: a list of 200 package names is content, not 200 links.
MAX_MENTIONS_PER_CHUNK = 20
# Shape-found entities (URLs, repos, paths) are real things on first sight, as the conversation entity gate
# also says; they may create Entity nodes. So do the names a document is about: a name said at least
# twice in it ("Atlas" in atlas.md). A name said once ("Goals", "Start", a person quoted in passing) only
# links to an Entity node that already exists: in a long document one mention is weaker evidence than in
# a conversation turn, where the entity gate also lets a subject or object through.
_CREATING_SIGNALS = frozenset({"url", "repo", "path"})
_DOC_FREQUENCY = 2
# The language a code chunk is searched as: by shape, quotes and known names (and jieba for Chinese in its
# comments), never by spaCy's English pipeline.
_CODE = "code"
_SIGNAL_ORDER = {
    "url": 0, "repo": 1, "path": 2, "known": 3, "ner": 4, "compound": 5, "quoted": 6, "proper_noun": 7, "zh_noun": 8,
}  # fmt: skip


@dataclass(slots=True)
class EntityPlan:
    id: str
    key: str
    kind: str
    canonical: str
    name: str
    creates: bool  # found by shape: may create the node; otherwise it links only if the node exists
    count: int = 0
    mentions: dict[str, dict[str, Any]] = field(default_factory=dict)  # chunk id -> mention row


def _times_said(text: str, name: str) -> int:
    """How often ``text`` says ``name`` as a word of its own ("alpha" in alpha.example.org is not Alpha)."""
    if has_cjk(name):
        return text.count(name)
    rx = rf"(?<![\w./-]){re.escape(name)}(?![\w/-]|\.\w)"
    return len(re.findall(rx, text, flags=re.IGNORECASE))


def _rank(c: EntityCandidate) -> tuple[int, int]:
    return (_SIGNAL_ORDER.get(c.signal, 9), c.start)


def entity_plans(doc: ParsedDocument, ns: str, chunks: list[dict[str, Any]], nlp: NlpConfig) -> dict[str, EntityPlan]:
    """The entities the chunks name, by canonical form; pops each chunk's ``_language`` (detection only)."""
    plans: dict[str, EntityPlan] = {}
    langs = [c.pop("_language") for c in chunks]
    if doc.format == "code":
        # Source code is not prose: spaCy's English tagger, parser and NER, trained on prose, find little
        # in it beyond what shapes find (identifiers, paths, URLs, quoted names), and they are most of an
        # ingest's time that is not the models': seeds/docs' one code file took 147 of its 660 ms.
        langs = [_CODE for _ in langs]
    try:
        # One batched spaCy pass over the English chunks instead of a model call per chunk.
        docs = english_docs([c["text"] for c in chunks], langs, nlp)
    except Exception as e:  # a language pipeline failing must not lose the document
        log.warning("entity detection failed on %s: %s", doc.source_uri, e)
        return plans
    for c, lang, en_doc in zip(chunks, langs, docs, strict=True):
        try:
            cands = entity_candidates(c["text"], lang, cfg=nlp, en_doc=en_doc)
        except Exception as e:  # a language pipeline failing must not lose the document
            log.warning("entity detection failed on %s chunk %s: %s", doc.source_uri, c["chunk_index"], e)
            continue
        picked = sorted((x for x in cands if x.signal in _SIGNAL_ORDER), key=_rank)[:MAX_MENTIONS_PER_CHUNK]
        for ec in picked:
            # The key and id the commit pipeline gives the same thing (commit/pipeline.py _entities).
            key = f"entity:{ec.kind}:{ec.canonical}"
            plan = plans.get(ec.canonical)
            if plan is None:
                plan = EntityPlan(
                    id=entity_id(ns, ec.canonical),
                    key=key,
                    kind=ec.kind,
                    canonical=ec.canonical,
                    name=ec.name,
                    creates=ec.signal in _CREATING_SIGNALS,
                )
                plans[ec.canonical] = plan
            plan.creates = plan.creates or ec.signal in _CREATING_SIGNALS
            # Candidates come one per name and chunk: how often the chunk says it is its own count.
            plan.count += max(1, _times_said(c["text"], ec.name))
            if plan.count >= _DOC_FREQUENCY and ec.signal != "quoted":
                plan.creates = True
            m = plan.mentions.get(c["id"])
            if m is None:
                plan.mentions[c["id"]] = {
                    "chunk_id": c["id"],
                    "count": 1,
                    "start": ec.start,
                    "end": ec.end,
                    "text": ec.name,
                }
            else:
                m["count"] += 1
    return plans
