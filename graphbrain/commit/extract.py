"""Rule-based extraction of memory candidates from one message (English, Chinese, and mixed).

``extract(text, role, context=...)`` splits the message into sentences and runs, per sentence:

1. retraction markers ("no, that's wrong, it's …", "actually …, not …", "不对，其实是…",
   "不是…而是…"), which name the active item they correct and carry the corrected fact;
2. "remember X" / "记住 X": X is extracted like any sentence (so "remember that I prefer tabs" is a
   preference); a fact no rule recognises becomes a profile note ``profile:user:note-<slug>``;
3. the rule table ``RULES``, in priority order: task status changes, decisions, goals, events,
   preferences, profile facts, new tasks. A rule's match claims its span; weaker rules cannot
   match inside a claimed span, so one clause yields one candidate.

Rules are data (pattern + family + parameters); a family's builder turns a match into a Candidate with
a stable key (see ``keys``). Sentences that are chit-chat or emotion are skipped here; questions
yield nothing (except "can you remember …"); speculative sentences still yield candidates, flagged
``hedged``, so that the retention gate can drop them *with a reason* (seed §1.2 C).

Nothing here decides what is kept: that is ``retention.gate``. Nothing here touches a database.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal, NamedTuple

from graphbrain.commit import keys
from graphbrain.config import NlpConfig
from graphbrain.contracts import ExplicitItem, MemoryStatus, MemoryType, TaskStatus
from graphbrain.nlp import dates, pipelines
from graphbrain.nlp.chars import HAN_CLASS
from graphbrain.nlp.text import (
    REMEMBER_RES,
    STOP_WORDS,
    ZH_OCCUPATIONS,
    EntityCandidate,
    content_tokens,
    detect_language,
    has_cjk,
    is_question,
    word_set,
)

Role = Literal["user", "assistant", "tool", "system"]
Source = Literal["user", "assistant", "tool", "inferred"]  # MemoryItem.source
ConfidenceClass = Literal["user_asserted", "tool_derived", "inferred"]
UtteranceClass = Literal["chit_chat", "emotion", "speculation", "question", "statement"]
Family = Literal["status", "decision", "goal", "event", "preference", "profile", "task", "retraction"]
EventKind = Literal["release", "incident", "milestone", "meeting"]


_ROLE_SOURCE: dict[str, Source] = {"user": "user", "assistant": "assistant", "tool": "tool"}


class ActiveItem(NamedTuple):
    """An active memory item known to the caller: what status changes and retractions refer to."""

    type: MemoryType
    key: str
    value: dict[str, Any]


@dataclass
class ExtractionContext:
    """What extraction may know beyond the message itself.

    ``active_items``: active memory items as (type, key, value), oldest first (the last one is the
    most recent, which "no, that's wrong" refers to when nothing else matches). ``known_projects``:
    project names that count when merely mentioned ("for graphbrain"); the projects of the active
    items' keys are added automatically. ``default_project``: the session's project when the text
    names none. ``now``: the turn's time, for event dates and relative due dates.
    """

    active_items: Sequence[tuple[MemoryType | str, str, dict[str, Any]]] = ()
    known_projects: Collection[str] = ()
    default_project: str | None = None
    now: datetime | None = None
    nlp: NlpConfig | None = None

    def items(self) -> list[ActiveItem]:
        return [ActiveItem(MemoryType(t), k, dict(v)) for t, k, v in self.active_items]

    def of_type(self, mtype: MemoryType) -> list[ActiveItem]:
        return [i for i in self.items() if i.type == mtype]

    def projects(self) -> set[str]:
        found = {p for p in self.known_projects if p}
        for _, key, _ in self.active_items:
            proj = keys.key_project(key)
            if proj and proj != keys.GENERAL_PROJECT:
                found.add(proj)
        return found


@dataclass
class Candidate:
    """A memory item proposed by extraction (or reported explicitly), before the retention gate.

    ``value`` is shaped per type: tasks {title, status, project, due?, notes?}; decisions {topic,
    decision, choice?, rationale?, project}; preferences {scope, name, value, polarity, over?}; goals
    {project, goal, by?}; events {kind, title, date, date_source, project}; profile {subject,
    attribute, value}; entities {name, canonical, kind, aliases}.

    Retractions: ``retracts`` is True, ``corrects`` names the (type, key) of the active item the user
    denied (None when nothing known matched; ``retracts_key`` is its key), ``wrong`` is the denied value
    as said, and ``value`` is the corrected fact, to be written under ``key`` (the corrected item's key
    whenever one matched).

    ``source`` is the MemoryItem source (user / assistant / tool / inferred), derived from ``role``
    unless given. After ``retention.gate``, ``gate_reason`` says why the candidate was kept or dropped
    and ``confidence`` holds its seed §1.4 confidence.
    """

    type: MemoryType
    key: str
    value: dict[str, Any]
    text: str
    confidence_class: ConfidenceClass
    role: Role
    span: tuple[int, int]
    reason: str
    retracts: bool = False
    corrects: tuple[MemoryType, str] | None = None
    wrong: str | None = None
    stable: bool = True  # preferences / goals: lasting wording, not a one-off ("this time", "这次")
    hedged: bool = False  # said speculatively ("maybe", "可能"): not a fact yet
    confirmed: bool = False  # an assistant / inferred item the user confirmed
    explicit: bool = False  # reported as a structured item (TurnEvents.items), not extracted from text
    confidence: float | None = None  # an explicit confidence (explicit items); the gate clamps it
    status: MemoryStatus | None = None
    evidence_refs: list[str] = field(default_factory=list)
    source: Source | None = None
    gate_reason: str | None = None

    def __post_init__(self) -> None:
        if self.source is None:
            self.source = _ROLE_SOURCE.get(self.role, "inferred")

    @property
    def retracts_key(self) -> str | None:
        """The key of the item this candidate retracts (None if it retracts nothing known)."""
        return self.corrects[1] if self.retracts and self.corrects is not None else None

    @property
    def corrected(self) -> bool:
        """True when this candidate is the corrected version of something the user denied."""
        return self.retracts and self.corrects is not None

    def searchable_text(self) -> str:
        """The memory item's searchable text: "[type:key] rendering" (CONTRACTS.md §2)."""
        return f"[{self.type.value}:{self.key}] {self.text}"


# ====================================================================================== rendering
def render(mtype: MemoryType, value: Mapping[str, Any]) -> str:
    """A readable one-line rendering of a value, used as the item's text."""
    v = value
    if mtype == MemoryType.tasks:
        extra = [f"due {v['due']}"] if v.get("due") else []
        if v.get("notes"):
            extra.append(str(v["notes"]))
        tail = f" ({'; '.join(extra)})" if extra else ""
        return f"Task [{v.get('status', 'todo')}] {v.get('title', '')}{tail} — project {v.get('project', '')}"
    if mtype == MemoryType.decisions:
        why = f", because {v['rationale']}" if v.get("rationale") else ""
        return f"Decision on {v.get('topic', '')}: {v.get('decision', '')}{why} — project {v.get('project', '')}"
    if mtype == MemoryType.preferences:
        verb = "prefers" if v.get("polarity", "positive") == "positive" else "avoids"
        over = f" over {v['over']}" if v.get("over") else ""
        return f"Preference ({v.get('scope', 'other')}/{v.get('name', '')}): {verb} {v.get('value', '')}{over}"
    if mtype == MemoryType.goals:
        by = f" by {v['by']}" if v.get("by") else ""
        return f"Goal ({v.get('project', '')}): {v.get('goal', '')}{by}"
    if mtype == MemoryType.events:
        when = f" on {v['date']}" if v.get("date") else ""
        kind = str(v.get("kind", "event")).capitalize()
        return f"{kind}: {v.get('title', '')}{when} — project {v.get('project', '')}"
    if mtype == MemoryType.profile:
        return f"{v.get('subject', 'user')} {v.get('attribute', '')}: {v.get('value', '')}"
    if mtype == MemoryType.entities:
        return f"{v.get('kind', 'entity')}: {v.get('name', v.get('canonical', ''))}"
    parts = [f"{k}: {val}" for k, val in v.items() if isinstance(val, (str, int, float)) and val != ""]
    return "; ".join(parts)


# ====================================================================================== utterance classes
# A sentence made only of these (plus punctuation, emoji and particles) is chit-chat.
_CHIT_CHAT_EN = (
    r"hi|hello|hey|yo|hiya|thanks|thank you|thanks a lot|thx|ty|cheers|much appreciated|appreciate it|"
    r"ok|okay|"
    r"k|kk|cool|great|nice|awesome|perfect|excellent|sounds good|looks good|lgtm|got it|gotcha|sure|yes|yeah|"
    r"yep|yup|no|nope|no worries|np|no problem|lol|lmao|rofl|ha(?:ha)+|he(?:he)+|bye|goodbye|good morning|"
    r"good night|good evening|good afternoon|see you|see ya|welcome|you're welcome|alright|all right|wow|oh|"
    r"hmm+|ah|good|fine|right|indeed|will do|understood|makes sense|i see|true|agreed|fair enough|"
    r"so|very|much|a lot|too|again|man|dude|buddy|all|then|and|you|u|there|everyone|guys|folks|friend"
)
_CHIT_CHAT_ZH = (
    r"你好|您好|嗨|哈喽|哈啰|谢谢你?|谢了|多谢|感谢|辛苦了|不客气|哈+|呵呵|嘿嘿|嘻嘻|好的|好滴|好吧|好嘞|好|嗯+|哦+|噢|"
    r"收到|明白了?|了解了?|知道了|懂了|没问题|可以|行|对|对的|是的|没错|再见|拜拜|晚安|早上好|早安|早|中午好|"
    r"晚上好|牛|厉害|赞|太棒了|棒|不错|好厉害|666+|ok|okay|啊|呀|啦|吧|呢|哈|嘛|哟|喔|了|你|那|就"
)
_CHIT_CHAT_RE = re.compile(rf"(?:\b(?:{_CHIT_CHAT_EN})\b|{_CHIT_CHAT_ZH})", re.I)
_NOISE_RE = re.compile(r"[\W_]+", re.UNICODE)  # punctuation, emoji, spaces

_EMOTION_RES: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"\b(?:i['’]?m|i am|i feel|feeling|i['’]?m feeling|so)\s+"
        r"(?:so\s+|really\s+|very\s+|super\s+|totally\s+|kinda\s+)*"
        r"(?:tired|exhausted|frustrated|annoyed|sad|angry|stressed|bored|upset|depressed|happy|excited|"
        r"burned out|burnt out|fed up|done with (?:this|it|everything))\b",
        re.I,
    ),
    re.compile(r"^(?:ugh+|argh+|sigh|damn|dammit|wtf|omg|ffs|meh)\b", re.I),
    re.compile(r"\b(?:this|it|that) (?:sucks|is (?:so )?annoying)\b|\bi hate (?:this|it|everything)\b", re.I),
    re.compile(
        r"累死了?|好累|太累了?|心累|烦死了?|好烦|真烦|气死(?:我)?了|郁闷|崩溃了?|难受|无语|太难了|头疼|头大|哭了|唉+|哎+|卧槽|服了|开心|高兴"
    ),
)
_SPECULATION_RES: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"\b(?:maybe|perhaps|possibly|probably|i guess|i suppose|i['’]?m not sure|not sure|might|may be|"
        r"could be|"
        r"i wonder|who knows|wondering if|not certain|i doubt)\b",
        re.I,
    ),
    re.compile(r"(?<![尽不])可能|也许|大概|或许|说不定|好像|似乎|估计|不确定|不一定|应该是.+吧|我猜|猜测"),
)


def _is_chit_chat(text: str) -> bool:
    rest = _NOISE_RE.sub("", _CHIT_CHAT_RE.sub(" ", text))
    return rest == ""


def _is_emotion(text: str) -> bool:
    for rx in _EMOTION_RES:
        m = rx.search(text)
        # Emotion, not a statement that mentions a feeling: little content is left around it.
        if m and len(content_tokens(text[: m.start()] + " " + text[m.end() :])) <= 2:
            return True
    return False


def _classify_sentence(text: str) -> UtteranceClass:
    t = text.strip()
    if not t or _is_chit_chat(t):
        return "chit_chat"
    if _is_emotion(t):
        return "emotion"
    if is_question(t):
        return "question"
    if any(rx.search(t) for rx in _SPECULATION_RES):
        return "speculation"
    return "statement"


def sentence_classes(text: str) -> list[tuple[int, int, UtteranceClass]]:
    """(start, end, class) of each sentence of ``text``: what the entity gate asks of a mention's sentence."""
    return [(s.start, s.end, _classify_sentence(s.text)) for s in _split_sentences(text)]


def classify_utterance(text: str) -> UtteranceClass:
    """What kind of utterance ``text`` is, for the retention gate.

    Each sentence is classified (chit-chat: greetings / thanks / acks only; emotion: a feeling with
    little else; question; speculation: maybe / I guess / 可能 / 也许 / 大概; else statement), and the
    message takes the most informative class present: statement > speculation > question > emotion >
    chit-chat. So "thanks! we decided to use Neo4j" is a statement, "哈哈好的" is chit-chat.
    """
    order: tuple[UtteranceClass, ...] = ("statement", "speculation", "question", "emotion", "chit_chat")
    found = {_classify_sentence(s.text) for s in _split_sentences(text)}
    for cls in order:
        if cls in found:
            return cls
    return "chit_chat"


# ====================================================================================== sentences
@dataclass(frozen=True)
class _Sentence:
    text: str
    start: int  # offset of text in the message

    @property
    def end(self) -> int:
        return self.start + len(self.text)


# End of sentence: CJK terminators, ! ? ; and newlines always; "." only before whitespace or the end,
# so that "v1.2", "5.26", "README.md" and URLs stay whole.
_SENT_END_RE = re.compile(r"[。！？!?；;]+|\.(?=\s|$)|\n+")


def _split_sentences(text: str) -> list[_Sentence]:
    out: list[_Sentence] = []
    pos = 0
    for m in list(_SENT_END_RE.finditer(text)) + [None]:
        end = m.end() if m else len(text)
        chunk = text[pos:end]
        stripped = chunk.strip()
        if stripped:
            out.append(_Sentence(stripped, pos + chunk.index(stripped)))
        pos = end
    return out


# ====================================================================================== small helpers
_TRAILING = " \t\r\n.,;:!?。，；：！？、…~～\"'”’」』)）]"
_LEADING = " \t\r\n,;:，；：\"'“‘「『(（["
_PRONOUN_ONLY = word_set(
    "it that this them those these everything all one thing stuff",
    "它 这 那 这个 那个 这些 那些 我 我们 咱们 都",
)


_ZH_PARTICLES_RE = re.compile(r"(?<=[^\s])\s*[了吧啊呀呢哦嘛啦]+$")


def _clean(text: str | None) -> str:
    """Trim a captured phrase: surrounding punctuation and quotes, a trailing "— aside", and the
    Chinese sentence-final particles (别再用 emoji 了 → 用 emoji)."""
    if not text:
        return ""
    t = re.split(r"\s+(?:—|--)\s+|;|；", text, maxsplit=1)[0]
    t = t.strip(_TRAILING).lstrip(_LEADING).strip(_TRAILING)
    return _ZH_PARTICLES_RE.sub("", t).strip(_TRAILING)


# Time words said with an event or a task ("released v1.2 today", "meeting … on 2026-02-24").
_WHEN_RE = re.compile(
    r"\s*\b(?:on\s+|at\s+)?(?:today|yesterday|tonight|this (?:morning|afternoon|evening)"
    r"|\d{4}-\d{1,2}-\d{1,2})\b"
    r"|\s*(?:在)?(?:今天|昨天|今晚|刚刚|刚才|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}月\d{1,2}[日号])",
    re.I,
)


def _strip_when(text: str) -> str:
    return _clean(_WHEN_RE.sub("", text)) or text


def _anaphoric(phrase: str) -> bool:
    words = [w for w in re.split(r"\s+", phrase.lower().strip()) if w not in ("the", "one", "with")]
    return not words or all(w in _PRONOUN_ONLY for w in words) or phrase.strip() in _PRONOUN_ONLY


def _meaningful(phrase: str) -> bool:
    return bool(phrase) and not _anaphoric(phrase) and bool(content_tokens(phrase))


def _lang_of(text: str) -> Literal["zh", "en"]:
    return "zh" if has_cjk(text) and detect_language(text) in ("zh", "mixed") else "en"


def _zh_has_verb(phrase: str) -> bool:
    return any(flag.startswith("v") for word, flag in pipelines.posseg(phrase) if word.strip())


def _zh_starts_with_verb(phrase: str, *, english: bool = True) -> bool:
    """True when a Chinese phrase starts with a verb (jieba POS v*): "加测试" yes, "一杯咖啡" no. An English
    word counts as one when ``english`` ("需要 fix 一下"), not where it is more often a topic
    ("memory store 用 Neo4j", "retry 最多三次")."""
    for word, flag in pipelines.posseg(phrase):
        if word.strip():
            return flag.startswith("v") or (english and flag == "eng")
    return False


# ------------------------------------------------------------------------------------ dates
def _resolve_date(text: str, now: datetime | None, prefer: dates.Prefer = None) -> date | None:
    """The first date ``text`` names, resolved against ``now`` (``graphbrain.nlp.dates``)."""
    return dates.resolve_date(text, now, prefer)


def _split_due(text: str, now: datetime | None) -> tuple[str, str | None]:
    """(text without its due phrase, the due date as ISO when resolvable, else as said)."""
    m = dates.due_phrase(text)
    if m is None:
        return text, None
    raw = m.group("due").strip()
    rest = _clean(text[: m.start()] + " " + text[m.end() :])
    rest = re.sub(r"\s*(?:之前|以前|为止)\s*", " ", rest) if not rest.strip() else rest
    resolved = _resolve_date(raw, now, "future")
    return re.sub(r"\s{2,}", " ", rest).strip(), (resolved.isoformat() if resolved else raw)


# ------------------------------------------------------------------------------------ matching active items
def _main_text(item: ActiveItem) -> str:
    v = item.value
    fields = {
        MemoryType.tasks: ("title",),
        MemoryType.decisions: ("topic", "decision", "choice"),
        MemoryType.preferences: ("name", "value"),
        MemoryType.goals: ("goal",),
        MemoryType.events: ("title",),
        MemoryType.profile: ("attribute", "value"),
        MemoryType.entities: ("name", "canonical"),
    }.get(item.type)
    if fields is None:
        return " ".join(str(x) for x in v.values() if isinstance(x, str))
    tail = item.key.rsplit(":", 1)[-1].replace("-", " ")
    return " ".join([*(str(v.get(f, "")) for f in fields), tail])


def _tokens_match(a: str, b: str) -> bool:
    # Equal, a close spelling of a longer word ("schema" / "schemas"; "scheme" is not close enough), or one
    # English word derived from the other ("migration" / "migrate", "deployment" / "deploy").
    if a == b:
        return True
    if min(len(a), len(b)) < 5:
        return False
    prefix = len(os.path.commonprefix([a, b]))
    if a.isascii() and prefix >= 5 and prefix >= 0.7 * min(len(a), len(b)):
        return True
    return difflib.SequenceMatcher(None, a, b).ratio() >= 0.85


def _similarity(phrase: str, target: str) -> tuple[float, float]:
    """(overlap coefficient, Jaccard) of the two phrases' content tokens as base forms ("migrating" and
    "migrate" are one word), with fuzzy token matching."""
    a = {keys.base_form(t) for t in content_tokens(phrase)}
    b = {keys.base_form(t) for t in content_tokens(target)}
    if not a or not b:
        return 0.0, 0.0
    common = sum(1 for x in a if any(_tokens_match(x, y) for y in b))
    return common / min(len(a), len(b)), common / (len(a) + len(b) - common)


def _best_match(
    phrase: str, items: Sequence[ActiveItem], *, min_overlap: float, min_jaccard: float = 0.0, whole: bool = False
) -> ActiveItem | None:
    """The item whose main text best matches ``phrase``; ties go to the most recent (later) item.

    ``whole``: a phrase with a word the item lacks names another thing unless most words are shared
    ("向量索引" is not the task "全文索引调好": both are indexes, the modifier says which)."""
    best: ActiveItem | None = None
    best_score = (0.0, 0.0)
    low = phrase.casefold()
    for item in items:
        overlap, jac = _similarity(phrase, _main_text(item))
        if low and low in _main_text(item).casefold():  # the phrase quoted verbatim from the item
            overlap = max(overlap, 1.0)
        if overlap < min_overlap or jac < min_jaccard:
            continue
        if whole and overlap < 1.0 and jac < 0.34:
            continue
        if (overlap, jac) >= best_score:
            best, best_score = item, (overlap, jac)
    return best


def _current_task(tasks: Sequence[ActiveItem]) -> ActiveItem | None:
    """The task "it" refers to: the most recent one in progress."""
    doing = [t for t in tasks if t.value.get("status") == "doing"]
    return doing[-1] if doing else None


# ====================================================================================== rules
ALL_ROLES: frozenset[str] = frozenset({"user", "assistant", "tool", "system"})


@dataclass(frozen=True)
class Rule:
    """One extraction rule: a pattern with named groups, the family that builds it, static params."""

    name: str
    family: Family
    pattern: re.Pattern[str]
    params: Mapping[str, str] = field(default_factory=dict)
    roles: frozenset[str] = ALL_ROLES


def _en(pattern: str) -> re.Pattern[str]:
    """An English pattern: case-insensitive, and "'" also matches the typographic apostrophe."""
    return re.compile(pattern.replace("'", "['’]"), re.I)


def _zh(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


# A table row: (name, params, pattern). The name's prefix ("en." / "zh.") picks the compiler; the
# params "roles" (comma-separated) limits the rule to some roles, every other param goes to the builder.
Row = tuple[str, dict[str, str], str]


def _table(family: Family, rows: Sequence[Row]) -> tuple[Rule, ...]:
    rules: list[Rule] = []
    for name, params, pattern in rows:
        compiled = _zh(pattern) if name.startswith("zh.") else _en(pattern)
        builder_params = {k: v for k, v in params.items() if k != "roles"}
        roles = frozenset(params["roles"].split(",")) if "roles" in params else ALL_ROLES
        rules.append(Rule(name, family, compiled, builder_params, roles=roles))
    return tuple(rules)


_USE_LEAD_RE = _en(
    r"^(?:(?:we|i)(?:'ll|'re going to| will| are going to| am going to)\s+)?(?:to\s+)?(?:just\s+)?"
    r"(?:use|using|go with|going with|adopt|choose|pick|stick with|switch to|move to"
    r"|go for|keep using|settle on|opt for)\s+|^(?:使用|采用|选用|改用|选择|选定|选|用)\s*"
)
# An English profile value: up to the next clause ("my name is Li Wei and I'm …" → "Li Wei").
_EN_VALUE = r"(?P<x>[^,.;!?]+?)(?=\s+(?:and|but|so|because|who|which|where)\b|\s*[,.;!?]|$)"
_OCCUPATIONS_EN = (
    r"engineer|developer|dev|designer|manager|scientist|researcher|student|teacher|professor|writer|analyst"
    r"|architect|consultant|founder|programmer|administrator|admin|sre|pm|lead|intern|freelancer"
)
_OCCUPATIONS_ZH = ZH_OCCUPATIONS

_ZH_DONE = "完成|做完|搞定|弄好|写完|修好|核对完|改完|跑完|测完|合并|合进去"
_EN_DONE = r"merged?|fixed|fix|deployed|deploy|done|closed|close|resolved|resolve|shipped|ship"

# 我 as the subject, said or carried from the clause before ("我叫王芳，是一名前端工程师", "我在字节跳动工作，
# 住在杭州"): Chinese drops a subject the previous clause already named. ``_build_profile`` checks the carry.
_ZH_ME = r"(?:我|(?:(?<=[，,])|(?<=[，,]\s))(?=(?:是|在|住|生活|现在|来自|叫)))"

BLOCKED = {"status": "blocked"}
DONE = {"status": "done"}
DOING = {"status": "doing"}
USE = {"use": "1"}
POS = {"polarity": "positive"}
NEG = {"polarity": "negative"}

# The rule tables, one per family, in priority order (the first rule to match a span claims it).
# fmt: off
STATUS_RULES = _table("status", (
    ("en.task.blocked_by", BLOCKED,
     r"^(?P<x>.+?)\s+(?:is|are|was|were|got|'s|has been|have been)\s+(?:still\s+)?(?:blocked|stuck)"
     r"\s+(?:on|by)\s+(?P<y>.+)"),
    ("en.task.blocked_on", BLOCKED,
     r"\b(?:i'm|we're|i am|we are)\s+(?:still\s+)?(?:blocked|stuck)\s+(?:on|by)\s+(?P<y>.+)"),
    ("en.task.blocked_on", BLOCKED, r"^(?:still\s+)?(?:blocked|stuck)\s+(?:on|by)\s+(?P<y>.+)"),
    ("en.task.blocked", BLOCKED, r"^(?P<x>.+?)\s+(?:is|are|was|'s)\s+(?:still\s+)?blocked\b"),
    ("en.task.blocked", BLOCKED, r"^blocked\s*[:：]\s*(?P<x>.+)"),
    ("en.task.checked", DONE, r"^\s*[-*]\s*\[[xX]\]\s*(?P<x>.+)"),
    ("en.task.done_with", DONE,
     r"\b(?:(?:i'm|we're|i am|we are)\s+(?:all\s+|finally\s+)?)?done\s+with\s+(?P<x>.+)"),
    ("en.task.done", DONE, r"^(?:done|finished|completed)\s*[:：-]\s*(?P<x>.+)"),
    ("en.task.finished", DONE, r"\b(?:finished|completed|wrapped up|closed out)\s+(?P<x>.+)"),
    # "fixed the login bug", "revoked the leaked token": the verb is part of the work.
    ("en.task.did", DONE, r"^(?:i\s+|we\s+|just\s+)?(?P<x>(?:fixed|resolved|revoked|rotated)\s+.+)"),
    ("en.task.is_done", DONE,
     r"^(?P<x>.+?)\s+(?:is|are|was|were|has been|have been|'s)\s+(?:now\s+|finally\s+|all\s+)?"
     r"(?:done|finished|complete|completed|merged|fixed|resolved)\b"),
    ("en.task.doing", DOING,
     r"\b(?:i'm|we're|i am|we are)\s+(?:now\s+|currently\s+|still\s+)?(?:working on|starting on|tackling)"
     r"\s+(?P<x>.+)"),
    ("en.task.doing", DOING,
     r"\b(?:i|we)\s+(?:just\s+)?(?:started|began)\s+(?:working\s+on\s+|on\s+|with\s+)?(?P<x>.+)"),
    ("en.task.doing", DOING, r"^(?:now\s+)?(?:working on|starting on|started on|started|began)\s+(?P<x>.+)"),
    ("zh.task.blocked_by", BLOCKED, r"(?P<x>.+?)\s*被\s*(?P<y>.+?)\s*(?:卡住|阻塞|挡住|拖住|block住?)了?"),
    ("zh.task.stuck_at", BLOCKED,
     r"(?P<x>.+?)\s*(?:卡在|卡到|阻塞在)\s*(?P<y>.+?)\s*(?:上|这里|那里|这儿)?了?$"),
    ("zh.task.blocked", BLOCKED, r"(?P<x>.+?)\s*(?:被阻塞了?|阻塞了?|卡住了?)"),
    # "X 已经做完了", "PR #42 已经 merge 了": what comes before the done-verb, in its clause.
    ("zh.task.done", DONE,
     rf"(?:^|(?<=[，,；;]))\s*(?P<x>[^，,；;]+?)\s*(?:(?:已经|已|都)\s*(?:{_ZH_DONE}|{_EN_DONE})\s*了?"
     rf"|(?:{_ZH_DONE})了)\s*[了吧啦啊]?\s*(?=[，,；;。！!～~]|$)"),
    ("zh.task.done", DONE, r"(?:已经|已)?(?:完成了|做完了|搞定了|弄好了|写完了|修好了)\s*(?P<x>[^，,；;。\s].*)"),
    ("zh.task.doing", DOING,
     r"(?:开始做|开始写|开始搞|开始处理|开始弄|着手|(?:正在|在)(?:做|写|搞|处理|弄|排查|查|优化|改|修|调|跑))"
     r"\s*(?P<x>.*)"),
))

DECISION_RULES = _table("decision", (
    ("en.decision.decided", {},
     r"\b(?:we|i)(?:\s+have|'ve)?\s+(?:finally\s+|just\s+)?decided\s+(?:to\s+|that\s+|on\s+)?(?P<x>.+)"),
    ("en.decision.label", {}, r"^decision\s*[:：]\s*(?P<x>.+)"),
    ("en.decision.lets_use", USE,
     r"\blet's\s+(?:just\s+)?(?:go with|use|pick|choose|stick with|switch to|adopt|go for)\s+(?P<x>.+)"),
    ("en.decision.will_use", USE,
     r"\b(?:we|i)(?:'ll| will| are going to|'re going to| am going to|'m going to)\s+(?:just\s+)?"
     r"(?:use|go with|stick with|switch to|adopt)\s+(?P<x>.+)"),
    ("en.decision.going_with", USE, r"\b(?:we're|we are|i'm|i am)\s+going\s+with\s+(?P<x>.+)"),
    ("en.decision.switching", USE,
     r"\b(?:we're|we are)\s+(?:switching|moving|migrating)\s+(?:(?:it|them|this|that)\s+)?(?:over\s+)?to\s+(?P<x>.+)"),
    # "let's move the PDFs to S3": a change of how things are done is a decision (with a deadline, a task too).
    ("en.decision.lets_change", {},
     r"\blet's\s+(?P<x>(?:move|migrate|switch|drop|replace|remove|deprecate|rename|split|merge|stop|freeze)\b.+)"),
    ("en.decision.chose", USE,
     r"\b(?:we|i)\s+(?:chose|picked|selected|settled on|went with|opted for)\s+(?P<x>.+)"),
    ("zh.decision.decided", {}, r"(?:我们|咱们|我)?(?:最终|最后)?决定(?:了)?[，,:：]?\s*(?P<x>.+)"),
    ("zh.decision.settled", {}, r"^定了\s*[:：，,]?\s*(?P<x>.+)"),
    ("zh.decision.final_pick", USE, r"(?:最终|最后)(?:选了|选择了|选择|选定了|选定|选|采用|用)\s*(?P<x>.+)"),
    ("zh.decision.just_use", USE, r"(?:(?P<t>[^，,。；;\s]{1,12}?)\s*)?就用\s*(?P<x>.+)"),
    ("zh.decision.adopt", USE, r"(?:我们|咱们)\s*(?:采用|选用|选择了?|改用)\s*(?P<x>.+)"),
    ("zh.decision.switch", USE,
     r"(?:我们|咱们)\s*(?P<t>[^，,。；;\s]{1,12}|[A-Za-z][\w.-]{0,20})\s*(?:改用|换成|换用)\s*(?P<x>[^，,。；;]+)"),
))

GOAL_RULES = _table("goal", (
    ("en.goal.is", {},
     r"\b(?:our|my|the)\s+(?:main\s+|long[- ]term\s+|primary\s+|big\s+|ultimate\s+|overall\s+)?goal\s+"
     r"(?:for\s+\S+\s+)?(?:is|:)\s*(?:to\s+)?(?P<x>.+)"),
    ("en.goal.label", {}, r"^goal\s*[:：]\s*(?P<x>.+)"),
    ("en.goal.by", {},
     r"\b(?:we|i)\s+(?:want|aim|plan|hope|intend)\s+to\s+(?P<x>.+?)\s+by\s+"
     r"(?P<by>(?:the\s+)?(?:end\s+of\s+)?[\w -]{2,30}?|\d{4}-\d{1,2}-\d{1,2})\s*$"),
    ("en.goal.aim", {}, r"\b(?:we|i)\s+aim\s+to\s+(?P<x>.+)"),
    ("zh.goal.is", {},
     r"(?:我们的|我的|项目的?)?(?:长期|主要|最终|总体|核心)?目标(?:是|就是|[:：])\s*(?P<x>.+)"),
    ("zh.goal.by", {},
     r"(?:希望|争取|计划|打算)\s*(?:在)?\s*(?P<by>[^，,。]{1,12}?)(?:之前|以前|前)\s*(?P<x>.+)"),
))

_VERSION = r"(?:\bv\d+(?:\.\d+)*|\b\d+\.\d+(?:\.\d+)*)(?:-[\w.]+)?"
EVENT_RULES = _table("event", (
    ("en.event.released", {"kind": "release"}, r"\b(?:released|shipped|launched|published|cut)\s+(?P<x>.+)"),
    ("en.event.version_out", {"kind": "release"},
     rf"(?P<x>(?:\b[\w.-]+\s+)?{_VERSION})\s+(?:is\s+|was\s+|has\s+been\s+|got\s+)?"
     r"(?:released|shipped|out|live|launched)\b"),
    ("en.event.release_label", {"kind": "release"}, r"^release\s*[:：]\s*(?P<x>.+)"),
    ("en.event.incident_label", {"kind": "incident"},
     r"^(?:incident|outage|postmortem|post-mortem)\s*[:：]\s*(?P<x>.+)"),
    ("en.event.outage", {"kind": "incident"},
     r"(?P<x>.*\b(?:outage|incident|went down|is down|was down)\b.*)"),
    ("en.event.milestone_label", {"kind": "milestone"}, r"^milestone\s*[:：]\s*(?P<x>.+)"),
    ("en.event.milestone", {"kind": "milestone"},
     r"\b(?:reached|hit|completed|passed)\s+(?:the\s+|a\s+|our\s+)?(?P<x>(?:[\w.-]+\s+){0,4}milestone(?:\s+[\w.-]+)?)"),
    ("en.event.meeting_label", {"kind": "meeting"}, r"^meeting\s*[:：]\s*(?P<x>.+)"),
    ("en.event.meeting", {"kind": "meeting"}, r"\b(?:meeting|call|sync)\s+with\s+(?P<x>.+)"),
    ("en.event.met", {"kind": "meeting"}, r"\bwe\s+met\s+with\s+(?P<x>.+)"),
    ("zh.event.released", {"kind": "release"}, r"(?:正式)?(?:发布了|上线了|发版了)\s*(?P<x>.+)"),
    ("zh.event.released_after", {"kind": "release"},
     r"^(?P<x>.+?)\s*(?:(?:已经|已|正式|终于)(?:发布|上线|发版)了?|(?:发布|上线|发版)了)[。！!]*$"),
    ("zh.event.incident_label", {"kind": "incident"}, r"^(?:线上)?(?:事故|故障)\s*[:：]\s*(?P<x>.+)"),
    ("zh.event.incident", {"kind": "incident"},
     r"(?P<x>.*(?:事故(?!复盘|报告|总结|演练)|故障(?!演练|复盘)|宕机|挂了|断电|线上问题).*)"),
    ("zh.event.milestone_label", {"kind": "milestone"}, r"^里程碑\s*[:：]\s*(?P<x>.+)"),
    ("zh.event.milestone", {"kind": "milestone"}, r"(?P<x>.*里程碑.*)"),
    ("zh.event.meeting", {"kind": "meeting"}, r"(?:和|跟|与)\s*(?P<x>.+?)\s*开(?:了)?(?:个)?会"),
    ("zh.event.meeting_label", {"kind": "meeting"}, r"^会议\s*[:：]\s*(?P<x>.+)"),
))

PREFERENCE_RULES = _table("preference", (
    # The assistant's guesses about the user: extracted so that the gate can drop them with a reason.
    ("en.pref.guess", {**POS, "roles": "assistant"},
     r"\byou\s+(?:seem\s+to\s+|probably\s+|might\s+|usually\s+|always\s+)?(?:prefer|like|want|enjoy)\s+(?P<x>.+)"),
    ("zh.pref.guess", {**POS, "roles": "assistant"},
     r"你(?:好像|应该|似乎|可能|一般|通常)?(?:更|比较)?(?:喜欢|偏好|倾向于|习惯)(?:用|使用)?\s*(?P<x>.+)"),
    ("en.pref.prefer", POS,
     r"\bi(?:'d| would)?\s+(?:really\s+|much\s+|generally\s+|always\s+)?prefer\s+(?P<x>.+)"),
    ("en.pref.dislike", NEG, r"\bi\s+(?:really\s+)?(?:don't|do not)\s+(?:like|want)\s+(?P<x>.+)"),
    ("en.pref.hate", NEG, r"\bi\s+(?:really\s+)?(?:hate|dislike|can't stand)\s+(?P<x>.+)"),
    ("en.pref.like", POS, r"\bi\s+(?:really\s+)?(?:like|love)\s+(?P<x>.+)"),
    ("en.pref.from_now_on", POS,
     r"\b(?:from now on|going forward|in (?:the )?future)[,]?\s+(?:please\s+)?"
     r"(?P<neg>don't\s+|do not\s+|never\s+)?(?:always\s+)?(?P<x>.+)"),
    ("en.pref.always", POS, r"^(?:please\s+)?(?:always|consistently)\s+(?P<x>.+)"),
    ("en.pref.never", NEG, r"^(?:please\s+)?(?:never|don't ever|do not ever)\s+(?P<x>.+)"),
    ("en.pref.i_always", POS, r"\bi\s+always\s+(?:use|want|write|prefer)\s+(?P<x>.+)"),
    # "Please keep your answers short": how the agent's output should be.
    ("en.pref.keep", {**POS, "check": "facet"},
     r"^(?:please\s+)?keep\s+(?:your|the|all)\s+(?P<x>(?:answers?|replies|responses?|messages?|summaries|"
     r"explanations?|comments?|commit messages?|code)\b.+)"),
    ("en.pref.i_use", {**POS, "check": "facet"},
     r"\bi\s+(?:mostly\s+|usually\s+|mainly\s+|only\s+|now\s+)?use\s+(?P<x>.+)"),
    ("zh.pref.follow", POS, r"以后(?:都|请|就)?(?:按|按照|照)\s*(?P<x>.+?)\s*(?:来|去)\s*(?P<act>.+)$"),
    ("zh.pref.from_now_on", POS,
     r"以后\s*(?P<about>[^，,。；;]{0,16}?)\s*(?:都|请|就)?(?P<neg>不要|别)?(?:按|按照|照|用|使用)\s*(?P<x>.+)"),
    ("zh.pref.from_now_on_not", NEG, r"以后(?:都|请)?(?:不要|别|不用)\s*(?P<x>.+)"),
    ("zh.pref.no_more", NEG, r"(?:别|不要|不许)再\s*(?P<x>.+)"),
    ("zh.pref.dislike", NEG, r"我(?:不喜欢|讨厌|不想要|受不了)\s*(?P<x>.+)"),
    ("zh.pref.like", POS, r"我(?:更|比较|最|还是)?(?:喜欢|偏好|倾向于|习惯)(?:用|使用)?\s*(?P<x>.+)"),
    ("zh.pref.always", POS, r"^(?:请)?(?:总是|始终|每次都|一律)\s*(?P<x>.+)"),
    # How answers / code should be, when it names a known dimension: "回答的时候请用 bullet points".
    ("zh.pref.style", {**POS, "check": "facet"},
     r"^(?:请)?(?P<about>回答|回复|答复|解释|总结|代码|注释|提交信息|commit message)(?:的时候|时)?\s*"
     r"(?:请|要|都|尽量)?\s*(?:用|使用|写得?)?\s*(?P<x>.+)"),
    ("zh.pref.i_use", {**POS, "check": "facet"}, r"我(?:一般|平时|通常|主要|一直|都)?(?:用|使用)\s*(?P<x>.+)"),
))

PROFILE_RULES = _table("profile", (
    ("en.profile.name", {"attribute": "name"}, rf"\bmy name is\s+{_EN_VALUE}"),
    ("en.profile.call_me", {"attribute": "name"},
     r"\b(?:call me|i go by)\s+(?P<x>[^,.;!?\s]+(?:\s+[A-Z][^,.;!?\s]*)?)"),
    ("en.profile.occupation", {"attribute": "occupation"},
     rf"\bi(?:'m| am)\s+(?:a|an)\s+(?P<x>(?:[\w+#-]+\s+){{0,3}}(?:{_OCCUPATIONS_EN}))\b"),
    ("en.profile.work_as", {"attribute": "occupation"}, rf"\bi work as\s+(?:a|an)\s+{_EN_VALUE}"),
    ("en.profile.employer", {"attribute": "employer"}, rf"\bi work (?:at|for)\s+{_EN_VALUE}"),
    ("en.profile.location", {"attribute": "location"},
     rf"\bi(?:'m| am)?\s*(?:live|living|based|located)\s+in\s+{_EN_VALUE}"),
    ("en.profile.from", {"attribute": "hometown"}, rf"\bi(?:'m| am)\s+(?:originally\s+)?from\s+{_EN_VALUE}"),
    # "I moved to Toronto", "… from Lisbon but moved to Toronto last year" (the subject said before).
    ("en.profile.moved", {"attribute": "location", "check": "en_me"},
     rf"\b(?:i|i've|i have|but|and|then)\s+(?:just\s+|recently\s+|since\s+)?(?:moved|relocated)\s+to\s+{_EN_VALUE}"),
    ("en.profile.timezone", {"attribute": "timezone"}, r"\bmy\s+(?:time\s?zone|tz)\s+is\s+(?P<x>[^,;!?\s]+)"),
    ("en.profile.agent_name", {"attribute": "name", "subject": "agent"}, rf"\byour name is\s+{_EN_VALUE}"),
    ("zh.profile.name", {"attribute": "name"}, rf"{_ZH_ME}(?:叫|的名字(?:是|叫))\s*(?P<x>[^，,。！!？?\s]{{1,12}})"),
    ("zh.profile.occupation", {"attribute": "occupation"},
     rf"{_ZH_ME}是(?:一名|一个|个|一位)?\s*(?P<x>[^，,。！!？?]{{0,12}}?(?:{_OCCUPATIONS_ZH}"
     rf"|(?<![A-Za-z])(?:{_OCCUPATIONS_EN})(?![A-Za-z])))"),
    ("zh.profile.employer", {"attribute": "employer"},
     rf"{_ZH_ME}在\s*(?P<x>[^，,。！!？?]{{1,20}}?)\s*(?:工作|上班|任职)"),
    # "在美团做算法工程师": where, and as what.
    ("zh.profile.works_as", {"attribute": "employer", "also": "occupation"},
     rf"{_ZH_ME}在\s*(?P<x>[^，,。！!？?]{{1,20}}?)\s*(?:做|当|担任)\s*(?:一名|一个|个|一位)?\s*"
     rf"(?P<y>[^，,。！!？?]{{0,12}}?(?:{_OCCUPATIONS_ZH}))"),
    ("zh.profile.location", {"attribute": "location"},
     rf"{_ZH_ME}(?:住在|生活在|现在在|现在住在)\s*(?P<x>[^，,。！!？?\s]{{1,20}})"),
    ("zh.profile.from", {"attribute": "hometown"}, rf"{_ZH_ME}来自\s*(?P<x>[^，,。！!？?\s]{{1,20}})"),
    ("zh.profile.agent_name", {"attribute": "name", "subject": "agent"},
     r"你(?:的名字)?叫\s*(?P<x>[^，,。！!？?\s]{1,12})"),
    # "我是张伟": only when jieba tags the rest as a person name (nr), not "我是新来的".
    ("zh.profile.name_is", {"attribute": "name", "check": "zh_person"},
     r"^我是\s*(?P<x>[^，,。！!？?\s]{2,4})[。!！]?$"),
))

_TASK_VERBS_EN = (
    r"add|write|fix|implement|create|build|refactor|update|remove|delete|set up|setup|document|test|migrate"
    r"|support|rename|move|split|merge|clean up|make|improve|optimi[sz]e|investigate|look into|check|review"
    r"|deploy|prepare|draft|finish"
)
TASK_RULES = _table("task", (
    ("en.task.checkbox", {}, r"^\s*[-*]\s*\[\s\]\s*(?P<x>.+)"),
    ("en.task.todo", {}, r"^\s*(?:todo|to-do|to do|action item|task)\s*[:：-]\s*(?P<x>.+)"),
    ("en.task.todo", {}, r"^\s*todo\s+(?P<x>.+)"),
    ("en.task.need", {},
     r"\b(?:we|i|you)\s+(?:still\s+|also\s+|really\s+)?(?:need|have|ought)\s+to\s+(?P<x>.+)"),
    ("en.task.dont_forget", {}, r"\b(?:don't|do not)\s+forget\s+to\s+(?P<x>.+)"),
    ("en.task.will", {}, r"\b(?:i|we)(?:'ll| will)\s+(?P<x>.+)"),
    # Someone else's commitment: "Alice will look into …", "she'll have a draft by Friday".
    ("en.task.they_will", {},
     rf"(?:^|\b)(?:he|she|they|(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?|[{HAN_CLASS}]{{2,3}})"
     r"(?:\s+from\s+the\s+[\w -]{2,30}?)?"
     r"(?:'ll|\s+will)\s+(?P<x>.+)"),
    ("en.task.remind", {}, r"\bremind\s+me\s+to\s+(?P<x>.+)"),
    # A request to the agent: "please write the docs for …".
    ("en.task.please", {"roles": "user"}, rf"^(?:please|pls)\s+(?P<x>(?:{_TASK_VERBS_EN})\b.+)"),
    ("en.task.lets", {}, rf"\blet's\s+(?P<x>(?:{_TASK_VERBS_EN})\b.+)"),
    ("zh.task.todo", {}, r"^\s*(?:待办|任务|待做|todo)\s*[:：]\s*(?P<x>.+)"),
    # "需要 / 我会 …" only when a verb follows (jieba POS): "需要加测试" yes, "需要一杯咖啡" no.
    # "推荐系统的召回模块需要重写": what comes before the modal is the object.
    ("zh.task.need", {"check": "zh_verb", "keep_pre": "1"},
     r"(?:^|(?<=[，,；;]))(?P<pre>[^，,。；;]*?)(?:我们|咱们|我|你)?(?:还|也)?(?:需要|得|要做|必须)\s*(?P<x>.+)"),
    ("zh.task.will", {"check": "zh_verb"}, r"我(?:会|来|去|要)\s*(?P<x>.+)"),
    # "全文索引这周五之前要调好", "下周五前要把发布说明翻译成英文": what comes before the modal is the object.
    ("zh.task.modal", {"check": "zh_verb", "keep_pre": "1"},
     r"(?:^|(?<=[，,；;]))(?P<pre>[^，,。；;]*?)(?:还|也)?(?:需要|要|得|必须|打算|准备|计划)\s*(?P<x>.+)"),
    # A plan with a date: "支付网关下周三升级完", "华为的合同下周四签", "他说月底前能上线".
    ("zh.task.dated", {"check": "zh_dated"}, r"(?:^|(?<=[，,；;]))\s*(?P<x>[^，,；;]+)$"),
    ("zh.task.dont_forget", {"check": "zh_verb"}, r"别忘了\s*(?P<x>.+)"),
))

# Retraction markers. Strong ones correct something even when nothing else in the sentence says what;
# weak ones ("actually …", "其实…") only count when the sentence corrects a known item or says "not Y".
STRONG = {"strength": "strong"}
WEAK = {"strength": "weak"}
RETRACTION_MARKERS = _table("retraction", (
    ("en.retract.wrong", STRONG,
     r"^(?:no|nope|wrong)\b[,.!]*\s*(?:that's|that is|it's|it is|you're|you are)\s+"
     r"(?:wrong|not right|incorrect|not correct|not true|a mistake)\b[,.;:!—-]*\s*(?P<x>.*)$"),
    ("en.retract.thats_wrong", STRONG,
     r"^(?:that's|that is|this is)\s+(?:wrong|not right|incorrect|not true)\b[,.;:!—-]*\s*(?P<x>.*)$"),
    ("en.retract.correction", STRONG, r"^correction\s*[:：,—-]\s*(?P<x>.+)$"),
    ("en.retract.meant", STRONG, r"^(?:sorry[,]?\s*|oops[,]?\s*)?i\s+meant\s+(?P<x>.+)$"),
    ("en.retract.scratch", STRONG,
     r"^(?:scratch that|i was wrong|my mistake|my bad)\b[,.;:!—-]*\s*(?P<x>.*)$"),
    ("en.retract.no", WEAK, r"^(?:no|nope)\b[,.!—-]+\s*(?P<x>.+)$"),
    ("en.retract.actually", WEAK, r"^actually\b[,]?\s*(?P<x>.+)$"),
    ("zh.retract.wrong", STRONG,
     r"^(?:不对|不是的|错了|不是这样的?)[，,。！!.\s]*(?:其实|实际上|应该)?(?:是)?\s*(?P<x>.*)$"),
    ("zh.retract.misspoke", STRONG,
     r"^(?:我)?(?:说错了|搞错了|写错了|记错了)[，,。！!.\s]*(?:其实|实际上|应该)?(?:是)?\s*(?P<x>.*)$"),
    ("zh.retract.correction", STRONG, r"^(?:更正|纠正(?:一下)?|修正)\s*[:：，,]\s*(?P<x>.+)$"),
    ("zh.retract.not_but", STRONG, r"^(?P<pre>.*?)不是\s*(?P<wrong>[^，,。]+?)\s*[，,]?\s*而是\s*(?P<x>.+)$"),
    ("zh.retract.actually", WEAK, r"^(?:其实|实际上)[，,]?\s*(?P<x>.+)$"),
))

# Inside a correction, "use X for Y" / "用 X 做 Y" is a decision even without "we decided".
CORRECTION_RULES = _table("decision", (
    ("en.correction.use", USE, r"^(?P<x>(?:to\s+)?(?:use|using|go with|going with)\s+.+)$"),
    ("zh.correction.use", USE, r"^(?P<x>(?:用|使用|采用|选用|改用)\s*.+)$"),
))
# fmt: on

RULES: tuple[Rule, ...] = (
    STATUS_RULES + DECISION_RULES + GOAL_RULES + EVENT_RULES + PREFERENCE_RULES + PROFILE_RULES + TASK_RULES
)

_HAVE_DELIVERABLE_RE = _en(r"^(?:have|get)\s+(?:a\s+|an\s+|the\s+)?")
# "I'll …" that is not a piece of work.
_NOT_A_TASK_LEAD = _en(
    r"^(?:be|have|see|think|try|bet|pass|leave|let you know|get back to you|keep that in mind|remember"
    r"|take that|do that|do it|do my best|wait|talk|ask)\b"
)
# "X, not Y" / "X，不是 Y" at the end of a correction names the wrong value.
_NOT_TAIL_RES: tuple[re.Pattern[str], ...] = (
    _en(r"^(?P<x>.+?)[,;]?\s+(?:and\s+)?not\s+(?P<wrong>[^,.;]+?)[.!]?$"),
    _zh(r"^(?P<x>.+?)[，,]\s*(?:而)?不是\s*(?P<wrong>.+?)[。！!]?$"),
)
_COPULA_LEAD_RE = _en(
    r"^(?:it's|it is|it was|its|that's|that is|the answer is|rather|instead|是|其实是|应该是|实际上是)\s*"
)

_MAIN_FIELD: dict[MemoryType, str] = {
    MemoryType.tasks: "title",
    MemoryType.decisions: "decision",
    MemoryType.preferences: "value",
    MemoryType.goals: "goal",
    MemoryType.events: "title",
    MemoryType.profile: "value",
    MemoryType.entities: "name",
}
_FIXED_FIELDS = frozenset(
    {"project", "status", "scope", "kind", "subject", "attribute", "polarity", "name", "date", "date_source"}
)


# ====================================================================================== builders
@dataclass
class _State:
    """Per-message state shared by the builders."""

    text: str
    role: Role
    lang: str
    ctx: ExtractionContext
    message_project: str
    projects: set[str]

    @property
    def confidence_class(self) -> ConfidenceClass:
        return {"user": "user_asserted", "tool": "tool_derived"}.get(self.role, "inferred")  # type: ignore[return-value]

    def project_for(self, sentence: str) -> str:
        return keys.infer_project(sentence, known=self.projects, default=self.message_project)


Builder = Callable[[Rule, "re.Match[str]", str, int, _State], "Candidate | list[Candidate] | None"]


def _group(m: re.Match[str], name: str) -> str:
    return (m.groupdict().get(name) or "").strip()


def _make(
    st: _State,
    rule: Rule,
    mtype: MemoryType,
    key: str,
    value: dict[str, Any],
    span: tuple[int, int],
    reason: str | None = None,
) -> Candidate:
    return Candidate(
        type=mtype,
        key=key,
        value=value,
        text=render(mtype, value),
        confidence_class=st.confidence_class,
        role=st.role,
        span=span,
        reason=reason or rule.name,
    )


_LEADING_DETERMINER_RE = re.compile(r"^(?:the|a|an|my|our|this|that)\s+", re.I)


def _task_value(
    title: str, status: TaskStatus, project: str, due: str | None, notes: str | None = None
) -> dict[str, Any]:
    value: dict[str, Any] = {"title": title, "status": status, "project": project}
    if due:
        value["due"] = due
    if notes:
        value["notes"] = notes
    return value


def _build_status(rule: Rule, m: re.Match[str], clause: str, offset: int, st: _State) -> Candidate | None:
    status: TaskStatus = rule.params["status"]  # type: ignore[assignment]
    x = _TRAILING_NOW_RE.sub("", _clean(_group(m, "x")))
    y = _clean(_group(m, "y"))
    if y and re.fullmatch(r"(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?|he|she|they|i|we)", x):
        x, y = y, ""  # "Sam is stuck on the chart library upgrade": the upgrade is the task
    if status == "doing" and not _meaningful(x) and has_cjk(clause):
        x = _zh_previous_topic(clause[: m.start()]) or x  # "关系检索太慢了，王强在优化": 优化 what was said
    planned = None
    if status == "doing" and st.ctx.now is not None:
        found = dates.find_date(clause, st.ctx.now, "future")
        if found is not None and found[0] > st.ctx.now.date():
            planned = found[0]  # "下周一开始做 X", "starting on X next week": planned work, not work in progress
            status = "todo"
    tasks = st.ctx.of_type(MemoryType.tasks)
    target = _best_match(x, tasks, min_overlap=0.5, whole=True) if _meaningful(x) else _current_task(tasks)
    notes = None
    if status == "blocked" and y:
        notes = f"被{y}卡住" if has_cjk(y) and _lang_of(clause) == "zh" else f"blocked on {y}"
    span = (offset + m.start(), offset + m.end())
    if target is not None:
        value = dict(target.value)
        value["status"] = status
        if notes:
            value["notes"] = notes
            value["blocked_by"] = y
        return _make(st, rule, MemoryType.tasks, target.key, value, span, f"{rule.name}: matched {target.key}")
    if not _meaningful(x):
        return None  # "done with it" / "blocked on the API" with no task to attach it to
    title, due = _split_due(x, st.ctx.now)
    title = _LEADING_DETERMINER_RE.sub("", title)
    due = due or (planned.isoformat() if planned else None)
    project = st.project_for(clause)
    value = _task_value(title, status, project, due, notes)
    if notes:
        value["blocked_by"] = y
    return _make(st, rule, MemoryType.tasks, keys.task_key(project, title), value, span, f"{rule.name}: new task")


_TRAILING_NOW_RE = re.compile(r"\s+(?:now|right now|at the moment|currently|again|today)\s*$", re.I)
_ZH_CLAUSE_SEP_RE = re.compile(r"[，,；;]")


def _zh_previous_topic(before: str) -> str:
    """The clause before a subject-and-verb clause that names no object ("关系检索太慢了，王强在优化"):
    what the work is about. The subject itself (王强) is the last part and is skipped."""
    parts = [p.strip() for p in _ZH_CLAUSE_SEP_RE.split(before)]
    if len(parts) < 2:
        return ""
    return _clean(parts[-2])


# A date right after a rescheduling verb is when something now happens ("周会改到周三", "发布推迟到下周").
_ZH_RESCHEDULED_RE = re.compile(r"(?:改到|改成|改在|推迟到|延期到|延到|挪到|提前到|调到|移到|换到)\s*$")
# Who does what from a date on (a role), not a piece of work: "下周开始带数据平台组", "下个月入职".
_ZH_ROLE_RE = re.compile(r"(?:开始)?(?:带|负责|管|接手|接管|加入|离开|入职|离职|转岗|调去)")
# "他说月底前能上线": the report and the modal are not the work.
_ZH_REPORTED_RE = re.compile(r"^(?:说|表示|承诺|答应|保证)\s*")
_ZH_MODAL_LEAD_RE = re.compile(r"^(?:能|会|可以|要|将|就|得|应该)\s*(?=\S)")
_ZH_PREPS = ("给", "为", "帮", "替", "对", "跟", "和", "在", "用", "拿", "把", "从", "往", "向")
_LATIN_NAME_RE = re.compile(r"[A-Za-z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*)*")


def _zh_prep_then_verb(phrase: str) -> bool:
    """ "给 topic_slug 加单元测试", "在 README.md 里加一节", "把文档写完": a prepositional phrase, then the verb."""
    return phrase.startswith(_ZH_PREPS) and _zh_has_verb(phrase[1:])


def _resolve_it(title: str, before: str) -> str:
    """ "我在学 Rust，打算用它重写日志采集器": 它 is the name said just before (Latin-script names only)."""
    if "它" not in title:
        return title
    names = _LATIN_NAME_RE.findall(before)
    return title.replace("它", f" {names[-1]} ", 1).strip() if names else title


_ZH_SUBJECT_RE = re.compile(r"^(?:我们|咱们|我|你们|你|他们|他|她)\s*")


def _build_task(rule: Rule, m: re.Match[str], clause: str, offset: int, st: _State) -> Candidate | None:
    raw = _clean(_group(m, "x"))
    check = rule.params.get("check")
    if check == "zh_dated":
        found = dates.find_date(raw, st.ctx.now, "future") if st.ctx.now else None
        if found is None or (st.ctx.now and found[0] < st.ctx.now.date()) or not _zh_has_verb(raw):
            return None
        if _ZH_RESCHEDULED_RE.search(raw[: found[1]]):
            return None  # "周会改到周三": the new time of something, not a piece of work
        if _ZH_ROLE_RE.search(raw):
            return None  # "赵磊下周开始带数据平台组": who does what from then on, not a piece of work
    zh_rule = rule.name.startswith("zh.")
    later = ""
    if zh_rule and _ZH_CLAUSE_SEP_RE.search(raw):
        # "需要重写，三月底前完成": the work is the first clause, a later one may only set its deadline.
        raw, later = (p.strip() for p in _ZH_CLAUSE_SEP_RE.split(raw, maxsplit=1))
    title, due = _split_due(raw, st.ctx.now)
    if later and not due:
        due = _split_due(later, st.ctx.now)[1]
    if zh_rule:
        title = _ZH_REPORTED_RE.sub("", _ZH_SUBJECT_RE.sub("", title)).strip() or title
        title = _ZH_MODAL_LEAD_RE.sub("", title).strip() or title
        title = _resolve_it(title, clause[: m.start("x")] if m.groupdict().get("x") is not None else "")
    if check == "zh_verb" and not (_zh_starts_with_verb(title) or _zh_prep_then_verb(title)):
        return None
    pre = _clean(_group(m, "pre")) if rule.params.get("keep_pre") else ""
    if pre:
        pre, pre_due = _split_due(pre, st.ctx.now)
        due = due or pre_due
        pre = _ZH_SUBJECT_RE.sub("", pre).strip()
        title = f"{pre}{title}" if pre else title
    title = re.sub(r"^(?:to|please|also|then|just)\s+", "", title, flags=re.I).strip()
    title = _TRAILING_NOW_RE.sub("", _LEADING_DETERMINER_RE.sub("", title))
    title = _ZH_SUBJECT_RE.sub("", title).strip() or title
    if due and _HAVE_DELIVERABLE_RE.match(title):
        title = _HAVE_DELIVERABLE_RE.sub("", title)  # "she'll have a first draft by Friday": the draft is due
    if not _meaningful(title) or _NOT_A_TASK_LEAD.match(title):
        return None
    span = (offset + m.start(), offset + m.end())
    # The same task said again ("TODO: write the tests" twice) keeps its key and its status.
    existing = _best_match(title, st.ctx.of_type(MemoryType.tasks), min_overlap=0.8, min_jaccard=0.6)
    if existing is not None:
        value = dict(existing.value)
        if due:
            value["due"] = due
        return _make(st, rule, MemoryType.tasks, existing.key, value, span, f"{rule.name}: same as {existing.key}")
    project = st.project_for(clause)
    title = _drop_project_tail(title, project)
    value = _task_value(title, "todo", project, due)
    return _make(st, rule, MemoryType.tasks, keys.task_key(project, title), value, span)


def _drop_project_tail(title: str, project: str) -> str:
    """ "write docs for graphbrain" in project graphbrain → "write docs": the key already says it."""
    if project == keys.GENERAL_PROJECT:
        return title
    name = re.escape(project).replace("\\-", "[-_ ]?")
    out = re.sub(rf"\s+(?:for|in|on|of)\s+(?:the\s+)?{name}(?:\s+(?:project|repo))?$", "", title, flags=re.I)
    out = re.sub(rf"^(?:在|给|为)\s*{name}\s*(?:项目|仓库)?(?:里|中|上)?\s*", "", out, flags=re.I)
    return out.strip() or title


_RATIONALE_RES: tuple[re.Pattern[str], ...] = (
    _en(r"\s*[,;—-]?\s*\b(?:because|since|as it|as they|so that|due to|given that)\b\s*(?P<r>.+)$"),
    _zh(r"\s*[，,；;]?\s*(?:因为|由于|原因是|理由是)\s*(?P<r>.+)$"),
)
_TOPIC_SPLIT_RES: tuple[re.Pattern[str], ...] = (
    _en(r"^(?P<c>.+?)\s+(?:for|as)\s+(?:the\s+|our\s+|a\s+|an\s+|my\s+)?(?P<t>.+)$"),
    _zh(r"^(?P<c>.+?)\s*(?:来做|来当|作为|当作|当|用于|用作|做)\s*(?P<t>.+)$"),
)
_VERSION_RE = re.compile(r"\bv?\d+(?:\.\d+)+\b|\bv\d+\b", re.I)
_DECISION_VERBS_EN = word_set(
    "drop remove add keep move migrate switch rename split merge support deprecate build write ship",
    "release delay postpone skip implement make run host deploy store cache limit rewrite replace",
    "introduce enable disable ban require go stop start not",
)
_ZH_FILLER_TOPIC = frozenset({"那", "那么", "那就", "我们", "咱们", "我", "就", "还是", "这个", "这里"})


def _split_rationale(text: str) -> tuple[str, str | None]:
    for rx in _RATIONALE_RES:
        m = rx.search(text)
        if m and m.start() > 0:
            return _clean(text[: m.start()]), _clean(m.group("r"))
    return text, None


_CLAUSE_SEP_RE = re.compile(r"\s*[，,；;]\s*|\s+and\s+")
# What a Chinese decision leaves behind, said after it: "不再用 Jenkins 了", "替代 Jenkins".
_ZH_INSTEAD_RE = re.compile(r"^\s*[，,]?\s*(?:不再用|不用|不再使用|替代|取代|代替|而不是)\s*(?P<y>[^，,。；;]+)")
_ALTERNATIVE_RE = re.compile(r"\s+(?:instead of|rather than|in place of)\s+.*$|\s*[，,]?\s*(?:而不是|而非).*$", re.I)
_ZH_TOPIC_USE_RE = re.compile(r"^(?P<t>[^，,。；;]{1,20}?)\s*(?:就)?(?:用|使用|采用|改用|换成)\s*(?P<c>.+)$")
_LEADING_PREP_RE = re.compile(r"^(?:on|to|in|into|onto|at|from|with|for)\b", re.I)


def _deadline_clause(x: str, now: datetime | None) -> tuple[str, str | None]:
    """(the decision, the clause that sets its deadline) — "用 Neo4j 做记忆存储，下周五前完成 schema",
    "move the PDFs to S3 by next Friday": one sentence, a decision and a task with a due date."""
    # Only a date said as a deadline: "let's switch the runners to ARM next month" sets no due date.
    for sep in _CLAUSE_SEP_RE.finditer(x):
        tail = x[sep.end() :]
        if dates.due_phrase(tail, cued=True) and dates.find_date(tail, now, "future"):
            return x[: sep.start()].strip(), tail.strip()
    m = dates.due_phrase(x, cued=True)
    if m and m.start() > 0 and dates.find_date(m.group("due"), now, "future") and not has_cjk(x[: m.start()][-1:]):
        return (x[: m.start()] + x[m.end() :]).strip(), x.strip()
    return x, None


# Whom a choice is for ("… for you", "给你们"), never what it is about.
_PRONOUN_TOPICS = _PRONOUN_ONLY | word_set(
    "you me us him her everyone everybody yourself myself ourselves", "你 你们 他 她 他们 她们 大家 自己"
)


def _build_decision(
    rule: Rule, m: re.Match[str], clause: str, offset: int, st: _State
) -> Candidate | list[Candidate] | None:
    x, deadline = _deadline_clause(_clean(_group(m, "x")), st.ctx.now)
    x, rationale = _split_rationale(x)
    zh = has_cjk(clause)
    use = rule.params.get("use") == "1"
    lead = _USE_LEAD_RE.match(x)
    if lead:
        x, use = x[lead.end() :].strip(), True
    if not _meaningful(x):
        return None
    project = st.project_for(clause)
    topic = _group(m, "t")
    if topic in _ZH_FILLER_TOPIC:
        topic = ""
    if zh and not use and not topic:
        tm = _ZH_TOPIC_USE_RE.match(x)  # "memory store 用 Neo4j 5.26": the topic comes first
        if (
            tm
            and not _zh_starts_with_verb(tm.group("t"), english=False)
            and tm.group("t").strip() not in _ZH_FILLER_TOPIC
        ):
            topic, x, use = tm.group("t").strip(), tm.group("c").strip(), True
    choice: str | None = None
    if use:
        choice = x
        for rx in _TOPIC_SPLIT_RES:
            sm = rx.match(x)
            if sm:
                # "use tabs … for you": whom it is for is not what it is about (a key never names a pronoun)
                said = _clean(sm.group("t"))
                choice = _clean(sm.group("c"))
                topic = topic or ("" if said.casefold() in _PRONOUN_TOPICS else said)
                break
        if not topic or keys.project_slug(topic) == project:
            topic = _VERSION_RE.sub("", choice).strip() or choice  # "Neo4j 5.26" and "Neo4j 5.25": one topic
        decision = f"用 {choice}" if zh else f"use {choice}"
    else:
        decision = x
        x = _ALTERNATIVE_RE.sub("", x).strip() or x
        words = x.split()
        if not topic:
            topic = " ".join(words[1:]) if len(words) > 1 and words[0].lower() in _DECISION_VERBS_EN else x
            # "deploy Orion on Kubernetes" in project orion: the key names what was decided about it.
            if project != keys.GENERAL_PROJECT and not zh:
                rest = re.sub(rf"^(?:the\s+)?{re.escape(project)}\b\s*", "", topic, flags=re.I)
                if rest != topic and _LEADING_PREP_RE.match(rest):
                    topic = f"{words[0]} {rest}"
            topic = " ".join(topic.split()[:6])
            if zh and _zh_starts_with_verb(x, english=False):
                first = pipelines.posseg(x)[0][0]
                topic = x[len(first) :].strip() or x
    value: dict[str, Any] = {"topic": _clean(topic), "decision": decision, "project": project}
    if choice:
        value["choice"] = choice
    dropped = _ZH_INSTEAD_RE.search(clause[m.end() :]) if zh else None
    if dropped:
        value["instead_of"] = _clean(dropped.group("y"))  # "改用 GitHub Actions，不再用 Jenkins 了"
    if rationale:
        value["rationale"] = rationale
    span = (offset + m.start(), offset + m.end())
    decided = _make(st, rule, MemoryType.decisions, keys.decision_key(project, value["topic"]), value, span)
    if deadline is None:
        return decided
    title, due = _split_due(deadline, st.ctx.now)
    title = re.sub(r"^(?:要|需要|得|要把|把)\s*|^(?:to|we|and)\s+", "", title).strip()
    if not _meaningful(title) or re.fullmatch(r"(?:deadline|ddl|截止|due)\W*", title, re.I):
        title = value["topic"]
    task_value = _task_value(title, "todo", project, due)
    task = _make(st, rule, MemoryType.tasks, keys.task_key(project, title), task_value, span, f"{rule.name}: deadline")
    return [decided, task]


def _build_goal(rule: Rule, m: re.Match[str], clause: str, offset: int, st: _State) -> Candidate | None:
    goal = _clean(_group(m, "x"))
    by = _clean(_group(m, "by"))
    if not by:
        goal, by_due = _split_due(goal, st.ctx.now)
        by = by_due or ""
    if not _meaningful(goal):
        return None
    project = st.project_for(clause)
    value: dict[str, Any] = {"project": project, "goal": goal}
    if by:
        resolved = _resolve_date(by, st.ctx.now, "future")
        value["by"] = resolved.isoformat() if resolved else by
    span = (offset + m.start(), offset + m.end())
    return _make(st, rule, MemoryType.goals, keys.goal_key(project, goal), value, span)


def _build_event(rule: Rule, m: re.Match[str], clause: str, offset: int, st: _State) -> Candidate | None:
    kind: EventKind = rule.params["kind"]  # type: ignore[assignment]
    x = _clean(_group(m, "x"))
    zh = _lang_of(clause) == "zh"
    if kind == "release":
        ver = _VERSION_RE.search(x) or _VERSION_RE.search(clause)
        if not x and not ver:
            return None
        # The key names the version only, so "released v1.2" and "v1.2 发布了" are one event.
        x = _strip_when(x) if x else x
        slug = f"release {ver.group().lower()}" if ver else f"release {x}"
        title = (f"发布 {x}" if zh else f"release {x}") if x else slug
    elif kind == "meeting":
        x = _strip_when(x)
        if not _meaningful(x):
            return None
        slug = f"meeting {x}"
        title = f"和{x}开会" if zh else f"meeting with {x}"
    else:
        title = x or clause
        slug = f"{kind} {' '.join(title.split()[:6])}"
    explicit = (
        _resolve_date(clause, st.ctx.now, "past")
        if kind != "release" or not ver
        else _resolve_date(clause.replace(ver.group(), " "), st.ctx.now, "past")
    )
    when = explicit or (st.ctx.now.date() if st.ctx.now else None)
    project = st.project_for(clause)
    value: dict[str, Any] = {"kind": kind, "title": title, "project": project}
    if when:
        value["date"] = when.isoformat()
        value["date_source"] = "text" if explicit else "turn"
    span = (offset + m.start(), offset + m.end())
    return _make(st, rule, MemoryType.events, keys.event_key(project, when, keys.topic_slug(slug)), value, span)


_OVER_RES: tuple[re.Pattern[str], ...] = (
    _en(r"^(?P<x>.+?)\s+(?:over|rather than|instead of|to)\s+(?P<y>.+)$"),
    _zh(r"^(?P<x>.+?)\s*[，,]?\s*(?:而不是|不要|而非|胜过|比)\s*(?P<y>.+)$"),
)
# A request for this once is not a lasting preference.
_ONE_OFF_RE = _en(
    r"\b(?:this time|for now|just this once|for this (?:one|answer|reply|task)|today|right now)\b"
    r"|这次|这一次|这回|暂时|今天|先这样"
)


# Where a preference statement goes on to the next one: "tabs over spaces, and please use type hints",
# "中文，简洁一点" (each clause naming another known dimension is a preference of its own).
_PREF_CLAUSE_RE = re.compile(r"\s*[，,；;]\s*(?:and\s+|but\s+|also\s+|并且|而且|还有)?|\s+and\s+(?=please\b)", re.I)
_NEGATED_RE = _en(r"^(?:please\s+)?(?:don't|do not|never|no\b|不要|别|不用|不许|不能)")


def _build_preference(
    rule: Rule, m: re.Match[str], clause: str, offset: int, st: _State
) -> Candidate | list[Candidate] | None:
    x = _clean(_group(m, "x"))
    polarity = "negative" if rule.params.get("polarity") == "negative" or _group(m, "neg") else "positive"
    about = _clean(_group(m, "about"))  # "以后 commit message 都用英文写": the rule is about commit messages
    parts = [p for p in _PREF_CLAUSE_RE.split(x) if p.strip()]
    x, rest = (_clean(parts[0]), parts[1:]) if parts else (x, [])
    over: str | None = None
    for rx in _OVER_RES:
        om = rx.match(x)
        if om and not (rx is _OVER_RES[0] and rule.name == "en.pref.like"):
            x, over = _clean(om.group("x")), _clean(om.group("y"))
            break
    if not _meaningful(x):
        return None
    activity = _clean(_group(m, "act"))  # "以后都按 PEP 8 来写代码": the rule is about 写代码
    facet = keys.pref_facet(f"{about} {x} {over or ''} {activity}")
    if facet is None and rule.params.get("check") == "facet":
        return None  # "I use this function": only a known dimension (an editor, a format) is a preference
    if facet:
        scope, name = facet
    else:
        topic = activity or x
        scope = keys.infer_pref_scope(f"{about} {x} {activity}")
        name = " ".join(topic.split()[:4]) if not has_cjk(topic) else topic[:12]
    value: dict[str, Any] = {
        "scope": scope,
        "name": keys.topic_slug(name, 40),
        "value": x,
        "polarity": polarity,
    }
    if over:
        value["over"] = over
    if activity:
        value["activity"] = activity
    span = (offset + m.start(), offset + m.end())
    stable = _ONE_OFF_RE.search(clause) is None
    cand = _make(st, rule, MemoryType.preferences, keys.pref_key(scope, name), value, span)
    cand.stable = stable
    out = [cand]
    for part in rest:  # a later clause that names another known dimension
        part = _clean(part)
        more = keys.pref_facet(part)
        if not part or more is None or more == (scope, name) or any(c.key == keys.pref_key(*more) for c in out):
            continue
        negated = _NEGATED_RE.match(part) is not None
        extra = {
            "scope": more[0],
            "name": keys.topic_slug(more[1], 40),
            "value": _NEGATED_RE.sub("", part).strip() or part,
            "polarity": ("positive" if polarity == "negative" else "negative") if negated else polarity,
        }
        c = _make(st, rule, MemoryType.preferences, keys.pref_key(*more), extra, span, f"{rule.name}: next clause")
        c.stable = stable
        out.append(c)
    return out if len(out) > 1 else cand


_ZH_OTHER_SUBJECT_RE = re.compile(r"^\s*(?:你|您|他|她|它|我们|咱们|你们|他们|她们)")
_EN_SUBJECT_I_RE = _en(r"\bi(?:'m|'ve| am| have|\b)")
_TRAILING_TIME_RE = _en(
    r"\s+(?:(?:last|this|next)\s+(?:year|month|week|summer|winter|spring|fall)|in\s+\d{4}|recently|a while ago"
    r"|\w+\s+(?:years?|months?)\s+ago)\s*$"
)


def _zh_carried_me(before: str) -> bool:
    """The nearest earlier clause that names a subject names 我 (a subject carried into this clause)."""
    for part in reversed(_ZH_CLAUSE_SEP_RE.split(before)[:-1]):
        if part.strip().startswith("我") and not part.strip().startswith(("我们", "我的")):
            return True
        if _ZH_OTHER_SUBJECT_RE.match(part):
            return False
    return False


def _build_profile(
    rule: Rule, m: re.Match[str], clause: str, offset: int, st: _State
) -> Candidate | list[Candidate] | None:
    carried = not m.group().startswith("我")
    if rule.name.startswith("zh.") and carried and not _zh_carried_me(clause[: m.start()] + "，"):
        return None
    if rule.params.get("check") == "en_me" and not _EN_SUBJECT_I_RE.search(clause[: m.end()]):
        return None
    x = _TRAILING_TIME_RE.sub("", _clean(_group(m, "x")))
    x = " ".join(x.split()[:6])
    if not x or x.lower() in STOP_WORDS:
        return None
    if rule.params.get("check") == "zh_person":
        flags = [f for w, f in pipelines.posseg(x) if w.strip()]
        if flags != ["nr"]:
            return None
    subject = rule.params.get("subject", "user")
    attribute = rule.params["attribute"]
    value = {"subject": subject, "attribute": attribute, "value": x}
    span = (offset + m.start(), offset + m.end())
    cand = _make(st, rule, MemoryType.profile, keys.profile_key(subject, attribute), value, span)
    also, y = rule.params.get("also"), _clean(_group(m, "y"))
    if not also or not y:
        return cand
    second = {"subject": subject, "attribute": also, "value": y}
    return [cand, _make(st, rule, MemoryType.profile, keys.profile_key(subject, also), second, span)]


BUILDERS: dict[str, Builder] = {
    "status": _build_status,
    "task": _build_task,
    "decision": _build_decision,
    "goal": _build_goal,
    "event": _build_event,
    "preference": _build_preference,
    "profile": _build_profile,
}


# ====================================================================================== the passes
def _apply_rules(clause: str, offset: int, st: _State, rules: Sequence[Rule] = RULES) -> list[Candidate]:
    """Run ``rules`` over one clause (``offset`` = its position in the message)."""
    cls = _classify_sentence(clause)
    if cls in ("chit_chat", "emotion", "question"):  # a question asserts nothing
        return []
    claimed: list[tuple[int, int]] = []
    out: list[Candidate] = []
    for rule in rules:
        if st.role not in rule.roles:
            continue
        for m in rule.pattern.finditer(clause):
            if any(m.start() < e and s < m.end() for s, e in claimed):
                continue
            built = BUILDERS[rule.family](rule, m, clause, offset, st)
            if built is None:
                continue
            for cand in built if isinstance(built, list) else [built]:
                cand.hedged = cls == "speculation"
                out.append(cand)
            claimed.append((m.start(), m.end()))
    return out


def _remember(sent: _Sentence, st: _State) -> list[Candidate] | None:
    """ "remember X" / "记住 X": X as its own clause; a fact no rule knows becomes a profile note."""
    for rx in REMEMBER_RES:
        m = rx.search(sent.text)
        if not m or re.match(r"\s*to\b", m.group("x"), re.I):
            continue
        inner = _clean(m.group("x"))
        if not inner:
            return None
        offset = sent.start + m.start("x")
        found = _apply_rules(inner, offset, st)
        for c in found:
            c.reason = f"remember > {c.reason}"
            c.stable = True  # asking to remember it is the explicit, lasting wording
            c.hedged = False
        if found:
            return found
        value = {"subject": "user", "attribute": "note", "value": inner, "remembered": True}
        cand = Candidate(
            type=MemoryType.profile,
            key=keys.profile_key("user", f"note {' '.join(inner.split()[:6])}"),  # the slug cuts at a word
            value=value,
            text=render(MemoryType.profile, value),
            confidence_class=st.confidence_class,
            role=st.role,
            span=(offset, offset + len(inner)),
            reason="remember: fact",
        )
        return [cand]
    return None


def _corrected_value(item: ActiveItem, wrong: str | None, right: str) -> dict[str, Any]:
    """The item's value with the denied part replaced by the correction."""
    value = dict(item.value)
    replaced = False
    if wrong:
        rx = re.compile(re.escape(wrong), re.I)
        for f, v in list(value.items()):
            if isinstance(v, str) and f not in _FIXED_FIELDS and rx.search(v):
                value[f] = rx.sub(right, v)
                replaced = True
    if not replaced:
        old_choice = value.get("choice")
        if isinstance(old_choice, str) and old_choice:
            value["choice"] = right
            dec = str(value.get("decision", ""))
            value["decision"] = dec.replace(old_choice, right) if old_choice in dec else right
        else:
            value[_MAIN_FIELD.get(item.type, "value")] = right
    return value


def _retraction(sent: _Sentence, nxt: _Sentence | None, st: _State) -> tuple[list[Candidate], bool] | None:
    """A correction in ``sent`` (or ``sent`` + the next sentence): (candidates, consumed next?) or None."""
    for rule in RETRACTION_MARKERS:
        m = rule.pattern.match(sent.text)
        if not m:
            continue
        x = _clean(_group(m, "x"))
        x_start = sent.start + (m.start("x") if x else 0)
        wrong = _clean(_group(m, "wrong")) or None
        pre = _group(m, "pre")
        consumed = False
        if not x and nxt is not None:  # "No, that's wrong. It's Berlin."
            x, x_start, consumed = _clean(nxt.text), nxt.start, True
        for rx in _NOT_TAIL_RES:
            tm = rx.match(x)
            if tm and wrong is None:
                x, wrong = _clean(tm.group("x")), _clean(tm.group("wrong"))
                break
        strong = rule.params.get("strength") == "strong" or wrong is not None
        clause = f"{pre}{x}" if pre else x
        inner = _apply_rules(clause, x_start, st) if clause else []
        if clause and not inner:
            inner = _apply_rules(_COPULA_LEAD_RE.sub("", clause), x_start, st, CORRECTION_RULES)
        items = st.ctx.items()
        active_keys = {i.key: i for i in items}

        target: ActiveItem | None = None
        chosen: Candidate | None = None
        how = ""
        for c in inner:  # 1. the corrected fact has the key of a known item
            if c.key in active_keys:
                target, chosen, how = active_keys[c.key], c, "same key"
                break
        if target is None and wrong:  # 2. the denied value appears in a known item
            target = _best_match(wrong, items, min_overlap=0.5)
            how = "denied value matched"
        if target is None:  # 3. the corrected fact is about the same thing as a known item
            for c in inner:
                tail = c.key.rsplit(":", 1)[-1]
                same = [i for i in items if i.type == c.type and i.key.rsplit(":", 1)[-1] == tail]
                target = (
                    same[-1] if same else _best_match(c.text, [i for i in items if i.type == c.type], min_overlap=0.6)
                )
                if target is not None:
                    chosen, how = c, "same topic"
                    break
        if target is None and strong and not inner and items:  # 4. "no, that's wrong" about what was just said
            target, how = items[-1], "most recent item"
        if target is None and not strong:
            return None  # a weak marker that corrects nothing: an ordinary sentence
        if target is not None and chosen is None and inner:
            chosen = next((c for c in inner if c.type == target.type), None)

        if chosen is not None:
            cand = chosen
            if target is not None and target.type == cand.type:
                cand.key = target.key  # the corrected fact replaces the denied one under its key
                if "project" in target.value:
                    cand.value["project"] = target.value["project"]
                    cand.text = render(cand.type, cand.value)
        elif target is not None:
            right = _COPULA_LEAD_RE.sub("", x).strip() or x
            if not right:
                return [], consumed
            value = _corrected_value(target, wrong, right)
            cand = Candidate(
                type=target.type,
                key=target.key,
                value=value,
                text=render(target.type, value),
                confidence_class=st.confidence_class,
                role=st.role,
                span=(x_start, x_start + len(x)),
                reason=rule.name,
            )
        elif inner:
            cand = inner[0]
        else:
            return [], consumed  # a correction of nothing we know, with no new fact in it
        cand.retracts = True
        cand.corrects = (target.type, target.key) if target is not None else None
        cand.wrong = wrong
        cand.hedged = False
        cand.reason = (
            f"{rule.name} ({how or 'no known item'}) > {cand.reason}"
            if cand.reason != rule.name
            else f"{rule.name} ({how})"
        )
        extra = [c for c in inner if c is not cand]
        return [cand, *extra], consumed
    return None


def extract(
    message_text: str,
    role: Role,
    *,
    lang: str | None = None,
    context: ExtractionContext | None = None,
) -> list[Candidate]:
    """Memory candidates in one message, in text order. See the module docstring for the passes.

    ``role`` sets the confidence class (user → user_asserted, tool → tool_derived, else inferred)
    and enables the assistant-only rules that catch its guesses about the user ("you prefer …").
    ``lang`` is informational: English and Chinese rules both run on every message, so mixed text
    works; each rule only matches its own language.
    """
    ctx = context or ExtractionContext()
    projects = ctx.projects()
    st = _State(
        text=message_text,
        role=role,
        lang=lang or detect_language(message_text),
        ctx=ctx,
        message_project=keys.infer_project(message_text, known=projects, default=ctx.default_project),
        projects=projects,
    )
    sentences = _split_sentences(message_text)
    out: list[Candidate] = []
    skip_next = False
    for i, sent in enumerate(sentences):
        if skip_next:
            skip_next = False
            continue
        nxt = sentences[i + 1] if i + 1 < len(sentences) else None
        retraction = _retraction(sent, nxt, st)
        if retraction is not None:
            found, skip_next = retraction
            out.extend(found)
            continue
        remembered = _remember(sent, st)
        if remembered is not None:
            out.extend(remembered)
            continue
        out.extend(_apply_rules(sent.text, sent.start, st))
    return sorted(out, key=lambda c: c.span)


# ====================================================================================== other sources
_SOURCE_CLASS: dict[str, ConfidenceClass] = {"tool": "tool_derived", "user": "user_asserted"}
_SOURCE_ROLE: dict[str, Role] = {
    "tool": "tool",
    "user": "user",
    "assistant": "assistant",
    "inferred": "assistant",
}


def explicit_to_candidate(item: ExplicitItem) -> Candidate:
    """A structured item reported by a tool or the caller, as a Candidate (it still goes through the gate)."""
    value = dict(item.value)
    return Candidate(
        type=item.type,
        key=item.key,
        value=value,
        text=render(item.type, value),
        confidence_class=_SOURCE_CLASS.get(item.source, "inferred"),
        role=_SOURCE_ROLE[item.source],
        span=(0, 0),
        reason=f"explicit item from {item.source}",
        explicit=True,
        retracts=item.status == "retracted",
        corrects=(item.type, item.key) if item.status == "retracted" else None,
        confidence=item.confidence,
        source=item.source,
        status=item.status,
        evidence_refs=list(item.evidence_refs),
    )


def entity_to_candidate(ec: EntityCandidate, role: Role) -> Candidate:
    """An entity that passed the entity gate, as a memory candidate ``entity:<kind>:<canonical>``."""
    value = {
        "name": ec.name,
        "canonical": ec.canonical,
        "kind": ec.kind,
        "aliases": [ec.name],
        "signal": ec.signal,
    }
    return Candidate(
        type=MemoryType.entities,
        key=keys.entity_key(ec.kind, ec.canonical),
        value=value,
        text=render(MemoryType.entities, value),
        confidence_class={"user": "user_asserted", "tool": "tool_derived"}.get(role, "inferred"),  # type: ignore[arg-type]
        role=role,
        span=(ec.start, ec.end),
        reason=f"entity ({ec.signal})",
    )
