"""Chinese entity signals: jieba POS nouns, person names, workplaces, and roles said in Chinese."""

from __future__ import annotations

import re
from dataclasses import replace

from graphbrain.nlp import pipelines
from graphbrain.nlp.candidate import EntityCandidate, EntitySignal
from graphbrain.nlp.canonical import canonicalize
from graphbrain.nlp.chars import has_cjk, is_han
from graphbrain.nlp.english import plausible_person
from graphbrain.nlp.stopwords import EN_STOP_WORDS, ZH_STOP_WORDS, word_set

__all__ = ["ZH_OCCUPATIONS", "zh_noun_candidates", "zh_roles"]


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


def zh_roles(text: str, cands: list[EntityCandidate]) -> list[EntityCandidate]:
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


def zh_noun_candidates(text: str) -> list[EntityCandidate]:
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
