"""What kind of utterance a message is (chit-chat, emotion, question, speculation, statement), by sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from graphbrain.nlp.questions import is_question
from graphbrain.nlp.tokens import content_tokens

UtteranceClass = Literal["chit_chat", "emotion", "speculation", "question", "statement"]


# A sentence made only of these (plus punctuation, emoji and particles) is chit-chat.
_CHIT_CHAT_EN = (
    r"hi|hello|hey|yo|hiya|thanks|thank you|thanks a lot|thx|ty|cheers|much appreciated|appreciate it|"
    r"ok|okay|"
    r"k|kk|cool|great|nice|awesome|perfect|excellent|sounds good|looks good|lgtm|got it|gotcha|sure|yes|yeah|"
    r"yep|yup|no|nope|no worries|np|no problem|lol|lmao|rofl|ha(?:ha)+|he(?:he)+|bye|goodbye|good morning|"
    r"good night|good evening|good afternoon|see you|see ya|welcome|you're welcome|alright|all right|wow|oh|"
    r"hmm+|ah|good|fine|right|indeed|will do|understood|makes sense|i see|true|agreed|fair enough|"
    r"so|very|much|a lot|too|again|man|dude|buddy|all|then|and|you|u|there|everyone|guys|folks|friend"
)
_CHIT_CHAT_ZH = (
    r"你好|您好|嗨|哈喽|哈啰|谢谢你?|谢了|多谢|感谢|辛苦了|不客气|哈+|呵呵|嘿嘿|嘻嘻|好的|好滴|好吧|好嘞|好|嗯+|哦+|噢|"
    r"收到|明白了?|了解了?|知道了|懂了|没问题|可以|行|对|对的|是的|没错|再见|拜拜|晚安|早上好|早安|早|中午好|"
    r"晚上好|牛|厉害|赞|太棒了|棒|不错|好厉害|666+|ok|okay|啊|呀|啦|吧|呢|哈|嘛|哟|喔|了|你|那|就"
)
_CHIT_CHAT_RE = re.compile(rf"(?:\b(?:{_CHIT_CHAT_EN})\b|{_CHIT_CHAT_ZH})", re.I)
_NOISE_RE = re.compile(r"[\W_]+", re.UNICODE)  # punctuation, emoji, spaces

_EMOTION_RES: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"\b(?:i['’]?m|i am|i feel|feeling|i['’]?m feeling|so)\s+"
        r"(?:so\s+|really\s+|very\s+|super\s+|totally\s+|kinda\s+)*"
        r"(?:tired|exhausted|frustrated|annoyed|sad|angry|stressed|bored|upset|depressed|happy|excited|"
        r"burned out|burnt out|fed up|done with (?:this|it|everything))\b",
        re.I,
    ),
    re.compile(r"^(?:ugh+|argh+|sigh|damn|dammit|wtf|omg|ffs|meh)\b", re.I),
    re.compile(r"\b(?:this|it|that) (?:sucks|is (?:so )?annoying)\b|\bi hate (?:this|it|everything)\b", re.I),
    re.compile(
        r"累死了?|好累|太累了?|心累|烦死了?|好烦|真烦|气死(?:我)?了|郁闷|崩溃了?|难受|无语|太难了|头疼|头大|哭了|唉+|哎+|卧槽|服了|开心|高兴"
    ),
)
_SPECULATION_RES: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"\b(?:maybe|perhaps|possibly|probably|i guess|i suppose|i['’]?m not sure|not sure|might|may be|"
        r"could be|"
        r"i wonder|who knows|wondering if|not certain|i doubt)\b",
        re.I,
    ),
    re.compile(r"(?<![尽不])可能|也许|大概|或许|说不定|好像|似乎|估计|不确定|不一定|应该是.+吧|我猜|猜测"),
)


def _is_chit_chat(text: str) -> bool:
    rest = _NOISE_RE.sub("", _CHIT_CHAT_RE.sub(" ", text))
    return rest == ""


def _is_emotion(text: str) -> bool:
    for rx in _EMOTION_RES:
        m = rx.search(text)
        # Emotion, not a statement that mentions a feeling: little content is left around it.
        if m and len(content_tokens(text[: m.start()] + " " + text[m.end() :])) <= 2:
            return True
    return False


def classify_sentence(text: str) -> UtteranceClass:
    t = text.strip()
    if not t or _is_chit_chat(t):
        return "chit_chat"
    if _is_emotion(t):
        return "emotion"
    if is_question(t):
        return "question"
    if any(rx.search(t) for rx in _SPECULATION_RES):
        return "speculation"
    return "statement"


def sentence_classes(text: str) -> list[tuple[int, int, UtteranceClass]]:
    """(start, end, class) of each sentence of ``text``: what the entity gate asks of a mention's sentence."""
    return [(s.start, s.end, classify_sentence(s.text)) for s in split_sentences(text)]


def classify_utterance(text: str) -> UtteranceClass:
    """What kind of utterance ``text`` is, for the retention gate.

    Each sentence is classified (chit-chat: greetings / thanks / acks only; emotion: a feeling with
    little else; question; speculation: maybe / I guess / 可能 / 也许 / 大概; else statement), and the
    message takes the most informative class present: statement > speculation > question > emotion >
    chit-chat. So "thanks! we decided to use Neo4j" is a statement, "哈哈好的" is chit-chat.
    """
    order: tuple[UtteranceClass, ...] = ("statement", "speculation", "question", "emotion", "chit_chat")
    found = {classify_sentence(s.text) for s in split_sentences(text)}
    for cls in order:
        if cls in found:
            return cls
    return "chit_chat"


# ====================================================================================== sentences
@dataclass(frozen=True)
class Sentence:
    text: str
    start: int  # offset of text in the message

    @property
    def end(self) -> int:
        return self.start + len(self.text)


# End of sentence: CJK terminators, ! ? ; and newlines always; "." only before whitespace or the end,
# so that "v1.2", "5.26", "README.md" and URLs stay whole.
_SENT_END_RE = re.compile(r"[。！？!?；;]+|\.(?=\s|$)|\n+")


def split_sentences(text: str) -> list[Sentence]:
    out: list[Sentence] = []
    pos = 0
    for m in list(_SENT_END_RE.finditer(text)) + [None]:
        end = m.end() if m else len(text)
        chunk = text[pos:end]
        stripped = chunk.strip()
        if stripped:
            out.append(Sentence(stripped, pos + chunk.index(stripped)))
        pos = end
    return out
