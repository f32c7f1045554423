"""Which active memory item a phrase refers to: fuzzy overlap of content tokens, ties to the most recent."""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence

from graphbrain.commit import keys
from graphbrain.commit.candidate import ActiveItem
from graphbrain.contracts import MemoryType
from graphbrain.nlp.tokens import content_tokens


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


def best_match(
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


def current_task(tasks: Sequence[ActiveItem]) -> ActiveItem | None:
    """The task "it" refers to: the most recent one in progress."""
    doing = [t for t in tasks if t.value.get("status") == "doing"]
    return doing[-1] if doing else None
