"""Text utilities for mixed Chinese / English input: language, tokens, keywords, token estimates, entities.

Everything here is rules plus spaCy (English) and jieba (Chinese); nothing calls a model service. The
spaCy pipelines load lazily on first use (see ``pipelines``); ``detect_language``, ``estimate_tokens``,
``canonicalize`` and ``normalize_url`` never load anything.

Entity candidates are *candidates*: the entity gate (``graphbrain.commit.retention.EntityGate``) decides
which of them become memory. Detection therefore prefers recall and records, per candidate, the signal
that found it, because the gate treats structural signals (url / repo / path) differently from a
capitalised word.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from graphbrain.config import NlpConfig
from graphbrain.nlp import pipelines
from graphbrain.nlp.chars import CJK_CLASS, HAN_CLASS, HAN_RUN_RE, HANGUL_RE, has_cjk, is_cjk, is_han
from graphbrain.nlp.stopwords import EN_STOP_WORDS, KEY_TERM_STOP_WORDS, STOP_WORDS, ZH_STOP_WORDS, word_set

if TYPE_CHECKING:
    from spacy.tokens import Doc

Language = Literal["zh", "en", "mixed", "ja", "ko", "other"]
# "concept" is the neutral kind of a name nothing more is known of; "other" is a place; "topic" is only
# read (older data), no longer produced.
EntityKind = Literal["person", "org", "repo", "file", "url", "topic", "other", "concept"]
EntitySignal = Literal[
    "ner", "url", "repo", "path", "proper_noun", "quoted", "remember", "zh_noun", "known", "compound", "phrase"
]

# --------------------------------------------------------------------------------------- characters
# The character classes come from ``nlp.chars`` (the one CJK definition). Word tokens and the Chinese
# language share look at Han only: kana and Hangul are neither Chinese nor segmented by jieba.
# A Latin-script word or number, keeping internal . _ ' + # - so that "neo4j", "5.26", "v1.2", "c#",
# "snake_case" and "e-mail" stay one token.
LATIN_WORD_RE = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+(?:[._'+-][A-Za-z0-9\u00c0-\u024f]+)*")
_TOKEN_RUN_RE = re.compile(f"[{HAN_CLASS}]+|" + LATIN_WORD_RE.pattern)


# --------------------------------------------------------------------------------------- stop words
# One source per language, built from spaCy's lists: ``nlp.stopwords``.
_CONTRACTION_RE = re.compile(r"(.+?)(n't|'s|'m|'re|'ve|'ll|'d)")


def is_en_stop_word(word: str) -> bool:
    """A lowercase English token that is a stop word, or a contraction of two ("isn't", "can't")."""
    if word in EN_STOP_WORDS:
        return True
    m = _CONTRACTION_RE.fullmatch(word)
    return m is not None and m.group(1) in EN_STOP_WORDS and m.group(2) in EN_STOP_WORDS


# --------------------------------------------------------------------------------------- language
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


# --------------------------------------------------------------------------------------- questions
# The one question test, for extraction (a question asserts nothing) and the planner (a question is qa).
_QUESTION_END_RE = re.compile(r"(?P<mark>[?？])\s*$|(?P<particle>[吗呢么])[。.!！~～]*\s*$")
# A Chinese question needs no mark: a question word ("我们用的是什么数据库"), an A-not-A choice
# ("够不够", "是不是"), "X 还是 Y 好", "来着".
_QUESTION_ZH_RE = re.compile(
    r"什么(?!都|也)|怎么(?!样都)|怎样|为什么|为何|如何|哪(?:个|些|里|儿|天|种|位)|谁|多少|几(?:个|天|点|号|时|次)"
    rf"|是否|(?P<a>[{HAN_CLASS}])不(?P=a)|有没有|来着\s*[。.]?$|\S\s*还是\s*\S.*(?:好|合适|对)\s*[。.]?$"
)
_QUESTION_START_RE = re.compile(
    r"^(?:what|why|how|when|where|who|whom|which|whose|can you|could you|would you|will you|do you|does|did|"
    r"is it|is there|are there|are you|should (?:we|i)|shall (?:we|i)|may i|have you|has)\b",
    re.I,
)


def question_cue(text: str) -> str | None:
    """What makes ``text`` a question, or None: "question mark" (? ？), "question particle" (吗 呢 么 at
    the end), "question opening" ("what …", "do you …", "is there …"), "question word" (Chinese asks
    without a mark: 什么, 怎么, 哪个, 谁, 多少, A-不-A "够不够", "X 还是 Y 好", 来着)."""
    t = text.strip()
    m = _QUESTION_END_RE.search(t)
    if m:
        return "question mark" if m.group("mark") else "question particle"
    if _QUESTION_START_RE.match(t):
        return "question opening"
    if _QUESTION_ZH_RE.search(t):
        return "question word"
    return None


def is_question(text: str) -> bool:
    """True when ``text`` asks something, in English or Chinese, with or without a question mark."""
    return question_cue(text) is not None


# --------------------------------------------------------------------------------------- tokens
def _en_word(word: str) -> str:
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    return w


def tokenize(text: str) -> list[str]:
    """Lowercase word tokens of mixed text, stop words removed, in order (repeats kept).

    Latin words and numbers come from a regex (internal . _ - kept: "neo4j", "5.26", "v1.2");
    Chinese runs are segmented with ``jieba.cut_for_search``, which also yields the shorter words
    inside a long one ("中华人民共和国" → 中华, 人民, 共和国, …) so that search recall does not depend
    on how a phrase was segmented.
    """
    text = unicodedata.normalize("NFKC", text)
    out: list[str] = []
    for m in _TOKEN_RUN_RE.finditer(text):
        run = m.group()
        if is_han(run[0]):
            out.extend(w for w in pipelines.cut_for_search(run) if w not in ZH_STOP_WORDS)
        else:
            w = _en_word(run)
            if w and not is_en_stop_word(w):
                out.append(w)
    return out


def light_stem(word: str) -> str:
    """A deliberately tiny English stemmer: plural -s/-ies only ("tests" → "test", "libraries" →
    "library"), leaving "status", "class", "analysis" alone. Used for matching and keys, never shown."""
    if not word.isascii() or len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "os")):
        return word[:-1]
    return word


def content_tokens(text: str) -> set[str]:
    """Stemmed, stop-word-free token set: what two phrasings of the same thing have in common."""
    return {light_stem(t) for t in tokenize(text)}


# --------------------------------------------------------------------------------------- tokens estimate
# The one token estimate (commit's token counts, the context budget): one token per CJK character; a
# run of letters (a word) costs max(1.3, len/4), since long words split into pieces of about four
# letters; a run of digits, punctuation and symbols costs max(0.5, len/3). Whitespace is free.
CJK_TOKEN = 1.0
WORD_TOKEN = 1.3
WORD_CHARS_PER_TOKEN = 4.0
OTHER_TOKEN = 0.5
OTHER_CHARS_PER_TOKEN = 3.0
_PIECE_RE = re.compile(
    rf"(?P<cjk>[{CJK_CLASS}])"
    rf"|(?P<word>[^\W\d_{CJK_CLASS}]+)"
    rf"|(?P<other>[^\s{CJK_CLASS}](?:(?![^\W\d_])[^\s{CJK_CLASS}])*)"
)


def token_cost(text: str) -> float:
    """The uncapped estimate of ``text``'s LLM tokens (``estimate_tokens`` is its ceiling).

    Each piece cost is subadditive, and concatenation can only merge pieces at the seam, so
    ``cost(a + b) <= cost(a) + cost(b)``. It leans high for English (real BPE: ~1.3 tokens a word) and
    for Chinese (~0.6-1 a character), which is the safe side for a budget.
    """
    total = 0.0
    for m in _PIECE_RE.finditer(text):
        size = m.end() - m.start()
        if m.lastgroup == "cjk":
            total += CJK_TOKEN
        elif m.lastgroup == "word":
            total += max(WORD_TOKEN, size / WORD_CHARS_PER_TOKEN)
        else:
            total += max(OTHER_TOKEN, size / OTHER_CHARS_PER_TOKEN)
    return total


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate of how many LLM tokens ``text`` costs: ``ceil(token_cost(text))``."""
    return math.ceil(token_cost(text) - 1e-9) if text else 0


# --------------------------------------------------------------------------------------- canonical forms
# Query parameters that only track where a click came from; they never change what a URL points to.
_TRACKING_PARAMS = ("utm_",)
_TRACKING_EXACT = frozenset({"fbclid", "gclid", "mc_cid", "mc_eid"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ftp": 21}


def normalize_url(url: str) -> str:
    """One spelling per URL, the only one in graphbrain: a Ref's uri, a fetched Document's source_uri and a
    URL Entity's canonical name are all this, so the three agree.

    Lowercase scheme and host, no default port, no credentials, no fragment, no tracking parameters
    (utm_*, fbclid, gclid), no trailing slash; "www.x.com/a" gets https://. Text that is no absolute URL
    (no scheme or host, or one that cannot be taken apart, "http://[::1") is returned stripped.
    """
    url = url.strip()
    if url.lower().startswith("www."):
        url = "https://" + url
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:  # "http://[::1", "http://x:99999": not a URL that can be taken apart
        return url
    if not parts.scheme or not host:
        return url
    scheme = parts.scheme.lower()
    netloc = f"[{host}]" if ":" in host else host  # an IPv6 address keeps its brackets
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc = f"{netloc}:{port}"
    query = urlencode(
        [
            (k, v)
            for k, v in parse_qsl(parts.query, keep_blank_values=True)
            if not k.lower().startswith(_TRACKING_PARAMS) and k.lower() not in _TRACKING_EXACT
        ]
    )
    path = parts.path.rstrip("/")
    return urlunsplit((scheme, netloc, path, query, ""))


def _canonical_path(path: str) -> str:
    p = path.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    p = re.sub(r"/{2,}", "/", p).rstrip("/")
    # Case-folded: the same file is far more often re-typed with other capitals than two files differ
    # only in case, and macOS / Windows file systems treat them as one anyway.
    return p.casefold()


def _canonical_repo(name: str) -> str:
    n = name.strip().casefold()
    n = re.sub(
        r"^(?:https?://)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|gitee\.com|codeberg\.org)/",
        "",
        n,
    )
    n = n.removesuffix(".git").strip("/")
    return "/".join(n.split("/")[:2])


_LEADING_ARTICLE_RE = re.compile(r"^(?:the|a|an)\s+")
_KEEP_INNER = ".+#_-"


def canonicalize(name: str, kind: str) -> str:
    """The one canonical form of an entity name, so one real thing gets one key.

    url: ``normalize_url``; repo: "owner/name" lowercase, host and ".git" dropped; file: forward
    slashes, no leading "./", case-folded; everything else: NFKC, case-folded, possessive "'s" and
    a leading English article dropped, punctuation removed (. + # _ - kept inside words, so "Node.js",
    "C++", "C#" survive), whitespace collapsed.
    """
    if kind == "url":
        return normalize_url(name)
    if kind == "repo":
        return _canonical_repo(name)
    if kind == "file":
        return _canonical_path(name)
    s = unicodedata.normalize("NFKC", name).casefold().strip()
    s = re.sub(r"['’]s\b", "", s)
    s = "".join(ch if (ch.isalnum() or ch.isspace() or ch in _KEEP_INNER) else " " for ch in s)
    words = [w.strip(".#_-") if not w.endswith(("++", "#")) else w.lstrip(".#_-") for w in s.split()]
    s = " ".join(w for w in words if w)
    return _LEADING_ARTICLE_RE.sub("", s)


# --------------------------------------------------------------------------------------- entity detection
@dataclass(frozen=True)
class EntityCandidate:
    """A possible entity mention: ``name`` as written, its ``canonical`` form, and where it is."""

    name: str
    canonical: str
    kind: EntityKind
    start: int
    end: int
    signal: EntitySignal
    argument: bool = False  # the subject or object of a clause ("Alice leads …", "… owns the feature store")
    about: bool = False  # what a statement of responsibility or a definition is about ("Dana owns the Helm charts")

    @property
    def salient(self) -> bool:
        """Real on one mention when said in a statement of fact: the subject or object of a clause that is a
        named person, organisation or place, a name the NER model vouches for ("on Android", "for KubeCon"),
        a component compound, or what a responsibility or definition is about."""
        named = self.kind in ("person", "org", "other") or self.signal in ("compound", "ner")
        return self.argument and (named or self.about)

    @property
    def structural(self) -> bool:
        """Found by its shape (URL, repo, path): the entity gate lets these in on first sight."""
        return self.signal in ("url", "repo", "path")


# Which signal wins when two candidates overlap: structure first, then what the user delimited, then
# the statistical and shape-based guesses. (A repo found inside a URL shares the URL's span on purpose.)
_SIGNAL_PRIORITY: dict[str, int] = {
    "url": 0,
    "repo": 1,
    "path": 2,
    "known": 3,
    "quoted": 4,
    "ner": 5,
    "compound": 6,
    "proper_noun": 7,
    "zh_noun": 8,
    "remember": 9,
}

_URL_RE = re.compile(
    r"(?:\b(?:https?|ftp)://|\bwww\.)[^\s<>\"'`，。！？；：、（）【】「」『』《》“”‘’\u3000]+", re.IGNORECASE
)
_URL_TRAILING = ".,;:!?'\"]}>"
_REPO_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "gitee.com", "codeberg.org"})
# First path segments on those hosts that are site pages, not repository owners.
_REPO_RESERVED_OWNERS = frozenset(
    {
        "orgs",
        "settings",
        "features",
        "topics",
        "search",
        "marketplace",
        "explore",
        "sponsors",
        "about",
        "login",
        "notifications",
        "pulls",
        "issues",
        "collections",
        "trending",
        "apps",
        "users",
        "site",
    }
)
_SSH_REPO_RE = re.compile(r"\bgit@(?P<host>[\w.-]+):(?P<owner>[\w.-]+)/(?P<name>[\w.-]+?)(?:\.git)?\b")
_BARE_REPO_RE = re.compile(
    r"(?<![A-Za-z0-9_./:@-])(?P<owner>[A-Za-z0-9][A-Za-z0-9-]{0,38})/(?P<name>[A-Za-z0-9_][A-Za-z0-9._-]{0,99})(?![A-Za-z0-9_/])"
)
# A bare "owner/name" is only a repo right next to a cue ("the repo acme/widgets", "clone x/y",
# "acme/widgets repo", "仓库 x/y"), otherwise "and/or", "TCP/IP" or "src/app" would all be repos.
_REPO_CUE_BEFORE_RE = re.compile(
    r"(?:\brepo(?:sitory)?|\bgithub|\bgitlab|\bclone|\bfork(?:ed)?|仓库|代码库)"
    r"(?:\s+(?:the|a|an|my|our|at|of|from|is))?\s*(?:是|为|叫)?\s*[:：]?\s*$",
    re.I,
)
_REPO_CUE_AFTER_RE = re.compile(r"^\s*(?:repo(?:sitory)?\b|仓库|代码库)", re.I)

_FILE_EXTENSIONS = word_set(
    "py pyi ipynb md rst txt json jsonl yaml yml toml ini cfg conf env lock js jsx ts tsx mjs cjs css scss "
    "html htm vue svelte rs go java kt kts scala c h cc cpp hpp cs rb php swift m sh bash zsh ps1 bat sql "
    "cypher cql graphql proto csv tsv parquet xml pdf docx xlsx pptx png jpg jpeg gif svg log dockerfile"
)
_EXT_ALT = "|".join(sorted(_FILE_EXTENSIONS, key=lambda e: (-len(e), e)))  # longest first
_PSEG = r"[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*"  # one path segment (ASCII: a Chinese neighbour is not part of it)
_PATH_RES: tuple[re.Pattern[str], ...] = (
    # Windows: C:\Users\me\notes.md
    re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]:\\(?:[^\\/:*?\"<>|\s]+\\)*[^\\/:*?\"<>|\s，。]*"),
    # explicitly relative or home-relative: ./a/b.md, ../x, ~/notes
    re.compile(rf"(?<![A-Za-z0-9_./~-])(?:\.{{1,2}}/|~/)(?:{_PSEG}/)*{_PSEG}/?"),
    # absolute: /etc/hosts, /var/log/app.log (at least two segments, so "/help" is not a path)
    re.compile(rf"(?<![A-Za-z0-9_./~:-])/(?:{_PSEG}/)+{_PSEG}"),
    # relative with an extension: src/x.py, docs/guide/intro.md
    re.compile(rf"(?<![A-Za-z0-9_./~:-])(?:{_PSEG}/)+{_PSEG}\.[A-Za-z0-9]{{1,10}}(?![A-Za-z0-9_/])"),
    # a bare file name with a known extension: README.md, brain.yml
    re.compile(rf"(?<![A-Za-z0-9_./\\-])[A-Za-z0-9_-][A-Za-z0-9_.-]*\.(?:{_EXT_ALT})(?![A-Za-z0-9_])", re.I),
)

# Quoted terms: what the user delimited. 《》 marks a title; backticks mark code.
_QUOTE_RES: tuple[tuple[re.Pattern[str], EntityKind], ...] = (
    (re.compile(r"「([^「」\n]{1,40})」"), "concept"),
    (re.compile(r"『([^『』\n]{1,40})』"), "concept"),
    (re.compile(r"“([^“”\n]{1,40})”"), "concept"),
    (re.compile(r"《([^《》\n]{1,40})》"), "concept"),
    (re.compile(r"\"([^\"\n]{1,40})\""), "concept"),
    (re.compile(r"`([^`\n]{1,40})`"), "concept"),
)

_NER_KIND: dict[str, EntityKind] = {
    "PERSON": "person",
    "ORG": "org",
    "PRODUCT": "concept",
    "WORK_OF_ART": "concept",
    "EVENT": "concept",
    "LAW": "concept",
    "LANGUAGE": "concept",
    "GPE": "other",
    "LOC": "other",
    "FAC": "other",
    "NORP": "other",
}  # DATE, TIME, MONEY, PERCENT, QUANTITY, ORDINAL, CARDINAL are values, not entities: skipped.

# jieba POS flags → kind. nrt (transliterated names) is mostly brands and companies (阿里巴巴): a concept.
_ZH_POS_KIND: dict[str, EntityKind] = {
    "nr": "person",
    "nrfg": "person",
    "nrt": "concept",
    "nt": "org",
    "ns": "other",
    "nz": "concept",
}

# jieba's dictionary tags some common nouns as person names (索引 "index" is "nr"): a Chinese person name
# it finds counts as one only when it starts with a common surname (the ~200 most frequent, and the
# usual compound ones); otherwise it is a topic. A rare surname loses only the kind, not the entity.
_ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武"
    "戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮"
    "柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古"
    "吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫"
    "寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
_ZH_COMPOUND_SURNAMES = ("欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "尉迟", "公孙", "慕容", "长孙", "令狐", "夏侯")


def plausible_zh_person(word: str) -> bool:
    if not 2 <= len(word) <= 4 or not all(is_han(c) for c in word):
        return False
    return word[0] in _ZH_SURNAMES or word.startswith(_ZH_COMPOUND_SURNAMES)


# Shape rules for Latin proper nouns and identifiers: (pattern, kind).
_PROPER_RES: tuple[tuple[re.Pattern[str], EntityKind], ...] = (
    (re.compile(r"\b[A-Z][a-z0-9]+(?:[ \t]+[A-Z][a-zA-Z0-9]+)+\b"), "concept"),  # Memory Store Service
    (re.compile(r"\b[A-Z]?[a-z]+(?:[A-Z][a-z0-9]+)+\b"), "concept"),  # GraphBrain, iPhone, camelCase
    (re.compile(r"\b[A-Z][A-Za-z]*[0-9][A-Za-z0-9]*\b"), "concept"),  # Neo4j, GPT4, S3
    (re.compile(r"\b[A-Z]{2,}[0-9]*\b"), "concept"),  # API, NER
    (re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"), "concept"),  # snake_case identifiers
)
_SINGLE_CAP_RE = re.compile(r"\b[A-Z][a-z]{2,}\b")
# Capitalised words that are not names (shouting, calendar words, chat acronyms).
_NOT_PROPER = word_set(
    """
    todo fixme note ok fyi asap lol btw imo imho tbd tba wip eod pm am ps faq
    monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday
    january february march april may june july august september october november december
    """
)

# "remember X" / "记住 X": a user declaration that X matters. "以后都按 X" ("from now on, do it X's way")
# declares a standing rule. Shared with extraction and the entity gate so that all three agree.
REMEMBER_RES: tuple[re.Pattern[str], ...] = (
    re.compile(r"\b(?:please\s+)?(?:remember|keep in mind|don['’]?t forget)\s*(?:that\s+|[:,]\s*)?(?P<x>.+)", re.I),
    re.compile(r"(?:请|帮我)?(?:记住|记一下|记下来|记下|别忘了)[:：，,]?\s*(?P<x>.+)"),
)
FROM_NOW_ON_RES: tuple[re.Pattern[str], ...] = (
    re.compile(r"以后(?:都|请|就)?(?:按|按照|照)\s*(?P<x>.+)"),
    re.compile(r"\b(?:from now on|going forward)[,]?\s+(?:always\s+)?(?:follow|use)\s+(?P<x>.+)", re.I),
)


def remember_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the X in each "remember X" / "记住 X" / "以后都按 X" of ``text``."""
    spans: list[tuple[int, int]] = []
    for rx in REMEMBER_RES + FROM_NOW_ON_RES:
        for m in rx.finditer(text):
            if not re.match(r"\s*to\b", m.group("x"), re.I):  # "don't forget to X" is a task, not a fact
                spans.append((m.start("x"), m.end("x")))
    return spans


def _strip_url(raw: str) -> str:
    url = raw.rstrip(_URL_TRAILING)
    # A closing parenthesis belongs to the URL only when it balances one inside it (Wikipedia-style).
    while url.endswith(")") and url.count("(") < url.count(")"):
        url = url[:-1].rstrip(_URL_TRAILING)
    return url


def _repo_from_url(url: str) -> str | None:
    parts = urlsplit(url if "://" in url else "https://" + url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    segs = [s for s in parts.path.split("/") if s]
    if host in _REPO_HOSTS and len(segs) >= 2 and segs[0].lower() not in _REPO_RESERVED_OWNERS:
        return f"{segs[0]}/{segs[1].removesuffix('.git')}"
    return None


def _structural(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    url_spans: list[tuple[int, int]] = []
    for m in _URL_RE.finditer(text):
        url = _strip_url(m.group())
        start, end = m.start(), m.start() + len(url)
        url_spans.append((start, end))
        repo = _repo_from_url(url)
        canonical = normalize_url(url)
        if repo is not None:
            out.append(EntityCandidate(repo, canonicalize(repo, "repo"), "repo", start, end, "repo"))
            if canonical.count("/") > 4:  # a page inside the repo (blob, issue, PR) is also a URL of its own
                out.append(EntityCandidate(url, canonical, "url", start, end, "url"))
        else:
            out.append(EntityCandidate(url, canonical, "url", start, end, "url"))

    def free(s: int, e: int) -> bool:
        return not any(s < ue and us < e for us, ue in url_spans)

    for m in _SSH_REPO_RE.finditer(text):
        name = f"{m.group('owner')}/{m.group('name')}"
        out.append(EntityCandidate(m.group(), canonicalize(name, "repo"), "repo", m.start(), m.end(), "repo"))
        url_spans.append((m.start(), m.end()))
    for m in _BARE_REPO_RE.finditer(text):
        if not free(m.start(), m.end()):
            continue
        cued = _REPO_CUE_BEFORE_RE.search(text[max(0, m.start() - 30) : m.start()]) or _REPO_CUE_AFTER_RE.match(
            text[m.end() : m.end() + 15]
        )
        if cued and m.group("owner").lower() not in EN_STOP_WORDS:
            name = m.group().rstrip(".")
            out.append(
                EntityCandidate(name, canonicalize(name, "repo"), "repo", m.start(), m.start() + len(name), "repo")
            )
    for rx in _PATH_RES:
        for m in rx.finditer(text):
            path = m.group().rstrip(".,;:")
            if path and free(m.start(), m.start() + len(path)):
                end = m.start() + len(path)
                out.append(EntityCandidate(path, canonicalize(path, "file"), "file", m.start(), end, "path"))
    return out


def _quoted(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    for rx, kind in _QUOTE_RES:
        for m in rx.finditer(text):
            inner = m.group(1).strip()
            # A quoted sentence is a citation, not a name: keep short phrases only.
            if not inner or len(inner.split()) > 6 or re.search(r"[。！？!?]", inner):
                continue
            canonical = canonicalize(inner, kind)
            if canonical:
                out.append(EntityCandidate(inner, canonical, kind, m.start(1), m.end(1), "quoted"))
    return out


_NAME_WORD_RE = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*\.?")


def plausible_person(name: str) -> bool:
    """A name a person could have: one to four capitalised alphabetic words ("Tomás", "Li Na",
    "O'Brien", "Jean-Luc"). The small English model calls "Neo4j" a PERSON; this says no."""
    words = name.split()
    if not 0 < len(words) <= 4:
        return False
    for w in words:
        if not _NAME_WORD_RE.fullmatch(w):
            return False
        for part in re.split(r"['’-]", w.rstrip(".")):
            if not part or not part[0].isupper() or not (len(part) == 1 or part[1:].islower()):
                return False
    return True


_DOC_CACHE_MAX_CHARS = 20_000  # a cached Doc costs memory; long texts are parsed each time


@lru_cache(maxsize=128)
def _cached_en_doc(text: str, spec: str) -> Doc:
    return pipelines.parse(text, "en", NlpConfig(en=spec, zh=pipelines.default_config().zh))


def english_doc(text: str, cfg: NlpConfig | None = None) -> Doc:
    """The English pipeline's parse of ``text``, shared by every reader of the same short text (keywords,
    entities, phrases, the filler test) through a small cache."""
    return _en_doc(text, (cfg or pipelines.default_config()).en)


def _en_doc(text: str, spec: str) -> Doc:
    # Cached per text: keywords and entity detection of one message share one parse.
    if len(text) > _DOC_CACHE_MAX_CHARS:
        return pipelines.parse(text, "en", NlpConfig(en=spec, zh=pipelines.default_config().zh))
    return _cached_en_doc(text, spec)


def _ner(text: str, cfg: NlpConfig | None, doc: Doc | None = None) -> list[EntityCandidate]:
    if doc is None:
        doc = _en_doc(text, (cfg or pipelines.default_config()).en)
    out: list[EntityCandidate] = []
    for ent in doc.ents:
        kind = _NER_KIND.get(ent.label_)
        name = ent.text.strip()
        if kind is None or has_cjk(name) or len(name) < 2 or name.lower() in STOP_WORDS:
            continue
        if kind == "person" and not plausible_person(name):
            kind = "concept"
        canonical = canonicalize(name, kind)
        if canonical and not canonical.isdigit():
            out.append(EntityCandidate(name, canonical, kind, ent.start_char, ent.start_char + len(name), "ner"))
    return out


def _sentence_start(text: str, pos: int) -> bool:
    before = text[:pos].rstrip()
    return not before or before[-1] in '.!?。！？\n:：;；"“「'


def _proper_nouns(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    for rx, kind in _PROPER_RES:
        for m in rx.finditer(text):
            words = m.group().split()
            start = m.start()
            # "The Memory Store" / "We Decided": drop capitalised function words in front.
            while words and (words[0].lower() in EN_STOP_WORDS or words[0].lower() in _NOT_PROPER):
                start = text.index(words[0], start) + len(words[0])
                start += len(text[start:]) - len(text[start:].lstrip())
                words = words[1:]
            if not words:
                continue
            name = " ".join(words)
            if len(words) == 1 and (name.lower() in _NOT_PROPER or re.fullmatch(r"[Vv]\d+", name)):
                continue
            if len(words) == 1 and rx is _PROPER_RES[0][0] and _sentence_start(text, start):
                continue
            end = start + len(text[start : m.end()].rstrip())
            out.append(EntityCandidate(text[start:end], canonicalize(name, kind), kind, start, end, "proper_noun"))
    for m in _SINGLE_CAP_RE.finditer(text):
        word = m.group()
        # Mid-sentence capitals are names ("we'll use Postgres"); sentence-initial ones usually are not.
        if word.lower() in EN_STOP_WORDS or word.lower() in _NOT_PROPER or _sentence_start(text, m.start()):
            continue
        out.append(EntityCandidate(word, canonicalize(word, "concept"), "concept", m.start(), m.end(), "proper_noun"))
    return out


def _zh_tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    for word, flag in pipelines.posseg(text):
        start = text.find(word, pos)
        if start < 0:
            continue
        pos = start + len(word)
        out.append((word, flag, start))
    return out


# Chinese occupations ("后端工程师", "产品经理"): shared with extraction's profile rules.
ZH_OCCUPATIONS = (
    r"工程师|程序员|开发者|开发|设计师|产品经理|经理|学生|老师|教师"
    r"|研究员|架构师|科学家|分析师|运维|测试|创始人|实习生"
)
_ZH_WORKPLACE_RE = re.compile(
    r"(?:在|于)\s*(?P<x>[^\s，,。；;：:、在我们你他她]{2,10}?)\s*(?:工作|上班|任职|实习"
    rf"|(?:做|当|担任)(?=[^，,。；;]{{0,12}}(?:{ZH_OCCUPATIONS})))"
    r"|(?:跟|和|与)\s*(?P<y>[^\s，,。；;：:、的]{2,10}?)\s*的人"
)


# Chinese verbs said of a person: a Latin-script name before one is a person ("Alice 负责", "Alice 下周五前会…").
_ZH_PERSON_AFTER_RE = re.compile(
    r"^\s*(?:(?:今天|明天|后天|下周.|这周.|本周.|周.|月底|月初|下个?月)(?:前|之前|以前)?\s*)?(?:已经|正在|也|还|都|就|刚)?"
    r"\s*(?:负责|说|会|要|在做|在写|在查|在修|觉得|认为|建议|同意|提出|答应|表示|发现|提交|批准|审核|安排|加入|离开|带|把|来做)"
)
_ZH_PERSON_BEFORE_RE = re.compile(r"(?:由|让|请|找|问|告诉|通知|交给|抄送)\s*$")
# What a statement of responsibility is about: "Helm chart 由 Dana 负责", "张伟负责计费服务"; a name defined
# as a component: "Atlas 是我们的搜索服务" (搜索服务 is what Atlas is, not a second thing).
_ZH_RESPONSIBLE = r"(?:负责|维护|管理|主导|牵头|跟进|主管)"
_ZH_OWNED_RE = re.compile(rf"(?P<obj>[^，,。；;由]{{2,24}}?)\s*由\s*[^，,。；;]{{1,20}}?\s*{_ZH_RESPONSIBLE}")
_ZH_OWNS_RE = re.compile(rf"{_ZH_RESPONSIBLE}\s*(?P<obj>[^，,。；;]{{2,24}})")
_ZH_DEFINED_RE = re.compile(
    r"(?:^|(?<=[，,；;]))\s*(?P<x>[^，,。；;是]{2,24}?)\s*是\s*(?:我们|咱们|公司|团队)?的?\s*(?:一个|新的?|主要的?)?"
    r"\s*(?P<y>[^，,。；;]{2,16}?)\s*(?=[，,。；;]|$)"
)


def _zh_roles(text: str, cands: list[EntityCandidate]) -> list[EntityCandidate]:
    """Chinese context the English parse cannot see: a Latin-script name a person-verb is said of is a
    person; what a responsibility or a definition is about is marked ``about``; the category of a
    definition is dropped."""
    from graphbrain.nlp.entities import ZH_COMPONENT_HEADS

    about: list[tuple[int, int]] = []
    category: list[tuple[int, int]] = []
    for rx in (_ZH_OWNED_RE, _ZH_OWNS_RE):
        about += [(m.start("obj"), m.end("obj")) for m in rx.finditer(text)]
    for m in _ZH_DEFINED_RE.finditer(text):
        if any(m.group("y").endswith(h) for h in ZH_COMPONENT_HEADS):
            about.append((m.start("x"), m.end("x")))
            category.append((m.start("y"), m.end("y")))
    out: list[EntityCandidate] = []
    for c in cands:
        if any(s <= c.start and c.end <= e for s, e in category) and c.kind == "concept":
            continue
        if (
            c.kind == "concept"
            and not has_cjk(c.name)
            and plausible_person(c.name)
            and (_ZH_PERSON_AFTER_RE.match(text[c.end : c.end + 16]) or _ZH_PERSON_BEFORE_RE.search(text[: c.start]))
        ):
            c = replace(c, kind="person", canonical=canonicalize(c.name, "person"), signal="ner", argument=True)
        if any(s <= c.start and c.end <= e for s, e in about):
            c = replace(c, argument=True, about=True)
        out.append(c)
    return out


_ZH_ORG_SUFFIXES = word_set("集团 公司 银行 科技 大学 研究院")


def _zh_org_suffix(prev: str, prev_flag: str, word: str) -> bool:
    if len(prev) < 2 or not is_han(prev[0]):
        return False
    if word == "云":  # a cloud provider: 阿里云, 腾讯云, 华为云
        return prev_flag in ("nz", "nr", "nrt", "nt", "ns")
    return word in _ZH_ORG_SUFFIXES and prev_flag in ("nz", "nr", "nrt", "nt", "ns", "n", "a")


def _joins_eng_run(text: str, word: str, start: int, last: tuple[int, int]) -> bool:
    """A token that continues an English name inside Chinese: "-" / "_" / "." right between two English
    words (cert-manager), or a whole number after a word in capitals (PEP 8, ISO 9001; not Neo4j 5.26)."""
    if word in ("-", "_", ".") and start == last[1] and re.match(r"[A-Za-z]", text[start + 1 : start + 2]):
        return True
    prev = text[last[0] : last[1]]
    return word.isdigit() and len(word) <= 5 and prev.isupper() and text[last[1] : start].strip() == ""


def _zh_nouns(text: str) -> list[EntityCandidate]:
    """Chinese names by jieba POS (a person needs a common surname), workplaces (在 X 工作), component
    compounds (计费服务, 上海机房, Redis 集群), and the English names inside Chinese text."""
    from graphbrain.nlp.entities import EN_COMPONENT_HEADS, zh_compounds, zh_kind

    out: list[EntityCandidate] = []
    tokens = _zh_tokens(text)
    eng_run: list[tuple[int, int]] = []  # consecutive English words (jieba "eng"), merged into one phrase

    def flush() -> None:
        if eng_run:
            s, e = eng_run[0][0], eng_run[-1][1]
            phrase = text[s:e]
            words = phrase.split()
            # "Helm chart 由 Dana 负责": the name is Helm; a lowercase noun after it says what of it, unless
            # it is a component head ("billing service" is the name of a component).
            while len(words) > 1 and words[-1].islower() and words[-1].rstrip("s") not in EN_COMPONENT_HEADS:
                if not any(not w.islower() for w in words[:-1]):
                    break
                e = s + phrase.rindex(words[-1]) - 1
                while e > s and text[e - 1].isspace():
                    e -= 1
                phrase, words = text[s:e], words[:-1]
            # A name (Neo4j, GitHub Actions, RRF, cert-manager) or a component ("billing service"); a
            # lowercase common noun said in English ("schema", "unit tests") is not one.
            named = (
                any(not w.islower() for w in words)
                or any(re.search(r"[a-z][-_.][a-z]|[a-z]{2}\d", w) for w in words)
                or (len(words) >= 2 and words[-1].lower().rstrip("s") in EN_COMPONENT_HEADS)
            )
            if named and phrase.lower() not in EN_STOP_WORDS and len(phrase) >= 2:
                # Said as one English phrase inside Chinese: a stronger reading than its words one by one
                # (the English model, reading Chinese, finds "Runner" in "GitLab Runner").
                signal: EntitySignal = "ner" if len(words) > 1 and words[0][:1].isupper() else "proper_noun"
                out.append(EntityCandidate(phrase, canonicalize(phrase, "concept"), "concept", s, e, signal, True))
            eng_run.clear()

    prev: tuple[str, str, int] | None = None
    for word, flag, start in tokens:
        end = start + len(word)
        if prev is not None and prev[2] + len(prev[0]) == start and _zh_org_suffix(prev[0], prev[1], word):
            # 阿里云, 腾讯云, 平安集团: a name and an organisation's suffix
            name = prev[0] + word
            out.append(EntityCandidate(name, canonicalize(name, "org"), "org", prev[2], end, "ner", True))
        prev = (word, flag, start)
        if flag == "eng" or (eng_run and _joins_eng_run(text, word, start, eng_run[-1])):
            eng_run.append((start, end))
            continue
        if not word.isspace():
            flush()
        kind = zh_kind(text, word, flag, start)
        if kind is not None and len(word) >= 2 and word not in ZH_STOP_WORDS:
            out.append(EntityCandidate(word, canonicalize(word, kind), kind, start, end, "zh_noun", kind == "person"))
    flush()
    for m in _ZH_WORKPLACE_RE.finditer(text):
        g = "x" if m.group("x") else "y"
        name = m.group(g)
        out.append(EntityCandidate(name, canonicalize(name, "org"), "org", m.start(g), m.end(g), "ner", True))
    out += zh_compounds(text, tokens)
    return out


def _remembered(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    for s, e in remember_spans(text):
        phrase = re.split(r"[，,。.;；!！?？]", text[s:e], maxsplit=1)[0].strip()
        short = len(phrase.split()) <= 5 if not has_cjk(phrase) else len(phrase) <= 12
        if phrase and short:
            canonical = canonicalize(phrase, "concept")
            if canonical:
                out.append(EntityCandidate(phrase, canonical, "concept", s, s + len(phrase), "remember"))
    return out


def _resolve(cands: Iterable[EntityCandidate]) -> list[EntityCandidate]:
    """Drop candidates that overlap a better one, give each canonical one kind, one candidate per key."""
    ordered = sorted(cands, key=lambda c: (_SIGNAL_PRIORITY[c.signal], c.start, -(c.end - c.start)))
    accepted: list[EntityCandidate] = []
    for c in ordered:
        clash = False
        for a in accepted:
            if c.start < a.end and a.start < c.end:
                # A repo and a URL found in the same URL are two facts about one span; everything else
                # that overlaps a better candidate is the same text seen by a weaker rule.
                same_url = (c.start, c.end) == (a.start, a.end) and {c.signal, a.signal} == {"url", "repo"}
                # A component compound and a known name inside it are both real ("Orion gateway",
                # "Orion"); an unknown one is part of the compound (上海 in 上海机房).
                nested = (
                    {c.signal, a.signal} == {"compound", "known"}
                    and (c.start, c.end) != (a.start, a.end)
                    and ((a.start <= c.start and c.end <= a.end) or (c.start <= a.start and a.end <= c.end))
                )
                if not same_url and not nested:
                    clash = True
                    break
        if not clash:
            accepted.append(c)
    kind_of: dict[str, EntityKind] = {}
    for c in accepted:  # accepted is in priority order: the strongest signal fixes the kind
        if c.kind not in ("url", "repo", "file"):
            kind_of.setdefault(c.canonical, c.kind)
    seen: set[tuple[str, str]] = set()
    out: list[EntityCandidate] = []
    for c in sorted(accepted, key=lambda c: c.start):
        if c.kind not in ("url", "repo", "file"):
            c = replace(c, kind=kind_of[c.canonical])
        key = (c.kind, c.canonical)
        if key in seen or not c.canonical:
            continue
        seen.add(key)
        out.append(c)
    return out


def structural_entities(text: str) -> list[EntityCandidate]:
    """Only the shape-found candidates (URLs, repos, paths): cheap, no model involved."""
    return _resolve(_structural(text))


def english_docs(texts: Sequence[str], langs: Sequence[str | None], cfg: NlpConfig | None = None) -> list[Doc | None]:
    """The spaCy Docs ``entity_candidates`` would parse for ``texts`` (English or mixed ones; None for
    the rest), in one batched pass: for a caller with many texts, such as a document's chunks."""
    wanted = [
        i for i, (t, lang) in enumerate(zip(texts, langs, strict=True))
        if t.strip() and (lang or detect_language(t)) in ("en", "mixed")
    ]  # fmt: skip
    out: list[Doc | None] = [None] * len(texts)
    if wanted:
        for i, doc in zip(wanted, pipelines.parse_many([texts[i] for i in wanted], "en", cfg), strict=True):
            out[i] = doc
    return out


def entity_candidates(
    text: str,
    lang: str | None = None,
    *,
    cfg: NlpConfig | None = None,
    en_doc: Doc | None = None,
    lexicon: Mapping[str, tuple[str, str]] | None = None,
) -> list[EntityCandidate]:
    """Possible entity mentions in ``text``, one per (kind, canonical), in text order.

    Sources, strongest first: URLs (github-like URLs become repos), ``owner/name`` repos near a repo cue,
    file paths; quoted terms (「」 “” 《》 "" ``); English NER (spaCy, for en / mixed text); Latin proper
    nouns and identifiers by shape (Capitalised Words, CamelCase, Neo4j-style, ACRONYMS, snake_case);
    Chinese nouns by jieba POS (nr person, nt org, ns / nrt other, nz topic, runs of English words
    inside Chinese text as topics); short "remember X" objects. A candidate overlapping a stronger one
    is dropped. ``en_doc``: the text's spaCy parse when the caller has it already (``english_docs``).
    ``lexicon``: names the namespace already knows (as written → (kind, canonical)), found first and
    with their known kind (the entity ruler). Kinds: see ``graphbrain.nlp.entities``.
    """
    from graphbrain.nlp.entities import common_abbreviation, en_candidates, known_names

    if not text.strip():
        return []
    lang = lang or detect_language(text)
    cands: list[EntityCandidate] = []
    cands += _structural(text)
    cands += known_names(text, lexicon or {})
    cands += _quoted(text)
    if lang in ("en", "mixed") and pipelines.has_component("en", "parser", cfg):
        doc = en_doc if en_doc is not None else _en_doc(text, (cfg or pipelines.default_config()).en)
        cands += en_candidates(text, doc, strict=lang == "mixed" or has_cjk(text))
    elif lang in ("en", "mixed"):
        cands += _ner(text, cfg, en_doc)
    cands += _proper_nouns(text)
    if lang in ("zh", "mixed") or has_cjk(text):
        cands += _zh_nouns(text)
    cands += _remembered(text)
    if has_cjk(text):
        cands = _zh_roles(text, cands)
    # Abbreviations of common nouns (API, VPN, PR) are words; dropped before overlaps are settled, so
    # that the compound around one ("ETL pipeline") is what is found.
    cands = [
        c for c in cands if c.signal in ("known", "quoted") or c.kind != "concept" or not common_abbreviation(c.name)
    ]
    return _resolve(cands)


# --------------------------------------------------------------------------------------- keywords
# jieba POS flags of nouns and noun-like words worth a keyword (vn: verbal nouns such as 测试, 部署).
_ZH_KEYWORD_POS = ("n", "nr", "nrfg", "nrt", "ns", "nt", "nz", "vn", "eng")
_CHUNK_EDGE_POS = frozenset({"DET", "PRON", "ADP", "PUNCT", "CCONJ", "PART", "NUM", "AUX", "SCONJ"})


def _noun_chunks(text: str, cfg: NlpConfig | None) -> list[tuple[str, int]]:
    spec = (cfg or pipelines.default_config()).en
    if not pipelines.has_component("en", "parser", cfg):
        return []
    doc = _en_doc(text, spec)
    out: list[tuple[str, int]] = []
    for chunk in doc.noun_chunks:
        toks = list(chunk)
        # Trim determiners, pronouns and stop words at both ends: "the memory store" → "memory store".
        while toks and (toks[0].pos_ in _CHUNK_EDGE_POS or toks[0].lower_ in STOP_WORDS):
            toks = toks[1:]
        while toks and (toks[-1].pos_ in _CHUNK_EDGE_POS or toks[-1].lower_ in STOP_WORDS):
            toks = toks[:-1]
        # The small parser sometimes glues coordinated phrases into one chunk; a key term is short.
        if not toks or len(toks) > 5 or any(t.pos_ in ("PUNCT", "CCONJ") for t in toks):
            continue
        phrase = text[toks[0].idx : toks[-1].idx + len(toks[-1].text)]
        if has_cjk(phrase) or len(phrase) < 2:
            continue
        out.append((phrase, toks[0].idx))
    return out


def _contains_term(phrase: str, term: str) -> bool:
    if has_cjk(term):
        return term in phrase  # Chinese has no word boundaries: 图谱 is part of 知识图谱
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", phrase) is not None


def keywords(text: str, k: int = 8, *, cfg: NlpConfig | None = None) -> list[str]:
    """Up to ``k`` key terms of ``text``, best first, as written (deduplicated case-insensitively).

    Scores: entity candidates 3 (structural ones 4), English noun chunks 2, Chinese TF-IDF nouns
    (jieba.analyse) 2 × their relative weight, any other content word 1 per occurrence. Ties go to the
    term that appears first. Used for query expansion and for one-line (L0) abstracts.
    """
    if not text.strip() or k <= 0:
        return []
    lang = detect_language(text)
    scores: dict[str, list[float | int | str]] = {}  # lowercase term → [score, first position, surface]

    def add(term: str, pos: int, weight: float) -> None:
        term = term.strip()
        low = term.casefold()
        if not term or low in KEY_TERM_STOP_WORDS:
            return
        entry = scores.get(low)
        if entry is None:
            scores[low] = [weight, pos, term]
        else:
            entry[0] = float(entry[0]) + weight
            entry[1] = min(int(entry[1]), pos)

    for c in entity_candidates(text, lang, cfg=cfg):
        add(c.name, c.start, 4.0 if c.structural else 3.0)
    if lang in ("en", "mixed"):
        for phrase, pos in _noun_chunks(text, cfg):
            add(phrase, pos, 2.0)
    if has_cjk(text):
        han_only = " ".join(HAN_RUN_RE.findall(text))
        tags = pipelines.extract_tags(han_only, k * 2, _ZH_KEYWORD_POS)
        top = max((w for _, w in tags), default=1.0) or 1.0
        for word, weight in tags:
            pos = text.find(word)
            add(word, pos if pos >= 0 else len(text), 2.0 * weight / top)
    for m in LATIN_WORD_RE.finditer(text):
        word = m.group()
        if len(word) >= 3 and _en_word(word) not in KEY_TERM_STOP_WORDS and not word.isdigit():
            add(word, m.start(), 1.0)

    # A single word already covered by a chosen longer phrase adds nothing to a query or an abstract.
    ranked = sorted(scores.values(), key=lambda e: (-float(e[0]), int(e[1])))
    out: list[str] = []
    for entry in ranked:
        term = str(entry[2])
        low = term.casefold()
        if any(low != o.casefold() and _contains_term(o.casefold(), low) for o in out):
            continue
        out.append(term)
        if len(out) >= k:
            break
    return out
