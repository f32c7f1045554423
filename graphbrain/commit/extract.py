"""Rule-based extraction of memory candidates from one message (English, Chinese, and mixed).

``extract(text, role, context=...)`` splits the message into sentences and runs, per sentence:

1. retraction markers ("no, that's wrong, it's …", "actually …, not …", "不对，其实是…",
   "不是…而是…"), which name the active item they correct and carry the corrected fact (``retract``);
2. "remember X" / "记住 X": X is extracted like any sentence (so "remember that I prefer tabs" is a
   preference); a fact no rule recognises becomes a profile note ``profile:user:note-<slug>``;
3. the rule table ``rules.RULES``, in priority order: task status changes, decisions, goals, events,
   preferences, profile facts, new tasks. A rule's match claims its span; weaker rules cannot
   match inside a claimed span, so one clause yields one candidate (``apply``).

Rules are data (pattern + family + parameters, ``rules``); a family's builder (``builders``) turns a match
into a Candidate with a stable key (see ``keys``). Sentences that are chit-chat or emotion are skipped
here (``utterance``); questions yield nothing (except "can you remember …"); speculative sentences still
yield candidates, flagged ``hedged``, so that the retention gate can drop them *with a reason* (seed §1.2 C).

Nothing here decides what is kept: that is ``retention.gate``. Nothing here touches a database.
"""

from __future__ import annotations

import re

from graphbrain.commit import keys
from graphbrain.commit.apply import apply_rules
from graphbrain.commit.builders import State
from graphbrain.commit.candidate import (
    Candidate,
    ExtractionContext,
    Role,
)
from graphbrain.commit.phrase import clean
from graphbrain.commit.retract import retraction
from graphbrain.commit.utterance import Sentence, classify_utterance, split_sentences
from graphbrain.contracts import MemoryType
from graphbrain.nlp.language import detect_language
from graphbrain.nlp.shapes import REMEMBER_RES

# Candidate, ExtractionContext and classify_utterance stay re-exported only for graphbrain/bench/extract.py
# (edited elsewhere during issue 21); new code imports them from commit.candidate / commit.utterance.
__all__ = [
    "Candidate",
    "ExtractionContext",
    "classify_utterance",
    "extract",
]


def _remember(sent: Sentence, st: State) -> list[Candidate] | None:
    """ "remember X" / "记住 X": X as its own clause; a fact no rule knows becomes a profile note."""
    for rx in REMEMBER_RES:
        m = rx.search(sent.text)
        if not m or re.match(r"\s*to\b", m.group("x"), re.I):
            continue
        inner = clean(m.group("x"))
        if not inner:
            return None
        offset = sent.start + m.start("x")
        found = apply_rules(inner, offset, st)
        for c in found:
            c.reason = f"remember > {c.reason}"
            c.stable = True  # asking to remember it is the explicit, lasting wording
            c.hedged = False
        if found:
            return found
        value = {"subject": "user", "attribute": "note", "value": inner, "remembered": True}
        key = keys.profile_key("user", f"note {' '.join(inner.split()[:6])}")  # the slug cuts at a word
        span = (offset, offset + len(inner))
        return [Candidate.rendered(MemoryType.profile, key, value, role=st.role, span=span, reason="remember: fact")]
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
    st = State(
        text=message_text,
        role=role,
        lang=lang or detect_language(message_text),
        ctx=ctx,
        message_project=keys.infer_project(message_text, known=projects, default=ctx.default_project),
        projects=projects,
    )
    sentences = split_sentences(message_text)
    out: list[Candidate] = []
    skip_next = False
    for i, sent in enumerate(sentences):
        if skip_next:
            skip_next = False
            continue
        nxt = sentences[i + 1] if i + 1 < len(sentences) else None
        corrected = retraction(sent, nxt, st)
        if corrected is not None:
            found, skip_next = corrected
            out.extend(found)
            continue
        remembered = _remember(sent, st)
        if remembered is not None:
            out.extend(remembered)
            continue
        out.extend(apply_rules(sent.text, sent.start, st))
    return sorted(out, key=lambda c: c.span)
