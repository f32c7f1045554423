"""The one question test, in Chinese and English: is a text a question, and by which cue."""

from __future__ import annotations

import re

from graphbrain.nlp.chars import HAN_CLASS

__all__ = ["is_question", "question_cue"]

# The one question test, for extraction (a question asserts nothing) and the planner (a question is qa).
_QUESTION_END_RE = re.compile(r"(?P<mark>[?？])\s*$|(?P<particle>[吗呢么])[。.!！~～]*\s*$")
# A Chinese question needs no mark: a question word ("我们用的是什么数据库"), an A-not-A choice
# ("够不够", "是不是"), "X 还是 Y 好", "来着".
_QUESTION_ZH_RE = re.compile(
    r"什么(?!都|也)|怎么(?!样都)|怎样|为什么|为何|如何|哪(?:个|些|里|儿|天|种|位)|谁|多少|几(?:个|天|点|号|时|次)"
    rf"|是否|(?P<a>[{HAN_CLASS}])不(?P=a)|有没有|来着\s*[。.]?$|\S\s*还是\s*\S.*(?:好|合适|对)\s*[。.]?$"
)
_QUESTION_START_RE = re.compile(
    r"^(?:what|why|how|when|where|who|whom|which|whose|can you|could you|would you|will you|do you|does|did|"
    r"is it|is there|are there|are you|should (?:we|i)|shall (?:we|i)|may i|have you|has)\b",
    re.I,
)


def question_cue(text: str) -> str | None:
    """What makes ``text`` a question, or None: "question mark" (? ？), "question particle" (吗 呢 么 at
    the end), "question opening" ("what …", "do you …", "is there …"), "question word" (Chinese asks
    without a mark: 什么, 怎么, 哪个, 谁, 多少, A-不-A "够不够", "X 还是 Y 好", 来着)."""
    t = text.strip()
    m = _QUESTION_END_RE.search(t)
    if m:
        return "question mark" if m.group("mark") else "question particle"
    if _QUESTION_START_RE.match(t):
        return "question opening"
    if _QUESTION_ZH_RE.search(t):
        return "question word"
    return None


def is_question(text: str) -> bool:
    """True when ``text`` asks something, in English or Chinese, with or without a question mark."""
    return question_cue(text) is not None
