"""Entities found by their shape: URLs, repos, file paths, quoted names and "remember X" objects."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from graphbrain.nlp.candidate import EntityCandidate, EntityKind, resolve
from graphbrain.nlp.canonical import canonicalize, normalize_url
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.stopwords import EN_STOP_WORDS, word_set

__all__ = [
    "FROM_NOW_ON_RES",
    "REMEMBER_RES",
    "quoted_candidates",
    "remember_spans",
    "remembered_candidates",
    "structural_candidates",
    "structural_entities",
]

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


def structural_candidates(text: str) -> list[EntityCandidate]:
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


def quoted_candidates(text: str) -> list[EntityCandidate]:
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


def remembered_candidates(text: str) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    for s, e in remember_spans(text):
        phrase = re.split(r"[，,。.;；!！?？]", text[s:e], maxsplit=1)[0].strip()
        short = len(phrase.split()) <= 5 if not has_cjk(phrase) else len(phrase) <= 12
        if phrase and short:
            canonical = canonicalize(phrase, "concept")
            if canonical:
                out.append(EntityCandidate(phrase, canonical, "concept", s, s + len(phrase), "remember"))
    return out


def structural_entities(text: str) -> list[EntityCandidate]:
    """Only the shape-found candidates (URLs, repos, paths): cheap, no model involved."""
    return resolve(structural_candidates(text))
