"""The compose_context planner: rules only, no database and no model call (seed §3.1–§3.3, §3.5).

From the user message (English, Chinese or both), the agent state and what the caller loaded from the
graph (recent turns, entity aliases, refs, known sources), it decides:

- the intent (``classify_intent``): qa / continue_task / debug / summarize / research / other;
- whether to search resources (``should_search_resources``, seed §3.1 triggers and off conditions);
- filters named in the message: a time range (``parse_time_range``) and a scope (``parse_scope``);
- expansion queries (``expand_queries``, seed §3.3): aliases, sub-topics, keywords;
- the two RetrievalPlans (``build_plans``, seed §3.2 defaults): the conversation side and, when
  resources are searched, the resource side.

``Planner.plan`` runs all of it and returns a ``PlannerOutput``, which is what the trace shows under
``debug.planner``. Every decision carries a short reason naming the rule (and the cue) that made it.
The rules are data tables near the top of the file; the functions below only apply them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple, cast, get_args

from graphbrain.config import CompositionConfig, QueryExpansionConfig, RetrievalConfig
from graphbrain.contracts import (
    MAX_QUERY_CHARS,
    Budget,
    Debug,
    Filters,
    Fusion,
    Mode,
    Output,
    PlanDiversity,
    Purpose,
    Query,
    Ranking,
    Rerank,
    RetrievalPlan,
    TimeRange,
    check_text,
)
from graphbrain.errors import InputError
from graphbrain.nlp import (
    STOP_WORDS,
    content_tokens,
    dates,
    entity_candidates,
    has_cjk,
    keywords,
    pipelines,
    question_cue,
)

PLAN_VERSION = "0.1"
CALLER_APP = "graphbrain"

Intent = Purpose  # qa | continue_task | debug | summarize | research | other
INTENTS: tuple[str, ...] = get_args(Purpose)
ResourceSetting = Literal["auto", "always", "never"] | bool

# NLP work (keywords, entities, jieba) on a 200k-character paste would be slow and say nothing more
# than its beginning does: the rules look at this many characters of the message and of each turn.
NLP_MAX_CHARS = 2000
# The last this-many recent turns feed keywords and the "already answered" check.
RECENT_TURNS_CONSIDERED = 4


# =============================================================================================== cues
@dataclass(frozen=True)
class CueTable:
    """English cues (matched as whole words, case-insensitive, spaces flexible) and Chinese cues
    (matched as substrings: Chinese has no spaces to mark word edges)."""

    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()  # raw regex fragments, for shapes a word list cannot say ("rfc 9110")

    def pattern(self) -> re.Pattern[str]:
        parts = [r"\s+".join(re.escape(w) for w in cue.split()) for cue in sorted(self.en, key=len)[::-1]]
        en = rf"(?<![A-Za-z0-9_])(?:{'|'.join(parts)})(?![A-Za-z0-9_])" if parts else None
        zh = "|".join(re.escape(c) for c in sorted(self.zh, key=len)[::-1]) or None
        alts = [p for p in (*self.extra, en, zh) if p]  # the specific shapes first: "rfc 9110" before "rfc"
        return re.compile("|".join(alts) if alts else r"(?!x)x", re.IGNORECASE)


def _w(words: str) -> tuple[str, ...]:
    """Cue tuple from a "|"-separated string (entries may contain spaces: "next step")."""
    return tuple(w.strip() for w in words.split("|") if w.strip())


# Intent cues, in priority order: the first intent whose table matches wins. Debug outranks the rest
# ("why does the search fail?" is a debugging question), summarize and continue_task name an explicit
# action, research outranks qa because asking for sources is the stronger signal ("what is RRF? cite
# sources"), and qa's question words are the weakest cue of all.
INTENT_CUES: tuple[tuple[Intent, CueTable], ...] = (
    (
        "debug",
        CueTable(
            en=_w(
                "error|errors|exception|exceptions|traceback|stack trace|stacktrace|failing|fails|failed|"
                "failure|bug|bugs|crash|crashes|crashed|broken|debug|debugging|doesn't work|does not work|"
                "not working|segfault|panic|timeout|timed out"
            ),
            zh=_w("报错|异常|失败|出错|错误|崩溃|挂了|不工作|调试|排查|跑不通|不生效"),
        ),
    ),
    (
        "summarize",
        CueTable(
            en=_w("summarize|summarise|summary|recap|tl;dr|tldr|sum up|sum it up"),
            zh=_w("总结|概括|摘要|归纳|回顾一下|小结"),
        ),
    ),
    (
        "continue_task",
        CueTable(
            en=_w(
                "continue|carry on|go on|next step|next steps|where were we|where was i|resume|"
                "pick up where|keep going|what's next|what is next|proceed"
            ),
            zh=_w("继续|下一步|接着|接下来|做到哪|进行到哪|上次做到"),
        ),
    ),
    (
        "research",
        CueTable(
            en=_w(
                "find|search|look up|look for|compare|comparison|versus|vs|sources|cite|citation|"
                "citations|references|docs|documentation|papers|research|read up|learn about|alternatives"
            ),
            zh=_w("查资料|查一下|查查|帮我查|搜一下|搜索|找一下|找找|对比|比较|引用|出处|来源|了解一下|调研|资料|文献"),
        ),
    ),
    (
        "qa",
        CueTable(
            en=_w(
                "why|how|what|what's|which|when|where|who|explain|does|is it|can you tell|meaning of|difference between"
            ),
            zh=_w("为什么|为何|怎么|怎样|如何|是什么|什么|哪个|哪些|哪里|解释|区别|多少|是否|吗"),
        ),
    ),
)
_INTENT_PATTERNS: tuple[tuple[Intent, re.Pattern[str]], ...] = tuple(
    (intent, table.pattern()) for intent, table in INTENT_CUES
)

# Pure chit-chat: a message made only of these (and punctuation / emoji / digits) is "other" and never
# triggers retrieval of resources (seed §3.1 off condition).
CHIT_CHAT = CueTable(
    en=_w(
        "hi|hello|hey|yo|thanks|thank you|thank u|thx|ty|ok|okay|k|cool|nice|great|awesome|good|lol|haha|"
        "hah|bye|goodbye|see you|good morning|good night|morning|got it|sure|yes|yeah|yep|no|nope|fine|"
        "alright|np|perfect|sounds good|cheers|wow|oh|ah|hmm|great job|well done|you too|much|very|so"
    ),
    zh=_w(
        "你好|您好|哈喽|嗨|谢谢|多谢|感谢|好的|好滴|好|行|嗯|哦|噢|哈|嘿|呵|收到|明白|了解了|知道了|"
        "没问题|再见|拜拜|晚安|早上好|早安|早|辛苦了|辛苦|不客气|可以|对|是的|棒|厉害|啊|呀|吧|啦|了|呢|啊哈"
    ),
)
_CHIT_CHAT_RE = CHIT_CHAT.pattern()

# agent_state keys the planner reads, and what they mean.
AGENT_STATE_INTENT_KEYS = ("intent", "purpose")  # an explicit intent: overrides the message
AGENT_STATE_TASK_KEYS = ("active_task", "current_task", "task")  # work in progress → continue_task
AGENT_STATE_ERROR_KEYS = ("last_error", "error")  # a failure in progress → debug

# Seed §3.1 trigger 1: the user asks for material, sources or a comparison.
RESOURCE_REQUEST_CUES = CueTable(
    en=_w(
        "find|search|look up|look for|sources|source|cite|citation|citations|reference|references|"
        "compare|comparison|versus|vs|alternatives|learn about|read up|according to|what do the docs"
    ),
    zh=_w("查资料|查一下|查查|帮我查|搜一下|搜索|找一下|找找|资料|来源|出处|引用|对比|比较|了解一下|调研|参考"),
)
# Seed §3.1 trigger 2: the question concerns external facts or long documents.
EXTERNAL_CUES = CueTable(
    en=_w(
        "doc|docs|documentation|design doc|spec|specs|specification|standard|standards|rfc|paper|papers|"
        "article|articles|manual|readme|guide|tutorial|api reference|changelog|release notes|wiki|"
        "whitepaper|pdf|book|blog post"
    ),
    zh=_w("文档|论文|标准|规范|手册|说明书|白皮书|教程|官网|指南|协议|设计文档|文章|博客|书"),
    extra=(r"\brfc\s*\d+\b", r"\biso\s*\d+\b"),
)
_RESOURCE_REQUEST_RE = RESOURCE_REQUEST_CUES.pattern()
_EXTERNAL_RE = EXTERNAL_CUES.pattern()
# Seed §3.1 trigger 4: intents that need evidence to be answered.
EVIDENCE_INTENTS: frozenset[str] = frozenset({"research", "qa", "debug"})

# Words that ask for something rather than name it: ignored when checking whether the recent window
# already covers the message ("explain that again" asks about the window, it names nothing new).
REQUEST_WORDS: frozenset[str] = frozenset(
    _w(
        "explain|tell|show|again|more|detail|details|elaborate|mean|meant|say|said|think|know|please|help|"
        "give|example|examples|clarify|repeat|帮|帮我|解释|一下|说说|再说|详细|展开|意思|举例|例子|讲讲"
    )
)
# Pieces of URIs and file names that say nothing about what a ref is about.
GENERIC_REF_WORDS: frozenset[str] = frozenset(
    _w(
        "http|https|www|com|org|net|io|dev|cn|file|files|html|htm|md|txt|pdf|rst|json|yaml|yml|index|"
        "main|master|blob|tree|src|doc|docs|readme|page|home|en|zh|latest|current|v1|v2"
    )
)


def _match(pattern: re.Pattern[str], text: str) -> str | None:
    m = pattern.search(text)
    return m.group(0) if m else None


def _nlp_text(text: str) -> str:
    return unicodedata.normalize("NFKC", text[:NLP_MAX_CHARS])


def is_chit_chat(message: str) -> bool:
    """Only greetings, thanks and acknowledgements ("thanks!", "哈哈好的", "ok 👍"): nothing to look up.

    The chit-chat cues are removed; if no letter or CJK character is left, it was chit-chat. An empty
    message is not chit-chat (it is nothing at all).
    """
    text = _nlp_text(message).strip()
    if not text:
        return False
    rest = _CHIT_CHAT_RE.sub(" ", text)
    return not any(ch.isalpha() for ch in rest)


# ============================================================================================= intent
def classify_intent(message: str, agent_state: Mapping[str, Any] | None = None) -> tuple[Intent, str]:
    """The intent of the message and the rule that decided it.

    Order: an explicit ``agent_state["intent"]`` (or ``"purpose"``) wins; pure chit-chat is ``other``;
    then the cue tables of ``INTENT_CUES`` in priority order (first match wins); without any cue,
    ``agent_state`` hints decide (an active task → ``continue_task``, a last error → ``debug``); a
    question (``nlp.question_cue``: a mark, 吗 / 呢, "do you …", a Chinese question word) is ``qa``;
    anything else is ``other``.
    """
    state = agent_state or {}
    for key in AGENT_STATE_INTENT_KEYS:
        value = state.get(key)
        if isinstance(value, str) and value in INTENTS:
            return cast(Intent, value), f"agent_state.{key}={value}"
    text = _nlp_text(message)
    if is_chit_chat(text):
        return "other", "chit-chat"
    for intent, pattern in _INTENT_PATTERNS:
        cue = _match(pattern, text)
        if cue is not None:
            return intent, f"cue:{cue.lower()}"
    for key in AGENT_STATE_TASK_KEYS:
        if state.get(key):
            return "continue_task", f"agent_state.{key}"
    for key in AGENT_STATE_ERROR_KEYS:
        if state.get(key):
            return "debug", f"agent_state.{key}"
    cue = question_cue(text)
    if cue is not None:
        return "qa", cue
    return "other", "no cue"


# ================================================================================ resource decision
def _ref_tokens(ref: str) -> set[str]:
    """The distinctive words of a ref's title or URI ("file:///x/docs/vector-index.md" → vector, index)."""
    spaced = re.sub(r"[/\\._\-:#?=&+]+", " ", ref)
    return {
        t
        for t in content_tokens(spaced)
        if t not in GENERIC_REF_WORDS and (len(t) >= 3 or (has_cjk(t) and len(t) >= 2))
    }


def ref_named(message: str, ref: str) -> bool:
    """Does the message name this ref? Its whole title / URI appears, or it shares at least
    ``min(2, n)`` of the ref's n distinctive words (one word for a one-word ref such as "README")."""
    text = _nlp_text(message)
    if len(ref) >= 4 and ref.casefold() in text.casefold():
        return True
    wanted = _ref_tokens(ref)
    if not wanted:
        return False
    shared = wanted & content_tokens(text)
    return len(shared) >= min(2, len(wanted))


def _content_words(text: str) -> set[str]:
    """Content tokens that could be looked up: no request words, no single Chinese characters."""
    return {t for t in content_tokens(_nlp_text(text)) if t not in REQUEST_WORDS and not (has_cjk(t) and len(t) < 2)}


def answered_by_recent_window(message: str, recent_turns_text: Sequence[str]) -> bool:
    """Seed §3.1 off condition: every content word of the message already occurs in the last turns.

    Needs a non-empty window. A message with no content word at all ("why?", "为什么呢") refers to the
    window too.
    """
    recent = [t for t in recent_turns_text[-RECENT_TURNS_CONSIDERED:] if t.strip()]
    if not recent:
        return False
    wanted = _content_words(message)
    window: set[str] = set()
    for turn in recent:
        window |= content_tokens(_nlp_text(turn))
    return wanted <= window


def should_search_resources(
    message: str,
    intent: Intent,
    *,
    recent_turns_text: Sequence[str] = (),
    refs_in_memory: Sequence[str] = (),
    setting: ResourceSetting = "auto",
) -> tuple[bool, str]:
    """Whether compose_context searches the resource library, and why (seed §3.1).

    ``setting`` (``retrieval.enable_resource_retrieval``) ``always`` / ``True`` and ``never`` /
    ``False`` decide alone. ``auto`` applies, in order: pure chit-chat → off; an explicit request for
    material (sources, comparison, "了解一下 X", "find …") → on; external facts or long documents named
    (docs, paper, RFC, 文档, 论文, 标准 …) → on; a ref in memory that the message names → on; every
    content word already in the recent window → off; intent research / qa / debug → on; else off.
    """
    if setting is True or setting == "always":
        return True, "setting:always"
    if setting is False or setting == "never":
        return False, "setting:never"
    text = _nlp_text(message)
    if is_chit_chat(text):
        return False, "chit-chat"
    cue = _match(_RESOURCE_REQUEST_RE, text)
    if cue is not None:
        return True, f"request:{cue.lower()}"
    cue = _match(_EXTERNAL_RE, text)
    if cue is not None:
        return True, f"external:{cue.lower()}"
    for ref in refs_in_memory:
        if ref and ref_named(text, ref):
            return True, f"ref:{ref}"
    if answered_by_recent_window(text, recent_turns_text):
        return False, "answered_by_recent_window"
    if intent in EVIDENCE_INTENTS:
        return True, f"intent:{intent}"
    return False, f"intent:{intent}"


# ========================================================================================= time range
def _aware_now(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(UTC)
    return now if now.tzinfo else now.replace(tzinfo=UTC)


def parse_time_range(message: str, now: datetime | None = None) -> tuple[TimeRange | None, str]:
    """A time range named in the message and the phrase that named it; ``(None, "")`` when there is none.

    The readings are ``graphbrain.nlp.dates.time_ranges`` (the one date module, shared with commit):
    closed days and weeks ("yesterday", "last week", "上个月") end at the start of the next one; open
    ones ("today", "this week", "recently", "in the last 3 days", "最近三天", "since 2026-01-05") end at
    ``now``; "recently" / "最近" alone is the last ``RECENT_DAYS`` days. The first reading a TimeRange
    accepts wins.
    """
    now = _aware_now(now)
    for start, end, phrase in dates.time_ranges(_nlp_text(message), now):
        try:
            return TimeRange.model_validate({"from": start, "to": end}), phrase
        except ValueError:
            # "since 0001-01-01T00:00+14:00": before year 1 in UTC, not a range anything is stored in;
            # the message is searched without a time filter.
            continue
    return None, ""


# ============================================================================================== scope
@dataclass(frozen=True)
class ScopeFilters:
    """Filters named by the message: a folder / repo as URI prefixes, or documents by id."""

    source_uri_prefix: list[str] = field(default_factory=list)
    document_ids: list[str] = field(default_factory=list)
    phrase: str = ""
    reason: str = ""

    @property
    def empty(self) -> bool:
        return not self.source_uri_prefix and not self.document_ids

    def fields(self) -> dict[str, list[str]]:
        """The Filters fields to set (only the non-empty ones)."""
        out: dict[str, list[str]] = {}
        if self.source_uri_prefix:
            out["source_uri_prefix"] = list(self.source_uri_prefix)
        if self.document_ids:
            out["document_ids"] = list(self.document_ids)
        return out


# "in smart_rag", "from docs/design", "in the design doc about X", "within our wiki".
_SCOPE_EN_RE = re.compile(
    r"\b(?:in|from|within|inside|under|across)\s+(?:the\s+|our\s+|my\s+|this\s+|that\s+)?"
    r"(?P<x>[^\s,;:?!()\"'，。？！]+(?:\s+[^\s,;:?!()\"'，。？！]+){0,5})",
    re.IGNORECASE,
)
# Quoted names: 《检索设计》, "Vector index design", `docs/x.md`; a quoted phrase reads as a title.
_SCOPE_QUOTED_RES: tuple[re.Pattern[str], ...] = (
    re.compile(r"《(?P<x>[^》]{1,60})》"),
    re.compile(r"[\"“「`](?P<x>[^\"”」`]{2,60})[\"”」`]"),
)
# "在 smart_rag 里", "在检索设计文档中", "smart_rag 里的", and the quoted names.
_SCOPE_ZH_RES: tuple[re.Pattern[str], ...] = (
    re.compile(r"在\s*(?P<x>[^\s，。？！,?!；;]{1,40}?)\s*(?:里面|里头|里|中|内|下面|之中)"),
    re.compile(r"(?P<x>[A-Za-z0-9_./\-]{2,})\s*(?:里面|里|中|内)"),
    *_SCOPE_QUOTED_RES,
)
# Nouns that say "a document" without saying which one; a phrase that has one reads as a title.
DOC_NOUNS: frozenset[str] = frozenset(
    _w(
        "doc|docs|document|documents|documentation|file|files|page|pages|paper|guide|notes|note|spec|"
        "readme|wiki|manual|article|repo|repository|folder|directory|文档|文件|资料|页面|论文|笔记|说明|"
        "手册|仓库|目录"
    )
)


def _uri_segments(uri: str) -> list[tuple[str, int]]:
    """(segment, end offset) of each path segment of a URI, after the scheme and host."""
    m = re.match(r"^[a-z][a-z0-9+.\-]*://[^/]*", uri, re.IGNORECASE)
    start = m.end() if m else 0
    out: list[tuple[str, int]] = []
    for sm in re.finditer(r"[^/\\]+", uri[start:]):
        out.append((sm.group(), start + sm.end()))
    return out


def _phrase_candidates(message: str) -> list[str]:
    """Scope phrases in the message: for English, every leading run of the words after "in / from …"
    (longest first, so "design doc about vector index" is tried before "design doc")."""
    out: list[str] = []
    for m in _SCOPE_EN_RE.finditer(message):
        words = m.group("x").split()
        for n in range(len(words), 0, -1):
            out.append(" ".join(words[:n]).strip(".,;:"))
    for rx in _SCOPE_ZH_RES:
        for m in rx.finditer(message):
            out.append(m.group("x").strip())
    unique: dict[str, str] = {}
    for p in out:
        if p:
            unique.setdefault(p.casefold(), p)
    return list(unique.values())


def _match_path(phrase: str, sources: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[str]]:
    """A path-like or name-like phrase against the URIs' path segments.

    "smart_rag" matches a segment equal to it; "docs/design" a run of segments. When the match ends
    the URI (or is the file's stem), it names that document; otherwise the URI up to and including the
    match is a folder prefix.
    """
    want = [s for s in re.split(r"[/\\]+", phrase.strip("/\\").casefold()) if s]
    if not want:
        return [], []
    prefixes: list[str] = []
    docs: list[str] = []
    for src in sources:
        uri = str(src.get("uri") or "")
        segs = _uri_segments(uri)
        names = [s.casefold() for s, _ in segs]
        for i in range(len(names) - len(want) + 1):
            window = names[i : i + len(want)]
            last = window[-1]
            stem = last.rsplit(".", 1)[0] if "." in last else last
            if window[:-1] != want[:-1] or want[-1] not in (last, stem):
                continue
            end = segs[i + len(want) - 1][1]
            if end >= len(uri.rstrip("/")):
                if src.get("document_id"):
                    docs.append(str(src["document_id"]))
            else:
                prefixes.append(uri[:end] + "/")
            break
    return sorted(set(prefixes)), sorted(set(docs))


def _match_title(phrase: str, sources: Sequence[Mapping[str, Any]], quoted: bool) -> list[str]:
    """A title-like phrase ("the design doc", "检索设计文档") against the sources' titles.

    The phrase's words minus the document nouns must all be in the title; and the phrase must read as a
    title: it has a document noun, or it was quoted, or it is the whole title. That keeps "in python"
    from scoping a search to a "Python guide".
    """
    phrase_tokens = content_tokens(phrase)
    has_doc_noun = bool(phrase_tokens & DOC_NOUNS) or any(n in phrase for n in DOC_NOUNS if has_cjk(n))
    core = {t for t in phrase_tokens if t not in DOC_NOUNS}
    for noun in (n for n in DOC_NOUNS if has_cjk(n)):  # jieba may glue 文档 to the word before it
        core = {t.removesuffix(noun) or t for t in core}
    core = {t for t in core if not (has_cjk(t) and len(t) < 2)}
    if not core:
        return []
    out: list[str] = []
    for src in sources:
        title = str(src.get("title") or "")
        if not title or not src.get("document_id"):
            continue
        whole = title.casefold() == phrase.casefold()
        if (has_doc_noun or quoted or whole) and core <= content_tokens(title):
            out.append(str(src["document_id"]))
    return sorted(set(out))


def parse_scope(message: str, known_sources: Sequence[Mapping[str, Any]]) -> ScopeFilters:
    """Seed §3.5: a scope named in the message ("in smart_rag", "在 smart_rag 里", "in the design doc",
    "from docs/…") that matches a known source → ``source_uri_prefix`` (a folder, repo or site) or
    ``document_ids`` (one document, by file name or title).

    ``known_sources`` are dicts with ``uri``, ``title`` and ``document_id``. A phrase that matches no
    known source is ignored: a scope filter that matches nothing would only hide evidence.
    """
    if not known_sources:
        return ScopeFilters()
    text = _nlp_text(message)
    quoted_spans = [m.group("x").strip() for rx in _SCOPE_QUOTED_RES for m in rx.finditer(text)]
    for phrase in _phrase_candidates(text):
        name_like = re.fullmatch(r"[A-Za-z0-9_.@+\-/\\]+", phrase) is not None
        if name_like:
            prefixes, docs = _match_path(phrase, known_sources)
            if prefixes or docs:
                kind = "source_uri_prefix" if prefixes else "document_ids"
                return ScopeFilters(prefixes, docs, phrase, f"scope:{kind}:{phrase}")
        docs = _match_title(phrase, known_sources, quoted=phrase in quoted_spans)
        if docs:
            return ScopeFilters([], docs, phrase, f"scope:title:{phrase}")
    return ScopeFilters()


# ========================================================================================== expansion
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
    _w("和|与|跟|及|以及|还是|或|或者|或是|并且|而且|还有|对比|vs|and|or|versus|，|,|、|；|;")
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


def _clip_query(text: str) -> str:
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
    text = _nlp_text(message)
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
        if p and _content_words(p):
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
            out.append(Expansion(_clip_query(text), weight, f"alias:{found}→{other}"))
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
    return _clean_terms(keywords(_nlp_text(text), k + 2))[:k]


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
    text = _nlp_text(message).strip()
    if not text:
        return []
    terms = key_terms(text)
    recent = [_nlp_text(t) for t in recent_turns_text[-RECENT_TURNS_CONSIDERED:] if t.strip()]
    recent_terms = _new_terms(key_terms("\n".join(recent)), text) if recent else []

    groups: dict[str, list[Expansion]] = {kind: [] for kind, _ in EXPANSION_GROUP_CAPS}
    groups["alias"] = _alias_expansions(text, aliases or {}, terms, cfg)
    groups["subtopic"] = [
        Expansion(_clip_query(p), _weight(cfg, "subtopic"), f"subtopic:{i + 1}")
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
    text = _nlp_text(message)
    # Shorter terms stay next to longer ones here: "Neo4j" alone is enough to cover "Neo4j vector index".
    terms = [c.name for c in entity_candidates(text)] + keywords(text, k + 2)
    return _clean_terms(terms, merge_contained=False)[: 2 * k]


def mentions_core(text: str, terms: Sequence[str]) -> bool:
    """Does ``text`` mention one of the core ``terms`` (whole Latin words, Chinese as substrings)?"""
    head = _nlp_text(text) if len(text) > NLP_MAX_CHARS * 4 else text
    return any(_contains(head, t) for t in terms)


# ============================================================================================== plans
def _query(text: str, mode: Mode, weight: float, origin: str, reason: str | None = None) -> Query:
    hints: dict[str, Any] = {"origin": origin}
    if reason:
        hints["reason"] = reason
    return Query(text=_clip_query(text), mode=mode, weight=weight, hints=hints)


def _prefer(query: Query, time_range: TimeRange | None) -> Query:
    """The query with ``hints.prefer_time``: evidence from that time ranks higher, nothing is excluded."""
    if time_range is None:
        return query
    span = time_range.model_dump(mode="json", by_alias=True, exclude_none=True)
    return query.model_copy(update={"hints": {**query.hints, "prefer_time": span}})


def _ranking(cfg: RetrievalConfig) -> Ranking:
    return Ranking(
        fusion=Fusion(method=cfg.fusion.method, rrf_k=cfg.fusion.rrf_k, weights=dict(cfg.fusion.weights)),
        rerank=Rerank(enabled=cfg.rerank.enabled, model=cfg.rerank.model, top_n=cfg.rerank.top_n),
    )


def expansion_query_indexes(plan: RetrievalPlan) -> set[int]:
    """Indexes of the plan's expansion queries: a hit found only by these is long-tail evidence."""
    return {i for i, q in enumerate(plan.queries) if q.hints.get("origin") == "expansion"}


def build_plans(
    message: str,
    *,
    intent: Intent,
    search_resources: bool,
    expansions: Sequence[Expansion],
    time_range: TimeRange | None,
    scope_filters: ScopeFilters | Mapping[str, Any] | None,
    retrieval_cfg: RetrievalConfig,
    composition_cfg: CompositionConfig,
    request_id: str | None,
    session_id: str | None,
    trace: bool = False,
) -> tuple[RetrievalPlan, RetrievalPlan | None]:
    """The conversation-side plan and the resource-side plan (``None`` when resources are not searched),
    with the seed §3.2 defaults.

    Memory side: the message as ``exact`` (1.0), ``relational`` (1.0) and ``semantic`` (0.9), then the
    expansions as ``associative``; ``scope: [memory, turns]``; the time range as each message query's
    ``hints.prefer_time`` (a preference: evidence from then ranks higher); per_mode_k exact /
    semantic / relational / associative from ``retrieval.per_mode_k`` (10 each). Resource side: the
    message as ``hybrid`` (1.0) plus the expansions as ``associative``; ``scope: [resources]``, the
    time range and the scope filters; per_mode_k hybrid 30 / associative 10; diversity by_document 3 /
    by_source 10 / by_section from ``retrieval.diversity``. Both: version 0.1, purpose = intent, top_k
    and candidate_k from config, fusion and rerank from config, ``output.max_snippet_chars`` from
    composition, ``debug.caller = {app: graphbrain, session_id}``.
    """
    if not message.strip():
        raise InputError("user_message must not be blank", [{"field": "user_message", "reason": "blank"}])
    rc = retrieval_cfg
    pm = rc.per_mode_k
    expansion_queries = [
        _query(e.text, Mode.associative, e.weight, "expansion", e.reason) for e in expansions if _clip_query(e.text)
    ]
    diversity = PlanDiversity(
        by_document=rc.diversity.by_document,
        by_source=rc.diversity.by_source,
        by_section=rc.diversity.by_section,
    )
    output = Output(max_snippet_chars=composition_cfg.max_snippet_chars)
    caller = {"app": CALLER_APP, "session_id": session_id}

    memory_modes: dict[Mode, int] = {
        Mode.exact: pm.exact,
        Mode.semantic: pm.semantic,
        Mode.relational: pm.relational,
        Mode.associative: pm.associative,
    }
    memory_plan = RetrievalPlan(
        version=PLAN_VERSION,
        request_id=request_id,
        purpose=intent,
        queries=[
            _prefer(_query(message, Mode.exact, 1.0, "message"), time_range),
            _prefer(_query(message, Mode.relational, 1.0, "message"), time_range),
            _prefer(_query(message, Mode.semantic, 0.9, "message"), time_range),
            *expansion_queries,
        ],
        # A time the message names is a preference on this side, not a filter: a question names the
        # time of an event ("the camping trip last year") more often than the time it was said.
        global_filters=Filters(scope=["memory", "turns"]),
        budget=Budget(top_k=rc.top_k, candidate_k=rc.candidate_k, per_mode_k=memory_modes, diversity=diversity),
        ranking=_ranking(rc),
        output=output,
        debug=Debug(trace=trace, notes="conversation side (memory + turns)", caller=caller),
    )
    if not search_resources:
        return memory_plan, None

    if isinstance(scope_filters, ScopeFilters):
        scope_fields: dict[str, Any] = scope_filters.fields()
    else:
        scope_fields = {k: v for k, v in dict(scope_filters or {}).items() if v}
    resource_plan = RetrievalPlan(
        version=PLAN_VERSION,
        request_id=request_id,
        purpose=intent,
        queries=[_query(message, Mode.hybrid, 1.0, "message"), *expansion_queries],
        global_filters=Filters.model_validate({"scope": ["resources"], "time_range": time_range, **scope_fields}),
        budget=Budget(
            top_k=rc.top_k,
            candidate_k=rc.candidate_k,
            per_mode_k={Mode.hybrid: pm.hybrid, Mode.associative: pm.associative},
            diversity=diversity,
        ),
        ranking=_ranking(rc),
        output=output,
        debug=Debug(trace=trace, notes="resource side", caller=caller),
    )
    return memory_plan, resource_plan


# ============================================================================================ planner
def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat() if dt else None


@dataclass
class PlannerOutput:
    """Every planner decision with its reason: what the trace shows under ``debug.planner``."""

    intent: Intent
    intent_reason: str
    search_resources: bool
    search_reason: str
    time_range: TimeRange | None
    time_phrase: str
    scope: ScopeFilters
    expansions: list[Expansion]
    core_terms: list[str]
    memory_plan: RetrievalPlan
    resource_plan: RetrievalPlan | None
    notes: list[str] = field(default_factory=list)

    @property
    def reason(self) -> str:
        return self.intent_reason

    def plans(self) -> list[RetrievalPlan]:
        return [p for p in (self.memory_plan, self.resource_plan) if p is not None]

    def debug(self) -> dict[str, Any]:
        """JSON-ready ``debug.planner``: intent, reason, the resource decision, filters, expansions and
        the queries of both plans."""
        tr = self.time_range
        return {
            "intent": self.intent,
            "reason": self.intent_reason,
            "search_resources": self.search_resources,
            "search_reason": self.search_reason,
            "time_range": {"from": _iso(tr.from_), "to": _iso(tr.to)} if tr else None,
            "time_phrase": self.time_phrase,
            "scope": {**self.scope.fields(), "phrase": self.scope.phrase, "reason": self.scope.reason}
            if not self.scope.empty
            else None,
            "expansions": [e._asdict() for e in self.expansions],
            "core_terms": list(self.core_terms),
            "queries": {
                side: [{"text": q.text, "mode": q.mode.value, "weight": q.weight, **q.hints} for q in plan.queries]
                for side, plan in (("memory", self.memory_plan), ("resource", self.resource_plan))
                if plan is not None
            },
            "notes": list(self.notes),
        }


@dataclass
class Planner:
    """The planner with its configuration: ``plan`` runs every rule of this module for one message."""

    retrieval_cfg: RetrievalConfig = field(default_factory=RetrievalConfig)
    composition_cfg: CompositionConfig = field(default_factory=CompositionConfig)
    trace: bool = False

    def plan(
        self,
        message: str,
        agent_state: Mapping[str, Any] | None = None,
        *,
        now: datetime | None = None,
        recent_turns_text: Sequence[str] = (),
        aliases: Mapping[str, Sequence[str]] | None = None,
        refs_in_memory: Sequence[str] = (),
        known_sources: Sequence[Mapping[str, Any]] = (),
        request_id: str | None = None,
        session_id: str | None = None,
    ) -> PlannerOutput:
        notes: list[str] = []
        # The message becomes query text as it is: what no query may hold is the caller's to fix.
        check_text(message, "user_message")
        if "\x00" in message:
            reason = "must not contain NUL characters"
            raise InputError(f"user_message: {reason}", [{"field": "user_message", "reason": reason}])
        intent, intent_reason = classify_intent(message, agent_state)
        search, search_reason = should_search_resources(
            message,
            intent,
            recent_turns_text=recent_turns_text,
            refs_in_memory=refs_in_memory,
            setting=self.retrieval_cfg.enable_resource_retrieval,
        )
        time_range, time_phrase = parse_time_range(message, now)
        scope = parse_scope(message, known_sources)
        if is_chit_chat(message):
            # Nothing to associate from; the conversation side still runs for continuity.
            expansions: list[Expansion] = []
            notes.append("expansion skipped: chit-chat")
        else:
            expansions = expand_queries(
                message,
                aliases=aliases,
                recent_turns_text=recent_turns_text,
                cfg=self.retrieval_cfg.query_expansion,
            )
        if not search and not scope.empty:
            notes.append("scope ignored: resources are not searched")
        memory_plan, resource_plan = build_plans(
            message,
            intent=intent,
            search_resources=search,
            expansions=expansions,
            time_range=time_range,
            scope_filters=scope,
            retrieval_cfg=self.retrieval_cfg,
            composition_cfg=self.composition_cfg,
            request_id=request_id,
            session_id=session_id,
            trace=self.trace,
        )
        return PlannerOutput(
            intent=intent,
            intent_reason=intent_reason,
            search_resources=search,
            search_reason=search_reason,
            time_range=time_range,
            time_phrase=time_phrase,
            scope=scope,
            expansions=expansions,
            core_terms=core_terms(message),
            memory_plan=memory_plan,
            resource_plan=resource_plan,
            notes=notes,
        )


__all__ = [
    "CHIT_CHAT",
    "EXPANSION_LEVELS",
    "EXTERNAL_CUES",
    "INTENT_CUES",
    "RESOURCE_REQUEST_CUES",
    "Expansion",
    "Intent",
    "Planner",
    "PlannerOutput",
    "ScopeFilters",
    "answered_by_recent_window",
    "build_plans",
    "classify_intent",
    "core_terms",
    "expand_queries",
    "expansion_query_indexes",
    "key_terms",
    "is_chit_chat",
    "mentions_core",
    "parse_scope",
    "parse_time_range",
    "ref_named",
    "should_search_resources",
    "split_subtopics",
]
