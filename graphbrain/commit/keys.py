"""Memory keys (CONTRACTS.md §2): stable, readable, scoped.

The same fact must map to the same key however it was phrased, because the conflict policy works per
``type+key``. So keys are built from *normalised* phrases: lowercase, punctuation dropped, articles and
possessives dropped, English words as their spaCy lemma when spaCy knows it ("the tests" and "tests" →
``test``, "deployed" → ``deploy``) and as said otherwise (never a suffix chop), version numbers kept.

    profile:<subject>:<attribute>      profile:user:name
    pref:<scope>:<name>                pref:coding:indentation
    goal:<project>:<name>              goal:graphbrain:ship-v1
    task:<project>:<task_id>           task:graphbrain:add-test-retention-gate
    decision:<project>:<topic>         decision:graphbrain:memory-store
    entity:<kind>:<canonical>          entity:repo:acme/widgets
    event:<scope>:<date>:<slug>        event:graphbrain:2026-02-20:release-v1-2
    case:<domain>:<slug>, pattern:<domain>:<name>

Profile keys carry the attribute (``profile:user:name``): the contract's ``profile:<subject>`` with one
key per attribute, so that "my name is …" and "I live in …" do not overwrite each other.

A project is the one the text names ("for graphbrain" when graphbrain is a known project, "the
graphbrain project", "在 graphbrain 项目里", a repo name), else the caller's default, else "general".
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Collection, Iterable
from datetime import date, datetime
from typing import Literal

from graphbrain.contracts import KEY_PREFIX, MemoryType
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.lemmas import irregular, known, lemma
from graphbrain.nlp.shapes import structural_entities
from graphbrain.nlp.stopwords import EN_STOP_WORDS, word_set

PrefScope = Literal["writing", "coding", "tools", "ui", "other"]
PREF_SCOPES: tuple[PrefScope, ...] = ("writing", "coding", "tools", "ui", "other")
GENERAL_PROJECT = "general"
UNDATED = "undated"
MAX_KEY_PART = 200  # a canonical URL can be long; keys stay well under ExplicitItem's 512

# ------------------------------------------------------------------------------------------ slugs
# A slug token: an ASCII word/number, or a run of non-Latin letters (Chinese kept as written).
_SLUG_TOKEN_RE = re.compile(r"[a-z0-9]+|[^\W\da-z_]+")
# Words that never distinguish one topic from another ("the memory store" = "memory store").
_TOPIC_DROP_EN = frozenset(
    {"the", "a", "an", "our", "my", "your", "their", "its", "this", "that", "these", "those", "some"}
)
_TOPIC_DROP_ZH_RE = re.compile(r"的|(?<!第)一个|这个|那个|我们|咱们")  # 第一个 keeps its 一个


def _ascii_fold(text: str) -> str:
    # "Café" → "cafe": strip accents from Latin letters, leave Chinese (and other scripts) untouched.
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _hash8(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def _join(tokens: Iterable[str], max_len: int) -> str:
    out = ""
    for tok in tokens:
        cand = f"{out}-{tok}" if out else tok
        if len(cand) > max_len:
            if not out:  # a single token longer than the limit (a long Chinese run): cut it
                out = tok[:max_len]
            break
        out = cand
    return out


def slugify(text: str, max_len: int = 48) -> str:
    """A stable slug: lowercase ASCII words and Chinese runs joined by '-', punctuation dropped.

    The same phrase always gives the same slug; it is cut at a word boundary to ``max_len``. Only
    when nothing sluggable is left (empty or all punctuation) is a short hash used: "h-<8 hex>".
    ``slugify(slugify(x)) == slugify(x)``.
    """
    tokens = _SLUG_TOKEN_RE.findall(_ascii_fold(text))
    slug = _join(tokens, max_len)
    return slug or f"h-{_hash8(text)}"


def base_form(word: str) -> str:
    """A lowercase English word as its lemma when spaCy's tables know it ("tests" → "test",
    "deployed" → "deploy", "wrote" → "write"), else as said ("atlas", "kubernetes"): never a suffix
    chop. A word that is itself a noun ("meeting", "setting") stays a noun."""
    w = word.lower()
    if (w.endswith(("ed", "ing")) or irregular(w)) and not known(w, "noun"):
        v = lemma(w, "verb")
        if v != w:
            return v
    n = lemma(w, "noun")
    if n != w:
        return n
    return lemma(w, "verb") if w.endswith("s") else w


_ACRONYM_PLURAL_RE = re.compile(r"[A-Z][A-Z0-9]+s")


def topic_slug(text: str, max_len: int = 48) -> str:
    """A slug for a topic or title: like ``slugify``, but articles, possessives and the Chinese
    filler 的/这个/我们 are dropped and English words written in lowercase take their lemma (a name
    written with a capital, "Windows", "Atlas", stays as said), so that phrasings of one thing agree."""
    text = re.sub(r"['’]s\b", "", unicodedata.normalize("NFKC", text))
    tokens: list[str] = []
    for raw in re.findall(r"[A-Za-z0-9\u00c0-\u024f]+|[^\sA-Za-z0-9\u00c0-\u024f]+", text):
        folded = _TOPIC_DROP_ZH_RE.sub("", _ascii_fold(raw))
        for t in _SLUG_TOKEN_RE.findall(folded):
            if t in _TOPIC_DROP_EN:
                continue
            if _ACRONYM_PLURAL_RE.fullmatch(raw):
                t = t[:-1]  # "PDFs", "APIs", "PRs": the plural of an acronym
            tokens.append(base_form(t) if raw.islower() and t.isalpha() else t)
    slug = _join(tokens, max_len)
    return slug or slugify(text, max_len)


def _part(text: str) -> str:
    """A key's last segment that is already canonical, kept verbatim (it may contain ':', as URLs do;
    read keys with ``split(":", 2)``), with its length bounded by a hash suffix."""
    text = text.strip()
    if len(text) > MAX_KEY_PART:
        text = f"{text[: MAX_KEY_PART - 9]}~{_hash8(text)}"
    return text


def project_slug(project: str | None) -> str:
    if not project or not project.strip():
        return GENERAL_PROJECT
    return slugify(project, 40)


def _date_part(when: date | datetime | str | None) -> str:
    if when is None or when == "":
        return UNDATED
    if isinstance(when, datetime):
        return when.date().isoformat()
    if isinstance(when, date):
        return when.isoformat()
    return slugify(when, 16)


# ------------------------------------------------------------------------------------------ keys
def _key(mtype: MemoryType, *parts: str) -> str:
    return ":".join((KEY_PREFIX[mtype], *parts))


def task_key(project: str | None, title: str) -> str:
    return _key(MemoryType.tasks, project_slug(project), topic_slug(title))


def decision_key(project: str | None, topic: str) -> str:
    return _key(MemoryType.decisions, project_slug(project), topic_slug(topic))


def pref_key(scope: str, name: str) -> str:
    s = scope if scope in PREF_SCOPES else "other"
    return _key(MemoryType.preferences, s, topic_slug(name, 40))


def goal_key(project_or_topic: str | None, name: str) -> str:
    return _key(MemoryType.goals, project_slug(project_or_topic), topic_slug(name))


def event_key(scope: str | None, when: date | datetime | str | None, slug: str) -> str:
    return _key(MemoryType.events, project_slug(scope), _date_part(when), slugify(slug))


def entity_key(kind: str, canonical: str) -> str:
    return _key(MemoryType.entities, kind, _part(canonical))


def profile_key(subject: str, attribute: str | None = None) -> str:
    parts = [slugify(subject, 32)]
    if attribute:
        parts.append(topic_slug(attribute, 64))
    return _key(MemoryType.profile, *parts)


def case_key(domain: str, slug: str) -> str:
    return _key(MemoryType.cases, slugify(domain, 32), topic_slug(slug))


def pattern_key(domain: str, name: str) -> str:
    return _key(MemoryType.patterns, slugify(domain, 32), topic_slug(name))


def key_project(key: str) -> str | None:
    """The project segment of a task / decision / goal / event key, else None."""
    parts = key.split(":")
    if len(parts) >= 3 and parts[0] in ("task", "decision", "goal", "event"):
        return parts[1]
    return None


# ------------------------------------------------------------------------------------------ preference scope
# Words that place a preference in a scope; the scope with most hits wins, ties in table order.
PREF_SCOPE_WORDS: dict[PrefScope, tuple[str, ...]] = {
    "coding": (
        "code",
        "coding",
        "python",
        "typescript",
        "javascript",
        "rust",
        "golang",
        "java",
        "indent",
        "indentation",
        "tab",
        "tabs",
        "spaces",
        "type hint",
        "type hints",
        "typing",
        "test",
        "tests",
        "pytest",
        "function",
        "variable",
        "naming",
        "snake_case",
        "camelcase",
        "lint",
        "linter",
        "formatter",
        "black",
        "ruff",
        "commit",
        "commits",
        "git",
        "branch",
        "docstring",
        "comments",
        "refactor",
        "async",
        "代码",
        "缩进",
        "函数",
        "变量",
        "注释",
        "命名",
        "类型",
        "测试",
        "提交",
    ),
    "tools": (
        "tool",
        "tools",
        "editor",
        "vim",
        "neovim",
        "emacs",
        "vscode",
        "vs code",
        "ide",
        "terminal",
        "shell",
        "docker",
        "neo4j",
        "postgres",
        "database",
        "library",
        "framework",
        "pip",
        "uv",
        "poetry",
        "conda",
        "npm",
        "pnpm",
        "browser",
        "brew",
        "kubernetes",
        "工具",
        "编辑器",
        "终端",
        "数据库",
        "框架",
    ),
    "writing": (
        "write",
        "writing",
        "tone",
        "concise",
        "brief",
        "short",
        "verbose",
        "detailed",
        "bullet",
        "bullets",
        "english",
        "chinese",
        "language",
        "reply",
        "replies",
        "answer",
        "answers",
        "explanation",
        "emoji",
        "emojis",
        "markdown",
        "summary",
        "summaries",
        "formal",
        "casual",
        "回答",
        "回复",
        "简洁",
        "详细",
        "中文",
        "英文",
        "语气",
        "写作",
        "文档",
        "表情",
        "总结",
    ),
    "ui": (
        "ui",
        "dark mode",
        "light mode",
        "theme",
        "font",
        "color",
        "colour",
        "layout",
        "sidebar",
        "window",
        "界面",
        "主题",
        "字体",
        "颜色",
        "深色",
        "浅色",
        "布局",
    ),
}

# Known preference dimensions: if a preference mentions one of these words, its key names the
# dimension, so "I prefer tabs" and "I prefer spaces" are one key (and the second supersedes the first).
PREF_FACETS: tuple[tuple[tuple[str, ...], PrefScope, str], ...] = (
    (("tab", "tabs", "spaces", "indent", "indentation", "缩进"), "coding", "indentation"),
    (("type hint", "type hints", "typing", "类型注解"), "coding", "type-hints"),
    (("snake_case", "camelcase", "naming", "命名"), "coding", "naming"),
    (("docstring", "docstrings", "comments", "注释"), "coding", "comments"),
    (("pytest", "unittest"), "coding", "test-framework"),
    (("commit message", "commit messages", "提交信息"), "coding", "commit-messages"),
    (("english", "chinese", "中文", "英文", "汉语", "英语"), "writing", "language"),
    (
        ("concise", "brief", "short", "verbose", "detailed", "lengthy", "too long", "long answers", "long replies")
        + ("简洁", "简短", "详细", "啰嗦", "太长", "太短", "冗长", "长篇"),
        "writing",
        "length",
    ),
    (("formal", "casual", "tone", "正式", "口语", "语气"), "writing", "tone"),
    (("emoji", "emojis", "表情"), "writing", "emoji"),
    (
        ("bullet", "bullets", "bullet points", "markdown", "table", "tables", "列表", "表格"),
        "writing",
        "format",
    ),
    (
        ("dark mode", "light mode", "dark theme", "light theme", "深色", "浅色", "暗色", "夜间模式"),
        "ui",
        "theme",
    ),
    (("font", "字体"), "ui", "font"),
    (("vim", "neovim", "emacs", "vscode", "vs code", "编辑器"), "tools", "editor"),
    (("pip", "uv", "poetry", "conda", "pipenv"), "tools", "python-packaging"),
    (("npm", "pnpm", "yarn"), "tools", "js-packaging"),
)


def _has_word(text: str, word: str) -> bool:
    if has_cjk(word):
        return word in text
    return re.search(rf"(?<![a-z0-9_]){re.escape(word)}(?![a-z0-9_])", text) is not None


def infer_pref_scope(text: str) -> PrefScope:
    """The preference scope whose words ``text`` uses most (writing / coding / tools / ui), else other."""
    low = text.lower()
    best: PrefScope = "other"
    best_hits = 0
    for scope, words in PREF_SCOPE_WORDS.items():
        hits = sum(1 for w in words if _has_word(low, w))
        if hits > best_hits:
            best, best_hits = scope, hits
    return best


def pref_facet(text: str) -> tuple[PrefScope, str] | None:
    """(scope, name) of a known preference dimension that ``text`` mentions, else None."""
    low = text.lower()
    for words, scope, name in PREF_FACETS:
        if any(_has_word(low, w) for w in words):
            return scope, name
    return None


# ------------------------------------------------------------------------------------------ projects
_PROJECT_NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]{1,40}"
# Explicit project mentions, strongest first. Group "p" is the name.
PROJECT_RES: tuple[re.Pattern[str], ...] = (
    re.compile(rf"(?:\bthe\s+)?(?P<p>{_PROJECT_NAME})\s+(?:project|repo|repository|codebase)\b", re.I),
    re.compile(rf"\bproject\s+(?P<p>{_PROJECT_NAME})\b", re.I),
    re.compile(rf"(?P<p>{_PROJECT_NAME})\s*(?:项目|仓库|代码库)"),
    re.compile(r"在\s*(?P<p>[^\s，,。；;：:]{1,20}?)\s*项目"),
    re.compile(rf"项目\s*[:：]?\s*(?P<p>{_PROJECT_NAME})"),
)
# Words that fill the name slot of those patterns without being a name ("this project", "a new repo").
_NOT_PROJECT = EN_STOP_WORDS | word_set(
    "new old same whole entire side main other current big small personal open source private public",
    "first second next last previous another my our your their every each",
    "这个 那个 该 本 新 整个 一个 这 那",
)


def _known_match(text: str, known: Iterable[str]) -> str | None:
    low = text.casefold()
    for name in sorted(known, key=len, reverse=True):
        n = name.casefold()
        if n and n != GENERAL_PROJECT and _has_word(low, n):
            return name
    return None


def infer_project(text: str, *, known: Collection[str] = (), default: str | None = None) -> str:
    """The project ``text`` names, as a slug; else ``default`` (slugged), else "general".

    Named means: "<name> project/repo", "project <name>", "<name> 项目/仓库", "在<name>项目里", a known
    project's name anywhere (so "for graphbrain" works once graphbrain is known), or a repo mention
    (``owner/name`` → ``name``). "for X" alone is not enough: "for the memory store" is a topic.
    """
    for rx in PROJECT_RES:
        for m in rx.finditer(text):
            name = m.group("p").strip(".-_")
            if len(name) >= 2 and name.casefold() not in _NOT_PROJECT:
                return project_slug(name)
    hit = _known_match(text, known)
    if hit:
        return project_slug(hit)
    for c in structural_entities(text):
        if c.kind == "repo":
            return project_slug(c.canonical.split("/")[-1])
    return project_slug(default) if default else GENERAL_PROJECT
