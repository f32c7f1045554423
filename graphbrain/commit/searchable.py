"""How a turn's messages become searchable, beside their verbatim text.

A message is found by more than its own words: by who said it ("what did Dana say about…"), by when
(its day), and by the message it answers ("Yes, Sweden" only makes sense after "Where are you from?").
So each message gets, at commit time:

- ``search_text``: the analyzed terms (``graphbrain.nlp.analysis``) of its speaker's name, its day, its
  content and the content of the message before it (in this turn, else the session's last one); the
  full-text index ``message_search`` holds this field, never the verbatim ``content``;
- ``embed_text``: ``"<speaker>: <content>"`` — what both embedding models read;
- ``filler``: an acknowledgement or a greeting and nothing else ("Noted.", "ok", "好的。", "收到"):
  still a turn of the conversation and a neighbour of its turns, never evidence of its own;
- ``language``: ``detect_language`` of the content.

``upgrade_search_text`` and ``upgrade_english`` bring messages written before these fields up to date
(schema v3, ``graphbrain init``), in batches.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from graphbrain.nlp import detect_language, pipelines, tokenize
from graphbrain.nlp.analysis import search_document
from graphbrain.nlp.chars import has_cjk, is_cjk
from graphbrain.nlp.english import english_doc
from graphbrain.nlp.stopwords import word_set

if TYPE_CHECKING:
    from graphbrain.store import Store
    from graphbrain.store.upgrade import UpgradeModels

# The context a message carries from the one before it: enough for a question it answers.
CONTEXT_CHARS = 600
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")


def day_words(at: datetime) -> str:
    """The message's day in words ("8 May 2023"), so a question naming a month or a year can match it."""
    return f"{at.day} {at.strftime('%B')} {at.year}"


# Words that acknowledge, thank, greet or react, and say nothing a question could be answered by.
ACK_WORDS_EN = word_set(
    """
    ok okay k sure noted note thanks thank thx ty cheers great good nice lovely amazing awesome cool perfect
    fine ready understood understand got gotcha know kind star sorry pain count wrap ha haha hah lol ugh
    wow yep yes yeah yup right agreed agree indeed exactly absolutely totally congrats congratulations bye
    hi hello hey morning night welcome np problem worries deal sounds sound makes sense true wonderful
    fantastic brilliant excellent glad
    """
)
ACK_WORDS_ZH = word_set(
    """
    好 好的 好滴 好呀 好嘞 行 嗯 嗯嗯 哦 噢 收到 明白 明白了 了解 了解了 知道 知道了 记下 已记下 记录 记 辛苦
    辛苦了 谢谢 多谢 感谢 哈哈 哈哈哈 哈 可爱 好可爱 没问题 可以 对 是的 棒 厉害 赞 太棒了 加油 早 早上好 晚安 拜拜
    就到这 到这 到这里 先这样 散会
    """
)
_ACK_PHRASE_EN = re.compile(r"\b(?:will do|on it|got it|count me in|good to know|that's all|talk soon)\b")
# Words that carry nothing next to an acknowledgement ("Great news.", "Nice one.", "已记下", "我来记录").
LIGHT_WORDS = word_set("news one notes take you're it's that's 已 我来 马上 要点 今天 这")
# How a message may name the one it answers ("thanks Marco", "谢谢吴姐"): kept out of the content words.
_ADDRESS_ZH = re.compile(r"^.{0,3}(?:姐|哥|总|老师|师兄|师姐|同学)$")


def is_filler(content: str) -> bool:
    """Only greetings, thanks, acknowledgements or a reaction, perhaps naming whom it answers ("Noted.",
    "Thanks Marco.", "好的，已记下。", "辛苦师兄"): nothing a question could be answered by.

    It must hold an acknowledgement word, and its other words (stop words and light words out) must be
    nothing, or only the name of the person addressed.
    """
    text = content.strip()
    if not text:
        return False
    if _names_nothing(text):
        return True
    words = tokenize(text)
    rest = [w for w in words if w not in ACK_WORDS_EN and w not in ACK_WORDS_ZH and w not in LIGHT_WORDS]
    if not _acknowledges(text):
        return False
    if not rest:
        return True
    if len(rest) > 2:
        return False
    names = {m.group().casefold() for m in _CAPITALISED.finditer(text)}
    return all(w in names or _ADDRESS_ZH.match(w) for w in rest)


# A reaction is short: past these sizes a message without a noun still says something.
REACTION_MAX_CJK = 10
REACTION_MAX_WORDS = 6
# jieba flags of what names something (nouns, names, places, times, numbers, English words).
_NAMING_FLAGS = ("n", "t", "m", "eng", "s", "f")


def _names_nothing(text: str) -> bool:
    """A short message that names nothing — no noun, name, time or number: a reaction ("被你发现了",
    "哈哈，我回去跟她说", "Count me in!", "I love it!"). Chinese by jieba's tags, English by spaCy's."""
    if "?" in text or "？" in text:
        return False  # a question asks something: the turn that answers it is read beside it
    if has_cjk(text):
        if sum(1 for ch in text if is_cjk(ch)) > REACTION_MAX_CJK:
            return False
        tagged = [(w, f) for w, f in pipelines.posseg(text) if w.strip() and f != "x"]
        return bool(tagged) and not any(f.startswith(_NAMING_FLAGS) for _, f in tagged)
    words = re.findall(r"[A-Za-z0-9']+", text)
    if not words or len(words) > REACTION_MAX_WORDS or any(w[0].isdigit() for w in words):
        return False
    doc = english_doc(text)
    return not any(t.pos_ in ("NOUN", "PROPN", "NUM") for t in doc)


def says_nothing(phrase: str) -> bool:
    """Whether every word of ``phrase`` is an acknowledgement or a light word ("thanks", "lol", "好的")."""
    words = tokenize(phrase)
    return all(w in ACK_WORDS_EN or w in ACK_WORDS_ZH or w in LIGHT_WORDS for w in words)


def _acknowledges(text: str) -> bool:
    """Whether ``text`` holds an acknowledgement word (stop words included: 谢谢 and "ok" are both)."""
    lowered = text.casefold()
    if any(w in lowered for w in ACK_WORDS_ZH if len(w) > 1) or _ACK_PHRASE_EN.search(lowered):
        return True
    return any(w in ACK_WORDS_EN for w in re.findall(r"[a-z']+", lowered))


def is_english(text: str) -> bool:
    """Whether the English model should read ``text`` too (English, or English mixed with Chinese)."""
    return detect_language(text) in ("en", "mixed")


def prepare_messages(messages: Sequence[MutableMapping[str, Any]], *, at: datetime, previous: str | None) -> None:
    """Fill ``search_text``, ``embed_text``, ``filler`` and ``language`` on each message row, in place.

    ``previous`` is the content of the session's last message before this turn (None for a new session).
    """
    before = (previous or "")[:CONTEXT_CHARS]
    for m in messages:
        content = m.get("content") or ""
        speaker = (m.get("name") or "").strip() or None
        m["language"] = detect_language(content) if content else None
        m["embed_text"] = f"{speaker}: {content}" if speaker and content.strip() else content
        m["filler"] = is_filler(content)
        # A filler is never evidence: the message before it would only make "ok" match its question.
        context = None if m["filler"] else before
        m["search_text"] = search_document(speaker, day_words(m.get("at") or at), content, context)
        if content.strip() and m.get("role") != "tool":  # a tool's raw output is no context for a reply
            before = content[:CONTEXT_CHARS]


# ---------------------------------------------------------------------------------------- upgrade (v3)
def upgrade_search_text(store: Store, *, namespace: str | None, batch: int, models: UpgradeModels) -> int:
    """Upgrade fill: ``search_text`` and ``filler`` for messages written before them; returns how many."""
    rows = store.run("upgrade/v3_messages_to_search", {"namespace": namespace, "batch": batch})
    out = []
    for r in rows:
        at = r["at"] if isinstance(r["at"], datetime) else datetime.now(UTC)
        m: dict[str, Any] = {"content": r["content"] or "", "name": r["name"], "role": r["role"], "at": at}
        prepare_messages([m], at=at, previous=r["previous"])
        out.append({"id": r["id"], "search_text": m["search_text"], "filler": m["filler"]})
    if out:
        store.run("upgrade/v3_set_search_text", {"rows": out}, write=True)
    return len(out)


def upgrade_english(store: Store, *, namespace: str | None, batch: int, models: UpgradeModels) -> int:
    """Upgrade fill: the English model's vectors for English messages and chunks written before it, and
    a language on memory items (their vector too, when English); returns how many nodes it set."""
    english = models.english()
    rows = store.run(
        "upgrade/v3_english_todo", {"namespace": namespace, "batch": batch, "with_vectors": english is not None}
    )
    if not rows:
        return 0
    out = [
        {"id": r["id"], "label": r["label"], "language": detect_language(r["text"] or ""), "embedding": None}
        for r in rows
    ]
    todo = [i for i, r in enumerate(rows) if r["label"] != "Memory" or out[i]["language"] in ("en", "mixed")]
    if english is not None and todo:
        for i, vec in zip(todo, english.embed([rows[i]["text"] for i in todo]), strict=True):
            out[i]["embedding"] = vec
    store.run("upgrade/v3_set_english", {"rows": out}, write=True)
    return len(out)
