"""L0 / L1 / L2 texts and key terms for a section, without an LLM.

- L0, a one-line abstract (<= 160 chars): the heading and the first sentence.
- L1, a short overview (<= 300 chars): the lead sentences, then the key terms.
- L2, the full text.

Key terms are frequency-based: words and two-word phrases that are not stop words (English and
Chinese), with a bonus for those in the heading. Chinese runs are segmented with jieba when it is
installed (it is a project dependency), else cut into character bigrams.

The language of a section is ``graphbrain.nlp.detect_language``'s (the one detector).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from graphbrain.nlp.chars import HAN_CLASS
from graphbrain.nlp.stopwords import KEY_TERM_STOP_WORDS
from graphbrain.resources.chunking import is_cjk, sentence_end_cut

__all__ = [
    "L0_MAX",
    "L1_MAX",
    "Layers",
    "compute_layers",
    "extract_keywords",
    "shorten",
    "split_sentences",
]

L0_MAX = 160
L1_MAX = 300

# Word lists as split strings (hence the SIM905 waivers): easier to read and extend than quoted items.
# Key terms skip graphbrain.nlp's key-term stop words (spaCy's lists), and code keywords in code sections.
CODE_STOP_WORDS = frozenset(
    """def class self cls return import from as if elif else for while try except finally with lambda
    yield pass none true false not and or in is async await raise assert global nonlocal del print
    function const let var new this null undefined export default extends implements interface type enum
    public private protected static final void int str float bool string list dict tuple set any object
    func package struct impl pub fn mut use mod crate match trait where go defer chan map range
    args kwargs param params value values result results item items""".split()  # noqa: SIM905
)

_URL = re.compile(r"https?://\S+|www\.\S+")
_TOKEN = re.compile(
    r"(?P<num>\d[\w]*(?:[.,:]\d[\w]*)*)"  # 5.26, 95th, 1,200: numbers end a phrase and are no terms
    r"|(?P<latin>_*[A-Za-z][A-Za-z0-9_]*(?:[.+\-'][A-Za-z0-9_]+)*)"
    rf"|(?P<cjk>[{HAN_CLASS}]+)"
    r"|(?P<space>[ \t]+)"
    r"|(?P<other>.)",
    re.DOTALL,
)


@dataclass(slots=True)
class Layers:
    l0: str
    l1: str
    l2: str
    keywords: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------- sentences


def split_sentences(text: str) -> list[str]:
    """Sentences of a plain (whitespace-collapsed) string, by the same rule the chunker cuts at."""
    out: list[str] = []
    start = 0
    i = 1
    while i <= len(text):
        cut = sentence_end_cut(text, i)
        if cut is not None:
            piece = text[start:cut].strip()
            if piece:
                out.append(piece)
            start = i = cut
        i += 1
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word (or CJK character) boundary, with "…"."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = limit - 1
    p = cut
    while p > limit // 2 and not (text[p].isspace() or is_cjk(text[p - 1]) or is_cjk(text[p])):
        p -= 1
    if p <= limit // 2:
        p = cut  # one very long token: cut it rather than return almost nothing
    return text[:p].rstrip(" ,;:，、：-—") + "…"


_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_LIST = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
# Underscore emphasis only at word edges, so that identifiers like commit_turn survive.
_EMPHASIS = re.compile(r"(\*\*|\*|~~|(?<!\w)__|(?<!\w)_)(?=\S)(.+?)(?<=\S)\1(?!\w)")
_HTML_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
_TERMINAL = tuple(".!?。！？；:：")


def _inline_plain(s: str) -> str:
    s = _IMAGE.sub(r"\1", s)
    s = _LINK.sub(r"\1", s)
    s = s.replace("`", "")
    s = _EMPHASIS.sub(r"\2", s)
    s = _HTML_TAG.sub("", s)
    s = _ESCAPE.sub(r"\1", s)
    return re.sub(r"\s+", " ", s).strip()


def _soft_heading(lines: list[str], i: int, s: str, para_open: bool) -> bool:
    """A short unpunctuated line opening a paragraph, as PDF and plain-text subheadings are."""
    if len(s) > 40 or s.endswith(_TERMINAL) or s.endswith((",", "，", "、")):
        return False
    prev = lines[i - 1].strip() if i else ""
    nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
    return (not para_open or prev.endswith(_TERMINAL)) and len(nxt) > 40


def prose_units(text: str, title: str = "", *, soft_headings: bool = False) -> list[str]:
    """Readable sentences of a Markdown / plain-text / PDF section: headings, code, tables dropped.

    A list item is a unit of its own (it rarely ends with a full stop, and must not run into the next).
    ``soft_headings`` also drops short unpunctuated lines that open a paragraph (PDF and plain-text
    subheadings, which would otherwise run into the first sentence).
    """
    units: list[str] = []
    para: list[str] = []
    in_fence = False

    def flush() -> None:
        if para:
            units.extend(split_sentences(_inline_plain(" ".join(para))))
            para.clear()

    lines = text.split("\n")
    for i, raw in enumerate(lines):
        s = raw.strip()
        if _FENCE.match(raw):
            flush()
            in_fence = not in_fence
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            in_fence
            or not s
            or _ATX.match(raw)
            or _SETEXT.match(raw)  # an underline or a thematic break: never prose
            or s.startswith("|")
            or (i == 0 and title and _inline_plain(s) == title)
            or (not para and _SETEXT.match(nxt))  # the text line of an underlined heading
            or (not para and raw.startswith(("    ", "\t")))  # an indented code block
            or (soft_headings and _soft_heading(lines, i, s, bool(para)))
        ):
            if not in_fence:
                flush()
            continue
        s = re.sub(r"^(>\s*)+", "", s)
        m = _LIST.match(s)
        if m:
            flush()  # the item starts a paragraph of its own; its continuation lines join it
            s = s[m.end() :]
        para.append(s)
    flush()
    return units


def _join_units(units: list[str], budget: int) -> str:
    out = ""
    for u in units:
        if not out:
            piece = u
        else:
            last = out[-1]
            if last in "。！？；：":
                sep = ""
            elif out.endswith(_TERMINAL):
                sep = " "
            else:
                sep = "；" if is_cjk(last) else "; "
            piece = sep + u
        if len(out) + len(piece) > budget:
            if not out:
                return shorten(u, budget)
            break
        out += piece
    return out


# ---------------------------------------------------------------------------------------- key terms


@cache
def _jieba_cut() -> Callable[[str], list[str]] | None:
    try:
        import jieba
    except ImportError:  # pragma: no cover - jieba is a dependency; bigrams keep working without it
        return None
    jieba.setLogLevel(logging.WARNING)  # it announces its dictionary load on stderr otherwise
    cut: Callable[[str], list[str]] = jieba.lcut
    return cut


def _tokens(text: str, stop: frozenset[str], *, code: bool = False) -> list[list[tuple[str, str]]]:
    """Runs of (key, surface) tokens; stop words, numbers and punctuation end a run."""
    runs: list[list[tuple[str, str]]] = [[]]

    def brk() -> None:
        if runs[-1]:
            runs.append([])

    for m in _TOKEN.finditer(_URL.sub(" . ", text)):
        kind = m.lastgroup
        if kind == "space":
            continue
        if kind == "latin":
            word = m.group().strip("_")
            if word.endswith("'s"):
                word = word[:-2]
            # In code "self.top_k" is an attribute access: its parts are the terms.
            for part in word.split(".") if code else [word]:
                key = part.strip("_").lower()
                if key in stop or len(key) < 2:
                    brk()
                else:
                    runs[-1].append((key, part.strip("_")))
        elif kind == "cjk":
            cut = _jieba_cut()
            run = m.group()
            if cut is None:
                for j in range(len(run) - 1):
                    runs[-1].append((run[j : j + 2], run[j : j + 2]))
                    brk()
                continue
            for w in cut(run):
                if len(w) < 2 or w in stop:
                    brk()
                else:
                    runs[-1].append((w, w))
        else:
            brk()
    return [r for r in runs if r]


def _join_phrase(a: str, b: str) -> str:
    return a + b if is_cjk(a[-1]) and is_cjk(b[0]) else f"{a} {b}"


def _part_of(word: str, phrase: str) -> bool:
    return word in phrase if is_cjk(word[0]) else word in phrase.split(" ")


def extract_keywords(text: str, *, k: int = 8, title: str = "", code: bool = False) -> list[str]:
    """The ``k`` most telling terms of ``text``: frequent words and repeated two-word phrases."""
    stop = KEY_TERM_STOP_WORDS.words() | (CODE_STOP_WORDS if code else frozenset())
    counts: Counter[str] = Counter()
    surfaces: dict[str, Counter[str]] = {}
    first: dict[str, int] = {}
    pos = 0
    phrase_counts: Counter[str] = Counter()
    for run in _tokens(text, stop, code=code):
        for j, (key, surface) in enumerate(run):
            if key.replace(".", "").replace("_", "").isdigit():
                continue
            counts[key] += 1
            surfaces.setdefault(key, Counter())[surface] += 1
            first.setdefault(key, pos)
            pos += 1
            if j + 1 < len(run) and not code:  # identifiers side by side are not a phrase
                nkey, nsurface = run[j + 1]
                pkey = _join_phrase(key, nkey)
                phrase_counts[pkey] += 1
                surfaces.setdefault(pkey, Counter())[_join_phrase(surface, nsurface)] += 1
                first.setdefault(pkey, pos)
    title_l = title.lower()
    scores: dict[str, float] = {}
    for key, c in counts.items():
        scores[key] = c + (2.0 if key in title_l else 0.0)
    for key, c in phrase_counts.items():
        if c >= 2:  # a phrase seen once is just two words side by side
            scores[key] = 1.8 * c + (2.0 if key in title_l else 0.0)
    ranked = sorted(scores, key=lambda t: (-scores[t], first.get(t, 0), t))
    chosen: list[str] = []
    for term in ranked:
        if len(chosen) >= k:
            break
        # A word that occurs (almost) only inside a phrase already chosen adds nothing.
        if term in counts and any(
            counts[term] <= phrase_counts[p] + 1 for p in chosen if p != term and _part_of(term, p)
        ):
            continue
        chosen.append(term)
    return [surfaces[t].most_common(1)[0][0] for t in chosen]


# ---------------------------------------------------------------------------------------- layers


def _key_terms_suffix(keywords: list[str], language: str | None, room: int) -> str:
    zh = language in ("zh", "ja")
    head, sep, end = ("关键词：", "、", "") if zh else (" Key terms: ", ", ", ".")
    picked: list[str] = []
    for kw in keywords:
        candidate = head + sep.join([*picked, kw]) + end
        if len(candidate) > room:
            break
        picked.append(kw)
    return head + sep.join(picked) + end if picked else ""


_DOCSTRING = re.compile(r"(\"\"\"|\'\'\')(.*?)\1", re.DOTALL)
# Comment lines of the usual languages; "#include" and friends are C preprocessor lines, not comments.
_COMMENT = re.compile(r"^\s*(?:#(?!!|include|define|if|endif|pragma|undef)|//+|/\*+|\*+(?!/)|--)\s?(.*?)(?:\*/)?\s*$")
_SIGNATURE_SKIP = re.compile(r"^\s*(?:@|#\[|#!|\"|\'|$)")


def _code_parts(text: str) -> tuple[str, list[str]]:
    """The signature (first code line) and the doc-comment sentences of a code section."""
    lines = text.split("\n")
    signature = ""
    for line in lines:
        if _SIGNATURE_SKIP.match(line) or _COMMENT.match(line):
            continue
        signature = line.strip().rstrip("{:").strip()
        break
    m = _DOCSTRING.search(text[:3000])
    if m:
        doc = m.group(2)
    else:
        block: list[str] = []
        for line in lines[:40]:
            cm = _COMMENT.match(line)
            if cm:
                block.append(cm.group(1))
            elif block:
                break
        doc = " ".join(block)
    return signature, split_sentences(re.sub(r"\s+", " ", doc).strip())


def compute_layers(
    text: str,
    title: str,
    *,
    fmt: str = "markdown",
    language: str | None = None,
    definition: bool = True,
    k: int = 6,
) -> Layers:
    """L0 / L1 / L2 and key terms of one section.

    For ``fmt`` "code" the doc comment gives the sentences and, for a ``definition`` (not a module
    header or footer), the signature line leads the overview.
    """
    code = fmt == "code"
    keywords = extract_keywords(text, k=k, title=title, code=code)
    colon = "：" if title and is_cjk(title[-1]) else ": "
    if code:
        signature, units = _code_parts(text)
        if units:
            l0 = f"{title}{colon}{units[0]}" if title else units[0]
        else:
            l0 = (signature if definition else "") or title
        if definition and signature:
            units = [signature, *units]
    else:
        units = prose_units(text, title, soft_headings=fmt in ("pdf", "text"))
        first = units[0] if units else ""
        l0 = f"{title}{colon}{first}" if title and first else title or first
    suffix = _key_terms_suffix(keywords, language, room=min(120, L1_MAX // 2))
    lead = _join_units(units, L1_MAX - len(suffix) - 1) if units else shorten(title, L1_MAX - len(suffix) - 1)
    if suffix and lead and not (suffix.startswith(" ") or lead[-1] in "。！？；："):
        lead += " "
    return Layers(l0=shorten(l0, L0_MAX), l1=(lead + suffix).strip(), l2=text, keywords=keywords)
