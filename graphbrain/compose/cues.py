"""The planner's word tables (intent, chit-chat and resource cues) and the text window its rules read.

The rules of ``intent``, ``scope`` and ``expand`` only apply these tables: a cue added here changes what
the planner decides, nothing else has to change.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import get_args

from graphbrain.contracts import Purpose

Intent = Purpose  # qa | continue_task | debug | summarize | research | other
INTENTS: tuple[str, ...] = get_args(Purpose)

# NLP work (keywords, entities, jieba) on a 200k-character paste would be slow and say nothing more
# than its beginning does: the rules look at this many characters of the message and of each turn.
NLP_MAX_CHARS = 2000
# The last this-many recent turns feed keywords and the "already answered" check.
RECENT_TURNS_CONSIDERED = 4


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


def cue_words(words: str) -> tuple[str, ...]:
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
            en=cue_words(
                "error|errors|exception|exceptions|traceback|stack trace|stacktrace|failing|fails|failed|"
                "failure|bug|bugs|crash|crashes|crashed|broken|debug|debugging|doesn't work|does not work|"
                "not working|segfault|panic|timeout|timed out"
            ),
            zh=cue_words("报错|异常|失败|出错|错误|崩溃|挂了|不工作|调试|排查|跑不通|不生效"),
        ),
    ),
    (
        "summarize",
        CueTable(
            en=cue_words("summarize|summarise|summary|recap|tl;dr|tldr|sum up|sum it up"),
            zh=cue_words("总结|概括|摘要|归纳|回顾一下|小结"),
        ),
    ),
    (
        "continue_task",
        CueTable(
            en=cue_words(
                "continue|carry on|go on|next step|next steps|where were we|where was i|resume|"
                "pick up where|keep going|what's next|what is next|proceed"
            ),
            zh=cue_words("继续|下一步|接着|接下来|做到哪|进行到哪|上次做到"),
        ),
    ),
    (
        "research",
        CueTable(
            en=cue_words(
                "find|search|look up|look for|compare|comparison|versus|vs|sources|cite|citation|"
                "citations|references|docs|documentation|papers|research|read up|learn about|alternatives"
            ),
            zh=cue_words(
                "查资料|查一下|查查|帮我查|搜一下|搜索|找一下|找找|对比|比较|引用|出处|来源|了解一下|调研|资料|文献"
            ),
        ),
    ),
    (
        "qa",
        CueTable(
            en=cue_words(
                "why|how|what|what's|which|when|where|who|explain|does|is it|can you tell|meaning of|difference between"
            ),
            zh=cue_words("为什么|为何|怎么|怎样|如何|是什么|什么|哪个|哪些|哪里|解释|区别|多少|是否|吗"),
        ),
    ),
)
INTENT_PATTERNS: tuple[tuple[Intent, re.Pattern[str]], ...] = tuple(
    (intent, table.pattern()) for intent, table in INTENT_CUES
)

# Pure chit-chat: a message made only of these (and punctuation / emoji / digits) is "other" and never
# triggers retrieval of resources (seed §3.1 off condition).
CHIT_CHAT = CueTable(
    en=cue_words(
        "hi|hello|hey|yo|thanks|thank you|thank u|thx|ty|ok|okay|k|cool|nice|great|awesome|good|lol|haha|"
        "hah|bye|goodbye|see you|good morning|good night|morning|got it|sure|yes|yeah|yep|no|nope|fine|"
        "alright|np|perfect|sounds good|cheers|wow|oh|ah|hmm|great job|well done|you too|much|very|so"
    ),
    zh=cue_words(
        "你好|您好|哈喽|嗨|谢谢|多谢|感谢|好的|好滴|好|行|嗯|哦|噢|哈|嘿|呵|收到|明白|了解了|知道了|"
        "没问题|再见|拜拜|晚安|早上好|早安|早|辛苦了|辛苦|不客气|可以|对|是的|棒|厉害|啊|呀|吧|啦|了|呢|啊哈"
    ),
)
CHIT_CHAT_RE = CHIT_CHAT.pattern()

# agent_state keys the planner reads, and what they mean.
AGENT_STATE_INTENT_KEYS = ("intent", "purpose")  # an explicit intent: overrides the message
AGENT_STATE_TASK_KEYS = ("active_task", "current_task", "task")  # work in progress → continue_task
AGENT_STATE_ERROR_KEYS = ("last_error", "error")  # a failure in progress → debug

# Seed §3.1 trigger 1: the user asks for material, sources or a comparison.
RESOURCE_REQUEST_CUES = CueTable(
    en=cue_words(
        "find|search|look up|look for|sources|source|cite|citation|citations|reference|references|"
        "compare|comparison|versus|vs|alternatives|learn about|read up|according to|what do the docs"
    ),
    zh=cue_words("查资料|查一下|查查|帮我查|搜一下|搜索|找一下|找找|资料|来源|出处|引用|对比|比较|了解一下|调研|参考"),
)
# Seed §3.1 trigger 2: the question concerns external facts or long documents.
EXTERNAL_CUES = CueTable(
    en=cue_words(
        "doc|docs|documentation|design doc|spec|specs|specification|standard|standards|rfc|paper|papers|"
        "article|articles|manual|readme|guide|tutorial|api reference|changelog|release notes|wiki|"
        "whitepaper|pdf|book|blog post"
    ),
    zh=cue_words("文档|论文|标准|规范|手册|说明书|白皮书|教程|官网|指南|协议|设计文档|文章|博客|书"),
    extra=(r"\brfc\s*\d+\b", r"\biso\s*\d+\b"),
)
RESOURCE_REQUEST_RE = RESOURCE_REQUEST_CUES.pattern()
EXTERNAL_RE = EXTERNAL_CUES.pattern()
# Seed §3.1 trigger 4: intents that need evidence to be answered.
EVIDENCE_INTENTS: frozenset[str] = frozenset({"research", "qa", "debug"})

# Words that ask for something rather than name it: ignored when checking whether the recent window
# already covers the message ("explain that again" asks about the window, it names nothing new).
REQUEST_WORDS: frozenset[str] = frozenset(
    cue_words(
        "explain|tell|show|again|more|detail|details|elaborate|mean|meant|say|said|think|know|please|help|"
        "give|example|examples|clarify|repeat|帮|帮我|解释|一下|说说|再说|详细|展开|意思|举例|例子|讲讲"
    )
)
# Pieces of URIs and file names that say nothing about what a ref is about.
GENERIC_REF_WORDS: frozenset[str] = frozenset(
    cue_words(
        "http|https|www|com|org|net|io|dev|cn|file|files|html|htm|md|txt|pdf|rst|json|yaml|yml|index|"
        "main|master|blob|tree|src|doc|docs|readme|page|home|en|zh|latest|current|v1|v2"
    )
)


def first_match(pattern: re.Pattern[str], text: str) -> str | None:
    m = pattern.search(text)
    return m.group(0) if m else None


def nlp_text(text: str) -> str:
    return unicodedata.normalize("NFKC", text[:NLP_MAX_CHARS])
