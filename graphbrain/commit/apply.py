"""Running a rule table over one clause: each match claims its span, its family's builder makes candidates."""

from __future__ import annotations

from collections.abc import Sequence

from graphbrain.commit.builders import BUILDERS, State
from graphbrain.commit.candidate import Candidate
from graphbrain.commit.rules import RULES, Rule
from graphbrain.commit.utterance import classify_sentence


def apply_rules(clause: str, offset: int, st: State, rules: Sequence[Rule] = RULES) -> list[Candidate]:
    """Run ``rules`` over one clause (``offset`` = its position in the message)."""
    cls = classify_sentence(clause)
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
