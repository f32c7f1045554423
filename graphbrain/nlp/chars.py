"""The one definition of the scripts written without spaces between words (Han, kana, Hangul).

Everything that treats Chinese, Japanese or Korean characters specially (tokens, snippet and chunk
boundaries, hashed bigrams, token estimates, language detection) takes its character classes from here,
so that no two places disagree about what a CJK character is. The classes are regex character-class
bodies (use them inside ``[...]``). This module imports nothing, so any layer may use it.

- ``HAN_CLASS``: Han ideographs: CJK Unified Ideographs, Extension A, the compatibility ideographs and
  Extensions B..G (what Chinese is written in, and the kanji of Japanese);
- ``KANA_CLASS``: hiragana, katakana and their phonetic extensions (Japanese);
- ``HANGUL_CLASS``: Hangul syllables (Korean);
- ``CJK_CLASS``: all three: the letters of scripts without spaces, each a boundary and a unit;
- ``CJK_SYMBOLS_CLASS``: radicals, CJK punctuation (。、「」), bopomofo and full-width forms: not
  letters, but places where such text may be cut.
"""

from __future__ import annotations

import re

HAN_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
KANA_CLASS = "\u3040-\u30ff\u31f0-\u31ff"
HANGUL_CLASS = "\uac00-\ud7af"
CJK_CLASS = HAN_CLASS + KANA_CLASS + HANGUL_CLASS
CJK_SYMBOLS_CLASS = "\u2e80-\u2fdf\u3000-\u303f\u3100-\u31bf\uff00-\uffef"

HAN_RE = re.compile(f"[{HAN_CLASS}]")
HAN_RUN_RE = re.compile(f"[{HAN_CLASS}]+")
HANGUL_RE = re.compile(f"[{HANGUL_CLASS}]")
CJK_RE = re.compile(f"[{CJK_CLASS}]")
CJK_RUN_RE = re.compile(f"[{CJK_CLASS}]+")


def is_han(ch: str) -> bool:
    """A Han ideograph (Chinese characters, Japanese kanji)."""
    return HAN_RE.match(ch) is not None


def has_han(text: str) -> bool:
    return HAN_RE.search(text) is not None


def is_cjk(ch: str) -> bool:
    """A Han, kana or Hangul character: a letter of a script written without spaces."""
    return CJK_RE.match(ch) is not None


def has_cjk(text: str) -> bool:
    return CJK_RE.search(text) is not None
