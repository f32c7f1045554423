"""Trimming and testing the phrases a rule captured: punctuation, time words, due dates, pronouns, verbs."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from graphbrain.nlp import dates, pipelines
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.language import detect_language
from graphbrain.nlp.stopwords import word_set
from graphbrain.nlp.tokens import content_tokens

TRAILING = " \t\r\n.,;:!?。，；：！？、…~～\"'”’」』)）]"
LEADING = " \t\r\n,;:，；：\"'“‘「『(（["
PRONOUN_ONLY = word_set(
    "it that this them those these everything all one thing stuff",
    "它 这 那 这个 那个 这些 那些 我 我们 咱们 都",
)


_ZH_PARTICLES_RE = re.compile(r"(?<=[^\s])\s*[了吧啊呀呢哦嘛啦]+$")


def clean(text: str | None) -> str:
    """Trim a captured phrase: surrounding punctuation and quotes, a trailing "— aside", and the
    Chinese sentence-final particles (别再用 emoji 了 → 用 emoji)."""
    if not text:
        return ""
    t = re.split(r"\s+(?:—|--)\s+|;|；", text, maxsplit=1)[0]
    t = t.strip(TRAILING).lstrip(LEADING).strip(TRAILING)
    return _ZH_PARTICLES_RE.sub("", t).strip(TRAILING)


# Time words said with an event or a task ("released v1.2 today", "meeting … on 2026-02-24").
_WHEN_RE = re.compile(
    r"\s*\b(?:on\s+|at\s+)?(?:today|yesterday|tonight|this (?:morning|afternoon|evening)"
    r"|\d{4}-\d{1,2}-\d{1,2})\b"
    r"|\s*(?:在)?(?:今天|昨天|今晚|刚刚|刚才|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}月\d{1,2}[日号])",
    re.I,
)


def strip_when(text: str) -> str:
    return clean(_WHEN_RE.sub("", text)) or text


def _anaphoric(phrase: str) -> bool:
    words = [w for w in re.split(r"\s+", phrase.lower().strip()) if w not in ("the", "one", "with")]
    return not words or all(w in PRONOUN_ONLY for w in words) or phrase.strip() in PRONOUN_ONLY


def meaningful(phrase: str) -> bool:
    return bool(phrase) and not _anaphoric(phrase) and bool(content_tokens(phrase))


def lang_of(text: str) -> Literal["zh", "en"]:
    return "zh" if has_cjk(text) and detect_language(text) in ("zh", "mixed") else "en"


def zh_has_verb(phrase: str) -> bool:
    return any(flag.startswith("v") for word, flag in pipelines.posseg(phrase) if word.strip())


def zh_starts_with_verb(phrase: str, *, english: bool = True) -> bool:
    """True when a Chinese phrase starts with a verb (jieba POS v*): "加测试" yes, "一杯咖啡" no. An English
    word counts as one when ``english`` ("需要 fix 一下"), not where it is more often a topic
    ("memory store 用 Neo4j", "retry 最多三次")."""
    for word, flag in pipelines.posseg(phrase):
        if word.strip():
            return flag.startswith("v") or (english and flag == "eng")
    return False


def split_due(text: str, now: datetime | None) -> tuple[str, str | None]:
    """(text without its due phrase, the due date as ISO when resolvable, else as said)."""
    m = dates.due_phrase(text)
    if m is None:
        return text, None
    raw = m.group("due").strip()
    rest = clean(text[: m.start()] + " " + text[m.end() :])
    rest = re.sub(r"\s*(?:之前|以前|为止)\s*", " ", rest) if not rest.strip() else rest
    resolved = dates.resolve_date(raw, now, "future")
    return re.sub(r"\s{2,}", " ", rest).strip(), (resolved.isoformat() if resolved else raw)


# Where a Chinese sentence goes on to its next clause.
ZH_CLAUSE_SEP_RE = re.compile(r"[，,；;]")
# A version as said: "v1.2", "5.26", "v3".
VERSION_RE = re.compile(r"\bv?\d+(?:\.\d+)+\b|\bv\d+\b", re.I)
