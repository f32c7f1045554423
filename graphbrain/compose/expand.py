"""Seed §3.3 query expansion: entity aliases, sub-topics and keywords as extra weighted queries, and
the message's core terms for the coverage rule (seed §4.3).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from graphbrain.compose.cues import (
    INTENT_CUES,
    NLP_MAX_CHARS,
    RECENT_TURNS_CONSIDERED,
    REQUEST_WORDS,
    RESOURCE_REQUEST_CUES,
    cue_words,
    nlp_text,
)
from graphbrain.compose.intent import content_words
from graphbrain.config import QueryExpansionConfig
from graphbrain.contracts import MAX_QUERY_CHARS
from graphbrain.nlp import STOP_WORDS, entity_candidates, has_cjk, keywords, pipelines


class Expansion(NamedTuple):
    """One expansion query (seed §3.3): its text, a weight below 1.0 and the rule that made it."""

    text: str
    weight: float
    reason: str


# Where each kind of expansion sits within [min_weight, max_weight] (0 = min, 1 = max): an alias says
# the same thing in other words, a sub-topic is a part of the question, keywords are its gist, the
# recent turns are context the user did not repeat, single keywords are the loosest.
EXPANSION_LEVELS: dict[str, float] = {
    "alias": 1.0,
    "subtopic": 2 / 3,
    "keywords": 1 / 3,
    "keyword": 1 / 6,
    "recent": 0.0,
}
# How many of each kind the round-robin takes, in this order, before leftovers fill the remaining room;
# without caps ten aliases of one entity would crowd out every other angle of the question.
EXPANSION_GROUP_CAPS: tuple[tuple[str, int], ...] = (
    ("alias", 4),
    ("subtopic", 3),
    ("keywords", 1),
    ("recent", 1),
    ("keyword", 8),
)
# A message longer than this is not repeated with one word swapped: the alias goes with key terms.
ALIAS_REPLACE_MAX_CHARS = 200
KEYWORDS_PER_QUERY = 4

# Sub-topic separators: English words (whole words), and Chinese conjunctions matched as jieba tokens,
# so that 和 in 和平 or 与 in 参与 never splits a word.
SUBTOPIC_EN_RE = re.compile(r"\s+(?:and|or|vs\.?|versus|as well as|plus)\s+|\s*[,;，；、]\s*", re.IGNORECASE)
SUBTOPIC_ZH_WORDS: frozenset[str] = frozenset(
    cue_words("和|与|跟|及|以及|还是|或|或者|或是|并且|而且|还有|对比|vs|and|or|versus|，|,|、|；|;")
)
# Leading words that ask rather than name ("compare X", "帮我查一下 X"): stripped from sub-topics.
_LEAD_REQUEST_RE = re.compile(
    r"^(?:(?:please|can you|could you|help me|let's|let us|compare|find|search(?: for)?|look up|"
    r"tell me about|explain|what is|what are|what's|how does|how do|why does|why is)\s+)+"
    r"|^(?:请|帮我|帮忙|麻烦|对比一下|对比|比较一下|比较|查一下|查查|搜一下|了解一下|解释一下|说说)+",
    re.IGNORECASE,
)
_EDGE_PUNCT = " \t\n?？!！.。,，;；:：\"'“”"


def _norm_key(text: str) -> str:
    """Case- and space-insensitive identity of a query, for deduplication."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).casefold())


def _weight(cfg: QueryExpansionConfig, kind: str) -> float:
    lo, hi = sorted((cfg.min_weight, cfg.max_weight))
    return round(lo + EXPANSION_LEVELS[kind] * (hi - lo), 3)


# What a Query's text may not hold (contracts.Query): NUL, and lone surrogates no encoding can carry.
_UNQUERYABLE = re.compile("[\x00\ud800-\udfff]")


def clip_query(text: str) -> str:
    text = re.sub(r"\s+", " ", _UNQUERYABLE.sub(" ", text)).strip()
    if len(text) <= MAX_QUERY_CHARS:
        return text
    cut = text[:MAX_QUERY_CHARS]
    space = cut.rfind(" ")
    return cut[:space] if space > MAX_QUERY_CHARS // 2 else cut


def split_subtopics(message: str) -> list[str]:
    """The parts of a message joined by "and / or / vs / 和 / 与 / 还是 / 以及 / ，" (≥ 2 parts, or none).

    Each part is stripped of leading request words and edge punctuation and must keep a content word.
    """
    text = nlp_text(message)
    if has_cjk(text):
        parts: list[str] = []
        current = ""
        for word, _flag in pipelines.posseg(text):
            if word.strip().casefold() in SUBTOPIC_ZH_WORDS:
                parts.append(current)
                current = ""
            else:
                current += word
        parts.append(current)
    else:
        parts = SUBTOPIC_EN_RE.split(text)
    cleaned: list[str] = []
    for p in parts:
        p = _LEAD_REQUEST_RE.sub("", p.strip(_EDGE_PUNCT)).strip(_EDGE_PUNCT)
        if p and content_words(p):
            cleaned.append(p)
    return cleaned if len(cleaned) >= 2 else []


def _term_re(term: str) -> re.Pattern[str]:
    if has_cjk(term):
        return re.compile(re.escape(term), re.IGNORECASE)
    return re.compile(rf"(?<![\w]){re.escape(term)}(?![\w])", re.IGNORECASE)


def _contains(text: str, term: str) -> bool:
    return bool(term.strip()) and _term_re(term).search(text) is not None


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    return lambda _m: text


def _alias_expansions(
    message: str, aliases: Mapping[str, Sequence[str]], terms: Sequence[str], cfg: QueryExpansionConfig
) -> list[Expansion]:
    """For each entity the message names (by its name or one of its aliases), the message again with
    that name swapped for each other name; for a long message, the other name with the key terms."""
    out: list[Expansion] = []
    weight = _weight(cfg, "alias")
    for name, names in aliases.items():
        group = list(dict.fromkeys(n.strip() for n in [name, *names] if n and n.strip()))
        found = next((n for n in sorted(group, key=len, reverse=True) if _contains(message, n)), None)
        if found is None:
            continue
        others = [n for n in group if n.casefold() != found.casefold()]
        rest = [t for t in terms if not _contains(t, found) and not _contains(found, t)]
        for other in others:
            if len(message) <= ALIAS_REPLACE_MAX_CHARS:
                # A function replacement: an alias is literal text, never a regex template.
                text = _term_re(found).sub(_literal(other), message)
            else:
                text = " ".join([other, *rest[: KEYWORDS_PER_QUERY - 1]])
            out.append(Expansion(clip_query(text), weight, f"alias:{found}→{other}"))
    return out


def _new_terms(terms: Iterable[str], seen_in: str) -> list[str]:
    return [t for t in terms if not _contains(seen_in, t)]


# Single English words that ask rather than name: the cue words of every table, plus request words.
_EDGE_WORDS: frozenset[str] = (
    frozenset(
        w.casefold()
        for table in (*(t for _, t in INTENT_CUES), RESOURCE_REQUEST_CUES)
        for w in table.en
        if " " not in w
    )
    | REQUEST_WORDS
)


def _clean_terms(terms: Iterable[str], *, merge_contained: bool = True) -> list[str]:
    """Key terms without leading stop / cue words and trailing stop words ("compare Neo4j and" →
    "Neo4j"), without
    duplicates and (``merge_contained``) without a term that another chosen one contains."""
    out: list[str] = []
    for term in terms:
        words = term.split()
        while words and (words[0].casefold() in STOP_WORDS or words[0].casefold() in _EDGE_WORDS):
            words = words[1:]
        # Only stop words go at the end: a trailing cue word is usually a noun ("vector search").
        while words and words[-1].casefold() in STOP_WORDS:
            words = words[:-1]
        cleaned = " ".join(words)
        if not cleaned or any(o.casefold() == cleaned.casefold() for o in out):
            continue
        if merge_contained:
            if any(_contains(o, cleaned) for o in out):
                continue
            out = [o for o in out if not _contains(cleaned, o)]
        out.append(cleaned)
    return out


def key_terms(text: str, k: int = 6) -> list[str]:
    """Up to ``k`` cleaned key terms of ``text`` (``graphbrain.nlp.keywords``, see ``_clean_terms``)."""
    return _clean_terms(keywords(nlp_text(text), k + 2))[:k]


def expand_queries(
    message: str,
    *,
    aliases: Mapping[str, Sequence[str]] | None = None,
    recent_turns_text: Sequence[str] = (),
    cfg: QueryExpansionConfig | None = None,
) -> list[Expansion]:
    """Seed §3.3 expansion queries: ``cfg.min_queries``–``cfg.max_queries`` of them (3–8 by default),
    weights in ``[min_weight, max_weight]`` (0.5–0.8), best first.

    Kinds (see ``EXPANSION_LEVELS``): entity aliases from the graph (``aliases``: name → aliases, for
    the entities the message may name), sub-topics (``split_subtopics``), the message's keywords
    together, the recent turns' keywords with the message's, single keywords as filler. Deduplicated
    case- and space-insensitively, never the message itself; deterministic for the same input. Fewer
    than ``min_queries`` only when the message has too few content words to say anything else.
    """
    cfg = cfg or QueryExpansionConfig()
    if not cfg.enabled or cfg.max_queries <= 0:
        return []
    text = nlp_text(message).strip()
    if not text:
        return []
    terms = key_terms(text)
    recent = [nlp_text(t) for t in recent_turns_text[-RECENT_TURNS_CONSIDERED:] if t.strip()]
    recent_terms = _new_terms(key_terms("\n".join(recent)), text) if recent else []

    groups: dict[str, list[Expansion]] = {kind: [] for kind, _ in EXPANSION_GROUP_CAPS}
    groups["alias"] = _alias_expansions(text, aliases or {}, terms, cfg)
    groups["subtopic"] = [
        Expansion(clip_query(p), _weight(cfg, "subtopic"), f"subtopic:{i + 1}")
        for i, p in enumerate(split_subtopics(text))
    ]
    if len(terms) >= 2:
        groups["keywords"] = [
            Expansion(" ".join(terms[:KEYWORDS_PER_QUERY]), _weight(cfg, "keywords"), "keywords:message")
        ]
    if recent_terms:
        joined = " ".join(_clean_terms([*terms[:2], *recent_terms[:3]]))
        groups["recent"] = [Expansion(joined, _weight(cfg, "recent"), "keywords:recent")]
    groups["keyword"] = [Expansion(t, _weight(cfg, "keyword"), f"keyword:{t}") for t in terms] + [
        Expansion(t, _weight(cfg, "recent"), f"keyword:recent:{t}") for t in recent_terms[:3]
    ]

    seen = {_norm_key(text), _norm_key(message)}
    chosen: list[Expansion] = []

    def take(e: Expansion) -> None:
        key = _norm_key(e.text)
        if key and key not in seen:
            seen.add(key)
            chosen.append(e)

    # First a round-robin over the kinds (one of each per round, within each kind's cap), so that even a
    # small max_queries gets several angles; then what the caps held back, kind by kind.
    for r in range(max(cap for _, cap in EXPANSION_GROUP_CAPS)):
        for kind, cap in EXPANSION_GROUP_CAPS:
            if r < min(cap, len(groups[kind])) and len(chosen) < cfg.max_queries:
                take(groups[kind][r])
    for kind, cap in EXPANSION_GROUP_CAPS:
        for e in groups[kind][cap:]:
            if len(chosen) < cfg.max_queries:
                take(e)
    # Best first; the stable sort keeps the group order among equal weights.
    return sorted(chosen, key=lambda e: -e.weight)


def core_terms(message: str, k: int = 4) -> list[str]:
    """The message's core entities and concepts (entity candidates first, then keywords), for the
    coverage rule of seed §4.3: an evidence item "covers" the message when it mentions one of them."""
    text = nlp_text(message)
    # Shorter terms stay next to longer ones here: "Neo4j" alone is enough to cover "Neo4j vector index".
    terms = [c.name for c in entity_candidates(text)] + keywords(text, k + 2)
    return _clean_terms(terms, merge_contained=False)[: 2 * k]


def mentions_core(text: str, terms: Sequence[str]) -> bool:
    """Does ``text`` mention one of the core ``terms`` (whole Latin words, Chinese as substrings)?"""
    head = nlp_text(text) if len(text) > NLP_MAX_CHARS * 4 else text
    return any(_contains(head, t) for t in terms)
