"""English lemmas for keys: spaCy's own lemma tables, and only forms those tables know.

spaCy's rule lemmatizer strips a suffix and, when the result is no word it knows, keeps the chop anyway
("kubernetes" → "kubernete", "retries" → "retrie"). Keys must never hold a chopped word, so here a
word becomes a lemma only when spaCy's tables vouch for the result: an exception ("ran" → "run"), or a
suffix rule whose result is in the lemma index ("tests" → "test", "deployed" → "deploy"). Anything else
— a name, a product, a word spaCy does not know — is kept as said ("atlas", "postgres", "kubernetes").

The tables come from the English pipeline's lemmatizer (en_core_web_sm ships them); the lemmatizer
component itself does not run in the pipeline. With no model installed, words are kept as said.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from graphbrain.nlp import pipelines

_POS = ("noun", "verb", "adj")
_lock = threading.Lock()
_tables: dict[str, Any] | None = None


def _load() -> dict[str, Any]:
    global _tables
    if _tables is None:
        with _lock:
            if _tables is None:
                found: dict[str, Any] = {"index": {}, "exc": {}, "rules": {}}
                try:
                    lm = pipelines.lemma_tables()
                except Exception:  # no English model: no lemmas, every word kept as said
                    lm = None
                if lm is not None:
                    index, exc, rules = lm
                    found = {
                        "index": {p: frozenset(index.get(p, ())) for p in _POS},
                        "exc": {p: dict(exc.get(p, {})) for p in _POS},
                        "rules": {p: [tuple(r) for r in rules.get(p, [])] for p in _POS},
                    }
                _tables = found
    return _tables


@lru_cache(maxsize=8192)
def lemma(word: str, pos: str) -> str:
    """The lemma of a lowercase ``word`` as part of speech ``pos`` ("noun", "verb", "adj"), when spaCy's
    tables know it; else the word itself."""
    t = _load()
    if pos not in _POS or not word.isascii() or not word.isalpha():
        return word
    # Irregular verbs only ("ran" → "run", "built" → "build"): the noun exceptions are Latin plurals that
    # people do not say in the singular ("data" → "datum").
    exc = t["exc"].get(pos, {}) if pos == "verb" else {}
    if word in exc:
        return str(exc[word][0])
    index = t["index"].get(pos, frozenset())
    # spaCy's order: the suffix rules first (the index also lists some plurals, "services"), and only
    # a result the index knows; no known result leaves the word as said.
    for old, new in t["rules"].get(pos, []):
        if word.endswith(old):
            form = word[: len(word) - len(old)] + new
            if form and form in index:
                return form
    return word


def lemma_forms(word: str) -> set[str]:
    """Every known lemma of ``word`` (as noun, verb or adjective), the word included."""
    w = word.casefold()
    return {w} | {lemma(w, p) for p in _POS}


def known(word: str, pos: str) -> bool:
    """Whether spaCy's lemma index lists ``word`` as a ``pos`` ("meeting" is a noun, "kubernetes" none)."""
    return word in _load()["index"].get(pos, frozenset())


def irregular(word: str) -> bool:
    """Whether ``word`` is an irregular verb form spaCy knows ("ran", "wrote", "built")."""
    return word in _load()["exc"].get("verb", {})
