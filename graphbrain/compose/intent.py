"""The planner's first two decisions: the message's intent and whether to search resources (seed §3.1).

Every decision comes with a short reason naming the rule (and the cue) that made it; the cue tables are
in ``graphbrain.compose.cues``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal, cast

from graphbrain.compose.cues import (
    AGENT_STATE_ERROR_KEYS,
    AGENT_STATE_INTENT_KEYS,
    AGENT_STATE_TASK_KEYS,
    CHIT_CHAT_RE,
    EVIDENCE_INTENTS,
    EXTERNAL_RE,
    GENERIC_REF_WORDS,
    INTENT_PATTERNS,
    INTENTS,
    RECENT_TURNS_CONSIDERED,
    REQUEST_WORDS,
    RESOURCE_REQUEST_RE,
    Intent,
    first_match,
    nlp_text,
)
from graphbrain.nlp import content_tokens, has_cjk, question_cue

ResourceSetting = Literal["auto", "always", "never"] | bool


def is_chit_chat(message: str) -> bool:
    """Only greetings, thanks and acknowledgements ("thanks!", "哈哈好的", "ok 👍"): nothing to look up.

    The chit-chat cues are removed; if no letter or CJK character is left, it was chit-chat. An empty
    message is not chit-chat (it is nothing at all).
    """
    text = nlp_text(message).strip()
    if not text:
        return False
    rest = CHIT_CHAT_RE.sub(" ", text)
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
    text = nlp_text(message)
    if is_chit_chat(text):
        return "other", "chit-chat"
    for intent, pattern in INTENT_PATTERNS:
        cue = first_match(pattern, text)
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
@lru_cache(maxsize=8192)
def _ref_tokens(ref: str) -> frozenset[str]:
    """The distinctive words of a ref's title or URI ("file:///x/docs/vector-index.md" → vector, index).

    Cached: every compose checks the namespace's known refs (up to a few hundred) against the message."""
    spaced = re.sub(r"[/\\._\-:#?=&+]+", " ", ref)
    return frozenset(
        t
        for t in content_tokens(spaced)
        if t not in GENERIC_REF_WORDS and (len(t) >= 3 or (has_cjk(t) and len(t) >= 2))
    )


@lru_cache(maxsize=256)
def _message_tokens(text: str) -> frozenset[str]:
    return frozenset(content_tokens(text))


def ref_named(message: str, ref: str) -> bool:
    """Does the message name this ref? Its whole title / URI appears, or it shares at least
    ``min(2, n)`` of the ref's n distinctive words (one word for a one-word ref such as "README")."""
    text = nlp_text(message)
    if len(ref) >= 4 and ref.casefold() in text.casefold():
        return True
    wanted = _ref_tokens(ref)
    if not wanted:
        return False
    shared = wanted & _message_tokens(text)
    return len(shared) >= min(2, len(wanted))


def content_words(text: str) -> set[str]:
    """Content tokens that could be looked up: no request words, no single Chinese characters."""
    return {t for t in content_tokens(nlp_text(text)) if t not in REQUEST_WORDS and not (has_cjk(t) and len(t) < 2)}


def answered_by_recent_window(message: str, recent_turns_text: Sequence[str]) -> bool:
    """Seed §3.1 off condition: every content word of the message already occurs in the last turns.

    Needs a non-empty window. A message with no content word at all ("why?", "为什么呢") refers to the
    window too.
    """
    recent = [t for t in recent_turns_text[-RECENT_TURNS_CONSIDERED:] if t.strip()]
    if not recent:
        return False
    wanted = content_words(message)
    window: set[str] = set()
    for turn in recent:
        window |= content_tokens(nlp_text(turn))
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
    text = nlp_text(message)
    if is_chit_chat(text):
        return False, "chit-chat"
    cue = first_match(RESOURCE_REQUEST_RE, text)
    if cue is not None:
        return True, f"request:{cue.lower()}"
    cue = first_match(EXTERNAL_RE, text)
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
