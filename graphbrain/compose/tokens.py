"""Token counting for the context budget (seed §4.2), pluggable.

Without a tokenizer of the user's model (``policies.composition.tokenizer``, a ``tokenizer.json``), a
documented estimate is used; ``ContextPackage.constraints.token_budget.counter`` names which one ran.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from graphbrain.errors import ConfigError
from graphbrain.nlp.tokens import estimate_tokens, token_cost
from graphbrain.retrieve.snippets import boundary_cut

ESTIMATE = "estimate"


@runtime_checkable
class TokenCounter(Protocol):
    """Counts tokens of a text the way the target model would (or an estimate of it)."""

    name: str

    def count(self, text: str) -> int:
        """Tokens in ``text`` (0 for "")."""
        ...


class EstimateCounter:
    """A model-free estimate: ``graphbrain.nlp.estimate_tokens``, the one rule commit counts with too.

    Pieces: each CJK character (1.0 token); each run of letters (a word: ``max(1.3, len/4)``); each run
    of digits, punctuation and symbols (``max(0.5, len/3)``); whitespace separates and costs nothing.
    ``count(a + b) <= count(a) + count(b)`` (within the ``+1`` of two ceilings).
    """

    name = ESTIMATE

    def cost(self, text: str) -> float:
        """The uncapped sum of piece costs (``count`` is its ceiling)."""
        return token_cost(text)

    def count(self, text: str) -> int:
        """``ceil(cost(text))`` (tiny float noise is ignored)."""
        return estimate_tokens(text)


class HFTokenizerCounter:
    """Exact counts from a Hugging Face ``tokenizer.json`` (the ``tokenizers`` library), no special tokens."""

    def __init__(self, path: str) -> None:
        file = Path(path)
        if file.is_dir():
            file = file / "tokenizer.json"
        if not file.is_file():
            raise ConfigError(
                f"policies.composition.tokenizer: {path}: no tokenizer.json there",
                key="policies.composition.tokenizer",
            )
        from tokenizers import Tokenizer  # imported only when a tokenizer is configured

        try:
            self._tok: Any = Tokenizer.from_file(str(file))
        except Exception as e:  # a malformed file is a configuration problem
            raise ConfigError(
                f"policies.composition.tokenizer: {file}: cannot be loaded ({e})",
                key="policies.composition.tokenizer",
            ) from e
        self.path = str(file)
        self.name = f"tokenizer:{file.parent.name or file.name}"

    def count(self, text: str) -> int:
        """Number of token ids of ``text``."""
        if not text:
            return 0
        return len(self._tok.encode(text, add_special_tokens=False).ids)


def get_counter(path: str | None) -> TokenCounter:
    """The ``tokenizer.json`` counter when a path is set (an error if it is missing), else the estimate."""
    return HFTokenizerCounter(path) if path else EstimateCounter()


def truncate_to_tokens(text: str, counter: TokenCounter, max_tokens: int, *, marker: str = "…") -> str:
    """The longest boundary-safe prefix of ``text`` that, with ``marker`` appended, fits ``max_tokens``.

    ``text`` itself when it fits. Binary search on the character length (counts grow with the prefix
    for any sane tokenizer), then a boundary cut (never inside a Latin word) and a final check that
    steps back if a tokenizer's count is not monotone there. "" when not even the marker fits.
    """
    if counter.count(text) <= max_tokens:
        return text
    if max_tokens <= 0:
        return ""

    def fits(k: int) -> bool:
        head = boundary_cut(text, k).rstrip()
        return counter.count(head + marker) <= max_tokens if head else False

    lo, hi = 0, len(text)  # invariant: fits(lo) or lo == 0; not fits(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    while lo > 0 and not fits(lo):
        lo -= 1
    if lo == 0:
        return marker if counter.count(marker) <= max_tokens else ""
    return boundary_cut(text, lo).rstrip() + marker
