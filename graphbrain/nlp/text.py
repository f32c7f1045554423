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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from graphbrain.config import NlpConfig
from graphbrain.nlp import pipelines

if TYPE_CHECKING:
    from spacy.tokens import Doc

Language = Literal["zh", "en", "mixed", "other"]
EntityKind = Literal["person", "org", "repo", "file", "url", "topic", "other"]
EntitySignal = Literal["ner", "url", "repo", "path", "proper_noun", "quoted", "remember", "zh_noun"]

# --------------------------------------------------------------------------------------- characters
# Han ideographs (CJK Unified + Extension A, compatibility ideographs, Extensions B..F).
_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef"
CJK_RE = re.compile(f"[{_CJK_CLASS}]")
CJK_RUN_RE = re.compile(f"[{_CJK_CLASS}]+")
# A Latin-script word or number, keeping internal . _ ' + # - so that "neo4j", "5.26", "v1.2", "c#",
# "snake_case" and "e-mail" stay one token.
LATIN_WORD_RE = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+(?:[._'+-][A-Za-z0-9\u00c0-\u024f]+)*")
_TOKEN_RUN_RE = re.compile(f"[{_CJK_CLASS}]+|" + LATIN_WORD_RE.pattern)


def is_cjk(ch: str) -> bool:
    return bool(CJK_RE.match(ch))


def has_cjk(text: str) -> bool:
    return CJK_RE.search(text) is not None


# --------------------------------------------------------------------------------------- stop words
def word_set(*chunks: str) -> frozenset[str]:
    """A frozenset of the whitespace-separated words in ``chunks`` (for word tables kept readable)."""
    return frozenset(w for chunk in chunks for w in chunk.split())


# Small on purpose: these lists drop function words from search tokens and keys, not content words.
EN_STOP_WORDS: frozenset[str] = word_set(
    """
    a an the and or but if then else so of to in on at by for with from into onto about as than
    is are was were be been being am do does did done doing have has had having will would shall
    should can could may might must i me my mine we us our ours you your yours he him his she her
    hers it its they them their theirs this that these those there here what which who whom whose
    when where why how all any both each few more most other some such no nor not only own same too
    very just also again ever s t don't i'm i'll i've i'd we're we'll we've it's that's let's lets
    let please ok okay yes yeah oh up down out over under off now http https www
    """
)
ZH_STOP_WORDS: frozenset[str] = word_set(
    """
    的 了 着 过 是 在 和 与 及 或 而 但 就 都 也 还 又 很 太 更 最 把 被 让 给 对 向 从 到 为 以 于
    这 那 这个 那个 这些 那些 这里 那里 哪 哪个 什么 怎么 怎样 为什么 吗 呢 吧 啊 呀 哦 嗯 哈 啦
    我 你 他 她 它 我们 你们 他们 她们 它们 咱们 自己 大家 一个 一下 一些 有 没 没有 不 要 会 能
    可以 可能 应该 需要 就是 还是 然后 所以 因为 如果 虽然 但是 而且 并且 或者 以及 之 其 等 等等
    个 些 用 做 来 去 上 下 里 中 后 前 时 时候 现在 已经 正在 请 好 好的 谢谢
    """
)
STOP_WORDS: frozenset[str] = EN_STOP_WORDS | ZH_STOP_WORDS


# --------------------------------------------------------------------------------------- language
def detect_language(text: str) -> Language:
    """ "zh", "en", "mixed" or "other", from the share of Han characters among the letters.

    A Han character carries about as much as three Latin letters, so Latin letters count 1/3 each:
    share = han / (han + latin / 3). ``zh`` when share >= 0.7, ``en`` when it is below 0.1,
    ``mixed`` in between; ``other`` when there are no letters, or when other scripts (Cyrillic,
    kana, Arabic, ...) outnumber the Han and Latin letters together.
    "我们用 Neo4j 做存储" is zh (0.78); "我们决定用 Neo4j 5.26 做 memory store" is mixed (0.53).
    """
    han = latin = other = 0
    for ch in text:
        if is_cjk(ch):
            han += 1
        elif ch.isalpha():
            if ch < "\u0250":  # ASCII, Latin-1 and Latin Extended-A/B
                latin += 1
            else:
                other += 1
    if han + latin + other == 0 or other > han + latin:
        return "other"
    share = han / (han + latin / 3)
    if share >= 0.7:
        return "zh"
    if share < 0.1:
        return "en"
    return "mixed"


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
        if is_cjk(run[0]):
            out.extend(w for w in pipelines.cut_for_search(run) if w not in ZH_STOP_WORDS)
        else:
            w = _en_word(run)
            if w and w not in EN_STOP_WORDS:
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
_PUNCT_RE = re.compile(r"[^\w\s]")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate of how many LLM tokens ``text`` costs.

    Rule (rounded up): each Han character = 1.0; each Latin word or number = max(1.3, len / 4)
    (common words are one or two tokens, long identifiers split into pieces of about four letters);
    each other punctuation or symbol character = 0.5. Whitespace is free. The estimate errs on the
    high side for plain English prose, which is the safe side for a budget.
    """
    if not text:
        return 0
    han = len(CJK_RE.findall(text))
    no_han = CJK_RE.sub(" ", text)
    words = LATIN_WORD_RE.findall(no_han)
    rest = LATIN_WORD_RE.sub(" ", no_han)
    punct = len(_PUNCT_RE.findall(rest)) + sum(1 for ch in rest if ch == "_")
    total = han * 1.0 + sum(max(1.3, len(w) / 4) for w in words) + punct * 0.5
    return math.ceil(total)


# --------------------------------------------------------------------------------------- canonical forms
# Query parameters that only track where a click came from; they never change what a URL points to.
_TRACKING_PARAMS = ("utm_",)
_TRACKING_EXACT = frozenset({"fbclid", "gclid", "mc_cid", "mc_eid"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ftp": 21}


def normalize_url(url: str) -> str:
    """One spelling per URL: lowercase scheme and host, no default port, no credentials, no fragment,
    no tracking parameters (utm_*, fbclid, gclid), no trailing slash. "www.x.com/a" gets https://."""
    url = url.strip()
    if url.lower().startswith("www."):
        url = "https://" + url
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    netloc = host
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc = f"{host}:{port}"
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
    "quoted": 3,
    "ner": 4,
    "proper_noun": 5,
    "zh_noun": 6,
    "remember": 7,
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
    (re.compile(r"「([^「」\n]{1,40})」"), "topic"),
    (re.compile(r"『([^『』\n]{1,40})』"), "topic"),
    (re.compile(r"“([^“”\n]{1,40})”"), "topic"),
    (re.compile(r"《([^《》\n]{1,40})》"), "topic"),
    (re.compile(r"\"([^\"\n]{1,40})\""), "topic"),
    (re.compile(r"`([^`\n]{1,40})`"), "other"),
)

_NER_KIND: dict[str, EntityKind] = {
    "PERSON": "person",
    "ORG": "org",
    "PRODUCT": "topic",
    "WORK_OF_ART": "topic",
    "EVENT": "topic",
    "LAW": "topic",
    "LANGUAGE": "topic",
    "GPE": "other",
    "LOC": "other",
    "FAC": "other",
    "NORP": "other",
}  # DATE, TIME, MONEY, PERCENT, QUANTITY, ORDINAL, CARDINAL are values, not entities: skipped.

# jieba POS flags → kind. nrt (transliterated names) is mostly brands and companies (阿里巴巴), so "other".
_ZH_POS_KIND: dict[str, EntityKind] = {
    "nr": "person",
    "nrfg": "person",
    "nrt": "other",
    "nt": "org",
    "ns": "other",
    "nz": "topic",
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


def _plausible_zh_person(word: str) -> bool:
    if not 2 <= len(word) <= 4 or not all(is_cjk(c) for c in word):
        return False
    return word[0] in _ZH_SURNAMES or word.startswith(_ZH_COMPOUND_SURNAMES)


# Shape rules for Latin proper nouns and identifiers: (pattern, kind).
_PROPER_RES: tuple[tuple[re.Pattern[str], EntityKind], ...] = (
    (re.compile(r"\b[A-Z][a-z0-9]+(?:[ \t]+[A-Z][a-zA-Z0-9]+)+\b"), "topic"),  # Memory Store Service
    (re.compile(r"\b[A-Z]?[a-z]+(?:[A-Z][a-z0-9]+)+\b"), "topic"),  # GraphBrain, iPhone, camelCase
    (re.compile(r"\b[A-Z][A-Za-z]*[0-9][A-Za-z0-9]*\b"), "topic"),  # Neo4j, GPT4, S3
    (re.compile(r"\b[A-Z]{2,}[0-9]*\b"), "topic"),  # API, NER
    (re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"), "other"),  # snake_case identifiers
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


def _plausible_person(name: str) -> bool:
    # The small English model calls "Neo4j" a PERSON; real names are alphabetic capitalised words.
    return all(re.fullmatch(r"[A-Z][a-z'’-]+\.?", w) for w in name.split())


_DOC_CACHE_MAX_CHARS = 20_000  # a cached Doc costs memory; long texts are parsed each time


@lru_cache(maxsize=128)
def _cached_en_doc(text: str, spec: str) -> Doc:
    return pipelines.parse(text, "en", NlpConfig(en=spec, zh=pipelines.default_config().zh))


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
        if kind == "person" and not _plausible_person(name):
            kind = "topic"
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
        out.append(EntityCandidate(word, canonicalize(word, "topic"), "topic", m.start(), m.end(), "proper_noun"))
    return out


def _zh_nouns(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    pos = 0
    eng_run: list[tuple[int, int]] = []  # consecutive English words (jieba "eng"), merged into one phrase

    def flush() -> None:
        if eng_run:
            s, e = eng_run[0][0], eng_run[-1][1]
            phrase = text[s:e]
            if phrase.lower() not in EN_STOP_WORDS and len(phrase) >= 2:
                out.append(EntityCandidate(phrase, canonicalize(phrase, "topic"), "topic", s, e, "zh_noun"))
            eng_run.clear()

    for word, flag in pipelines.posseg(text):
        start = text.find(word, pos)
        if start < 0:
            continue
        end = start + len(word)
        pos = end
        if flag == "eng":
            eng_run.append((start, end))
            continue
        if not word.isspace():
            flush()
        kind = _ZH_POS_KIND.get(flag)
        if kind == "person" and not _plausible_zh_person(word):
            kind = "topic"
        if kind is not None and len(word) >= 2 and word not in ZH_STOP_WORDS:
            out.append(EntityCandidate(word, canonicalize(word, kind), kind, start, end, "zh_noun"))
    flush()
    return out


def _remembered(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    for s, e in remember_spans(text):
        phrase = re.split(r"[，,。.;；!！?？]", text[s:e], maxsplit=1)[0].strip()
        short = len(phrase.split()) <= 5 if not has_cjk(phrase) else len(phrase) <= 12
        if phrase and short:
            canonical = canonicalize(phrase, "topic")
            if canonical:
                out.append(EntityCandidate(phrase, canonical, "topic", s, s + len(phrase), "remember"))
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
                if not same_url:
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
    text: str, lang: str | None = None, *, cfg: NlpConfig | None = None, en_doc: Doc | None = None
) -> list[EntityCandidate]:
    """Possible entity mentions in ``text``, one per (kind, canonical), in text order.

    Sources, strongest first: URLs (github-like URLs become repos), ``owner/name`` repos near a repo cue,
    file paths; quoted terms (「」 “” 《》 "" ``); English NER (spaCy, for en / mixed text); Latin proper
    nouns and identifiers by shape (Capitalised Words, CamelCase, Neo4j-style, ACRONYMS, snake_case);
    Chinese nouns by jieba POS (nr person, nt org, ns / nrt other, nz topic, runs of English words
    inside Chinese text as topics); short "remember X" objects. A candidate overlapping a stronger one
    is dropped. ``en_doc``: the text's spaCy parse when the caller has it already (``english_docs``).
    """
    if not text.strip():
        return []
    lang = lang or detect_language(text)
    cands: list[EntityCandidate] = []
    cands += _structural(text)
    cands += _quoted(text)
    if lang in ("en", "mixed"):
        cands += _ner(text, cfg, en_doc)
    cands += _proper_nouns(text)
    if lang in ("zh", "mixed") or has_cjk(text):
        cands += _zh_nouns(text)
    cands += _remembered(text)
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
        if not term or low in STOP_WORDS:
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
        han_only = " ".join(CJK_RUN_RE.findall(text))
        tags = pipelines.extract_tags(han_only, k * 2, _ZH_KEYWORD_POS)
        top = max((w for _, w in tags), default=1.0) or 1.0
        for word, weight in tags:
            pos = text.find(word)
            add(word, pos if pos >= 0 else len(text), 2.0 * weight / top)
    for m in LATIN_WORD_RE.finditer(text):
        word = m.group()
        if len(word) >= 3 and _en_word(word) not in EN_STOP_WORDS and not word.isdigit():
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
