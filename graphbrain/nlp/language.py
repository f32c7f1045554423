"""Which language a text is in: Chinese, English, mixed, Japanese, Korean or other."""

from __future__ import annotations

import re
from typing import Literal

from graphbrain.nlp.chars import HANGUL_RE, is_cjk, is_han
from graphbrain.nlp.stopwords import EN_STOP_WORDS

__all__ = ["ENGLISH_MIN_STOP_SHARE", "ENGLISH_MIN_WORDS", "Language", "detect_language"]

Language = Literal["zh", "en", "mixed", "ja", "ko", "other"]

# Latin text of at least this many words is English only when English function words are in it
# (code, German or French prose are not); a shorter one ("PR #42 merged", "Neo4j 5.26") is English.
ENGLISH_MIN_WORDS = 6
ENGLISH_MIN_STOP_SHARE = 0.08
_LATIN_WORD_2_RE = re.compile(r"[A-Za-z\u00c0-\u024f]{2,}")


def detect_language(text: str) -> Language:
    """The language of ``text`` from its scripts: "zh", "en", "mixed" (Chinese and English), "ja", "ko"
    or "other". The one detector: messages, documents and their sections are all labelled by it.

    A CJK character carries about as much as three Latin letters, so Latin letters count 1/3 each:
    share = cjk / (cjk + latin / 3). Share >= 0.7 is Chinese, below 0.1 English, in between mixed;
    text with CJK in it is ``ja`` when kana make a tenth of its Han and kana, ``ko`` when Hangul
    outnumbers Han. "我们用 Neo4j 做存储" is zh (0.78); "我们决定用 Neo4j 5.26 做 memory store" is mixed
    (0.53). Latin text is ``en`` unless it is long (``ENGLISH_MIN_WORDS``) and has almost no English
    function words (code, other European languages). ``other``: no word at all (digits, symbols,
    single letters as in "x = f(y)"), or mostly other scripts (Cyrillic, Arabic, ...).
    """
    han = kana = hangul = latin = other = 0
    for ch in text:
        if is_han(ch):
            han += 1
        elif is_cjk(ch):
            if HANGUL_RE.match(ch):
                hangul += 1
            else:
                kana += 1
        elif ch.isalpha():
            if ch < "\u0250":  # ASCII, Latin-1 and Latin Extended-A/B
                latin += 1
            else:
                other += 1
    cjk = han + kana + hangul
    if cjk + latin + other == 0 or other > cjk + latin:
        return "other"
    share = cjk / (cjk + latin / 3)
    if share >= 0.1:
        if kana and kana >= 0.1 * (han + kana):
            return "ja"
        if hangul > han:
            return "ko"
        return "zh" if share >= 0.7 else "mixed"
    words = _LATIN_WORD_2_RE.findall(text)
    if not words:
        return "other"
    if len(words) >= ENGLISH_MIN_WORDS:
        stop = sum(1 for w in words if w.lower() in EN_STOP_WORDS)
        if stop < ENGLISH_MIN_STOP_SHARE * len(words):
            return "other"
    return "en"
