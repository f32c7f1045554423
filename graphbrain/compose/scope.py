"""The scope a message names ("in smart_rag", "在 smart_rag 里", "in the design doc") as resource filters.

Seed §3.5: a phrase that matches a known source becomes ``source_uri_prefix`` (a folder, repo or site)
or ``document_ids`` (one document, by file name or title); a phrase that matches nothing is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphbrain.compose.cues import cue_words, nlp_text
from graphbrain.nlp import content_tokens, has_cjk


@dataclass(frozen=True)
class ScopeFilters:
    """Filters named by the message: a folder / repo as URI prefixes, or documents by id."""

    source_uri_prefix: list[str] = field(default_factory=list)
    document_ids: list[str] = field(default_factory=list)
    phrase: str = ""
    reason: str = ""

    @property
    def empty(self) -> bool:
        return not self.source_uri_prefix and not self.document_ids

    def fields(self) -> dict[str, list[str]]:
        """The Filters fields to set (only the non-empty ones)."""
        out: dict[str, list[str]] = {}
        if self.source_uri_prefix:
            out["source_uri_prefix"] = list(self.source_uri_prefix)
        if self.document_ids:
            out["document_ids"] = list(self.document_ids)
        return out


# "in smart_rag", "from docs/design", "in the design doc about X", "within our wiki".
_SCOPE_EN_RE = re.compile(
    r"\b(?:in|from|within|inside|under|across)\s+(?:the\s+|our\s+|my\s+|this\s+|that\s+)?"
    r"(?P<x>[^\s,;:?!()\"'，。？！]+(?:\s+[^\s,;:?!()\"'，。？！]+){0,5})",
    re.IGNORECASE,
)
# Quoted names: 《检索设计》, "Vector index design", `docs/x.md`; a quoted phrase reads as a title.
_SCOPE_QUOTED_RES: tuple[re.Pattern[str], ...] = (
    re.compile(r"《(?P<x>[^》]{1,60})》"),
    re.compile(r"[\"“「`](?P<x>[^\"”」`]{2,60})[\"”」`]"),
)
# "在 smart_rag 里", "在检索设计文档中", "smart_rag 里的", and the quoted names.
_SCOPE_ZH_RES: tuple[re.Pattern[str], ...] = (
    re.compile(r"在\s*(?P<x>[^\s，。？！,?!；;]{1,40}?)\s*(?:里面|里头|里|中|内|下面|之中)"),
    re.compile(r"(?P<x>[A-Za-z0-9_./\-]{2,})\s*(?:里面|里|中|内)"),
    *_SCOPE_QUOTED_RES,
)
# Nouns that say "a document" without saying which one; a phrase that has one reads as a title.
DOC_NOUNS: frozenset[str] = frozenset(
    cue_words(
        "doc|docs|document|documents|documentation|file|files|page|pages|paper|guide|notes|note|spec|"
        "readme|wiki|manual|article|repo|repository|folder|directory|文档|文件|资料|页面|论文|笔记|说明|"
        "手册|仓库|目录"
    )
)


def _uri_segments(uri: str) -> list[tuple[str, int]]:
    """(segment, end offset) of each path segment of a URI, after the scheme and host."""
    m = re.match(r"^[a-z][a-z0-9+.\-]*://[^/]*", uri, re.IGNORECASE)
    start = m.end() if m else 0
    out: list[tuple[str, int]] = []
    for sm in re.finditer(r"[^/\\]+", uri[start:]):
        out.append((sm.group(), start + sm.end()))
    return out


def _phrase_candidates(message: str) -> list[str]:
    """Scope phrases in the message: for English, every leading run of the words after "in / from …"
    (longest first, so "design doc about vector index" is tried before "design doc")."""
    out: list[str] = []
    for m in _SCOPE_EN_RE.finditer(message):
        words = m.group("x").split()
        for n in range(len(words), 0, -1):
            out.append(" ".join(words[:n]).strip(".,;:"))
    for rx in _SCOPE_ZH_RES:
        for m in rx.finditer(message):
            out.append(m.group("x").strip())
    unique: dict[str, str] = {}
    for p in out:
        if p:
            unique.setdefault(p.casefold(), p)
    return list(unique.values())


def _match_path(phrase: str, sources: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[str]]:
    """A path-like or name-like phrase against the URIs' path segments.

    "smart_rag" matches a segment equal to it; "docs/design" a run of segments. When the match ends
    the URI (or is the file's stem), it names that document; otherwise the URI up to and including the
    match is a folder prefix.
    """
    want = [s for s in re.split(r"[/\\]+", phrase.strip("/\\").casefold()) if s]
    if not want:
        return [], []
    prefixes: list[str] = []
    docs: list[str] = []
    for src in sources:
        uri = str(src.get("uri") or "")
        segs = _uri_segments(uri)
        names = [s.casefold() for s, _ in segs]
        for i in range(len(names) - len(want) + 1):
            window = names[i : i + len(want)]
            last = window[-1]
            stem = last.rsplit(".", 1)[0] if "." in last else last
            if window[:-1] != want[:-1] or want[-1] not in (last, stem):
                continue
            end = segs[i + len(want) - 1][1]
            if end >= len(uri.rstrip("/")):
                if src.get("document_id"):
                    docs.append(str(src["document_id"]))
            else:
                prefixes.append(uri[:end] + "/")
            break
    return sorted(set(prefixes)), sorted(set(docs))


def _match_title(phrase: str, sources: Sequence[Mapping[str, Any]], quoted: bool) -> list[str]:
    """A title-like phrase ("the design doc", "检索设计文档") against the sources' titles.

    The phrase's words minus the document nouns must all be in the title; and the phrase must read as a
    title: it has a document noun, or it was quoted, or it is the whole title. That keeps "in python"
    from scoping a search to a "Python guide".
    """
    phrase_tokens = content_tokens(phrase)
    has_doc_noun = bool(phrase_tokens & DOC_NOUNS) or any(n in phrase for n in DOC_NOUNS if has_cjk(n))
    core = {t for t in phrase_tokens if t not in DOC_NOUNS}
    for noun in (n for n in DOC_NOUNS if has_cjk(n)):  # jieba may glue 文档 to the word before it
        core = {t.removesuffix(noun) or t for t in core}
    core = {t for t in core if not (has_cjk(t) and len(t) < 2)}
    if not core:
        return []
    out: list[str] = []
    for src in sources:
        title = str(src.get("title") or "")
        if not title or not src.get("document_id"):
            continue
        whole = title.casefold() == phrase.casefold()
        if (has_doc_noun or quoted or whole) and core <= content_tokens(title):
            out.append(str(src["document_id"]))
    return sorted(set(out))


def parse_scope(message: str, known_sources: Sequence[Mapping[str, Any]]) -> ScopeFilters:
    """Seed §3.5: a scope named in the message ("in smart_rag", "在 smart_rag 里", "in the design doc",
    "from docs/…") that matches a known source → ``source_uri_prefix`` (a folder, repo or site) or
    ``document_ids`` (one document, by file name or title).

    ``known_sources`` are dicts with ``uri``, ``title`` and ``document_id``. A phrase that matches no
    known source is ignored: a scope filter that matches nothing would only hide evidence.
    """
    if not known_sources:
        return ScopeFilters()
    text = nlp_text(message)
    quoted_spans = [m.group("x").strip() for rx in _SCOPE_QUOTED_RES for m in rx.finditer(text)]
    for phrase in _phrase_candidates(text):
        name_like = re.fullmatch(r"[A-Za-z0-9_.@+\-/\\]+", phrase) is not None
        if name_like:
            prefixes, docs = _match_path(phrase, known_sources)
            if prefixes or docs:
                kind = "source_uri_prefix" if prefixes else "document_ids"
                return ScopeFilters(prefixes, docs, phrase, f"scope:{kind}:{phrase}")
        docs = _match_title(phrase, known_sources, quoted=phrase in quoted_spans)
        if docs:
            return ScopeFilters([], docs, phrase, f"scope:title:{phrase}")
    return ScopeFilters()
