"""The entity sources that need context: known names, component compounds, and the kind of a name.

- **Known names** (the entity ruler): the names and aliases of the namespace's entities are found as
  written, with the kind and canonical name the namespace gave them, whatever a model makes of them.
- **Compounds**: the multi-word name of a component people work on — a noun compound whose head is a
  component noun ("billing service", "staging cluster", "full-text index"; 计费服务, 上海机房, Redis 集群).
- **Kinds**: the English model's NER label is an opinion, checked against the sentence: a PERSON that
  is deployed, used or run, or that names another noun ("Atlas metadata store"), is a thing; an ORG
  needs an organisation's shape or place in the sentence ("from Stripe", "at Zalando", "Acme Corp"); a
  name a person-verb is said of ("Kenji owns", "Ravi will set up") is a person. With no opinion a name
  is a neutral ``concept``, never a person by default.
- **Arguments**: whether a candidate is the subject or object of a clause (``argument``), which lets a
  named person, an organisation or a component through the entity gate on one mention.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from graphbrain.nlp.candidate import EntityCandidate, EntityKind
from graphbrain.nlp.canonical import canonicalize
from graphbrain.nlp.chars import has_cjk, is_cjk
from graphbrain.nlp.english import plausible_person
from graphbrain.nlp.lemmas import known, lemma
from graphbrain.nlp.stopwords import EN_STOP_WORDS, ZH_STOP_WORDS, word_set
from graphbrain.nlp.zh_names import plausible_zh_person

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# Nouns that head the name of a component: "<something> service" is a thing people work on.
EN_COMPONENT_HEADS = word_set(
    "service system store index database db cluster pipeline server queue cache gateway team dashboard",
    "module engine warehouse platform model retriever bucket environment worker broker proxy scheduler",
    "registry backend frontend api portal lake datacenter center centre room microservice",
)
ZH_COMPONENT_HEADS = word_set(
    "服务 系统 模块 平台 机房 集群 索引 网关 队列 数据库 团队 组 存储 环境 引擎 仓库 检索 接口 服务器 中心 缓存",
    "流水线 面板 小组 器",
)
# One-character heads that name a component only at the end of a longer word (采集器, 调度器; 机器 is none).
_ZH_SUFFIX_HEADS = frozenset({"器"})
# A head followed by one of these is not the end of the name: 系统架构师 is a job, 数据平台组 a team.
_ZH_AGENT_SUFFIXES = ("师", "员", "者", "家", "长")
# Light verbs that never start a component's name (成为系统架构师, 作为缓存).
_ZH_LIGHT_VERBS = word_set("成为 作为 是 有 用 做 当 叫 变成 属于 使用 采用")
# Function characters jieba glues to the next word ("和运维" in 和运维团队).
_ZH_LEADING_FUNCTION_CHARS = "和与跟"
# Adjectives that describe a component's state rather than name it ("the new staging cluster").
_NOT_NAMING_ADJ = word_set(
    "new old current main big small whole entire other same first last next previous large huge good bad",
    "second third fourth fifth another extra additional",
    "better worse best own whole existing shared single separate different various several many few",
)
# Verbs said of people: the subject of one ("Kenji owns", "Jenny thinks") is a person, when a name.
_PERSON_VERBS = word_set(
    "say tell think believe lead own manage join leave fix review write take handle agree ask prefer want",
    "like love hate know decide work return meet call email help look investigate approve sign mention",
    "suggest propose promise plan finish start send prepare set draft present present share sign pair",
    "explain reply answer confirm remind ping assign hire interview onboard mentor",
)
# Verbs whose object is a person ("ask Dana", "tell Bob").
_PERSON_OBJECT_VERBS = word_set("ask tell ping email thank cc meet call remind assign hire interview invite")
# Verbs whose object is a thing ("deploy Atlas", "use Redis").
_THING_VERBS = word_set(
    "use deploy run install migrate upgrade build release ship configure host store query index move switch",
    "adopt choose pick replace test launch publish train retrain monitor scale restart rewrite refactor",
    "back power serve support cache",
)
# Abbreviations of common nouns ("a leaked API token", "the VPN config", "PR #42", 我们 CI 改用 …) and time
# zones: words, not names. A name spelt in capitals (RRF, NATS, S3) is not in this list.
COMMON_ABBREVIATIONS = word_set(
    "api ui ux ci cd pr mr vm vpn db sql etl elt sdk cli gui id url uri dns cpu gpu ram ssd hdd os qa pm hr it",
    "faq kpi okr eta roi poc mvp sla slo sli rpc http https tcp udp ip ssh tls ssl json yaml csv pdf html css",
    "jwt cdn llm ai ml nlp ocr crm erp saas paas iaas env repo infra ops devops qps rps tps ttl oom",
    "utc gmt cet cest pst pdt est edt cst bst ist jst kst aest kb mb gb tb ms",
)


def common_abbreviation(name: str) -> bool:
    """ "API", "APIs", "VPN", "CET": the abbreviation of a common noun (or a time zone), not a name."""
    n = name.strip()
    if not n.isupper() or not n.isalpha():
        n = n[:-1] if re.fullmatch(r"[A-Z]{2,}s", n) else ""
    return n.lower() in COMMON_ABBREVIATIONS


_ORG_SUFFIX_RE = re.compile(
    r"\b(?:inc|corp|corporation|ltd|llc|gmbh|ag|labs?|technologies|tech|university|bank|group|foundation|co)\.?$",
    re.I,
)
_ORG_PREPS = frozenset({"from", "at", "with", "for"})
_PLACE_PREPS = frozenset({"in", "to", "from", "at", "near", "around"})
_ARG_DEPS = frozenset(
    {"nsubj", "nsubjpass", "dobj", "pobj", "attr", "appos", "conj", "dative", "oprd", "agent", "npadvmod"}
)


# --------------------------------------------------------------------------------------- known names
_WORD_CHAR = re.compile(r"[A-Za-z0-9_]")


def _bounded(text: str, i: int) -> bool:
    """Whether position ``i`` of ``text`` is outside a Latin word (the name may start or end there)."""
    return i < 0 or i >= len(text) or not _WORD_CHAR.match(text[i])


class NameIndex(Mapping[str, tuple[str, str]]):
    """A lexicon (a name as written → (kind, canonical)) made ready for ``known_names`` once: its names
    case-folded, and their lengths longest first.

    A namespace's lexicon holds up to thousands of names and is searched in every message of every turn;
    folding all of it for each search cost more than the search (12 ms of a 110 ms commit at 100k items).
    Read-only: ``plus`` makes a copy, so a thread still searching the old one is not disturbed.
    """

    __slots__ = ("_names", "folded", "lengths")

    def __init__(self, names: Mapping[str, tuple[str, str]] | None = None) -> None:
        self._names: dict[str, tuple[str, str]] = dict(names or {})
        self.folded: dict[str, tuple[str, str]] = {}
        for n, v in self._names.items():
            if len(n) >= 2:
                self.folded.setdefault(n.casefold(), v)
        self.lengths: tuple[int, ...] = tuple(sorted({len(n) for n in self.folded}, reverse=True))

    @classmethod
    def of(cls, lexicon: Mapping[str, tuple[str, str]]) -> NameIndex:
        return lexicon if isinstance(lexicon, NameIndex) else cls(lexicon)

    def plus(self, name: str, value: tuple[str, str]) -> NameIndex:
        """A copy with ``name`` added; this one itself when the name is in it already."""
        if name in self._names:
            return self
        out = NameIndex()
        out._names = {**self._names, name: value}
        out.folded = dict(self.folded)
        out.lengths = self.lengths
        if len(name) >= 2:
            out.folded.setdefault(name.casefold(), value)
            out.lengths = tuple(sorted({*self.lengths, len(name.casefold())}, reverse=True))
        return out

    def __getitem__(self, name: str) -> tuple[str, str]:
        return self._names[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def known_names(text: str, lexicon: Mapping[str, tuple[str, str]]) -> list[EntityCandidate]:
    """Every name of ``lexicon`` (a name as written → (kind, canonical)) found in ``text``, case-insensitive,
    leftmost and longest first, never overlapping; a Latin name only as whole words ("Bob", not "Bobby").

    By lookup of the text's substrings at each position, one per distinct name length: the cost follows
    the text, not the lexicon, which grows with every name the namespace learns (a pattern of all the
    names was rebuilt on each new one). Pass a ``NameIndex`` to search the same lexicon many times.
    """
    index = NameIndex.of(lexicon)
    folded, lengths = index.folded, index.lengths
    if not folded:
        return []
    lowered = text.casefold()
    if len(lowered) != len(text):  # a character that folds to two ("ß" → "ss"): positions would drift
        lowered = text.lower() if len(text.lower()) == len(text) else text
    out: list[EntityCandidate] = []
    i = 0
    while i < len(text):
        found = None
        for size in lengths:
            piece = lowered[i : i + size]
            if len(piece) < size or piece not in folded:
                continue
            latin_start, latin_end = not has_cjk(piece[0]), not has_cjk(piece[-1])
            if (latin_start and not _bounded(text, i - 1)) or (latin_end and not _bounded(text, i + size)):
                continue
            found = (size, folded[piece])
            break
        if found is None:
            i += 1
            continue
        size, (kind, canonical) = found
        out.append(EntityCandidate(text[i : i + size], canonical, kind, i, i + size, "known", True))  # type: ignore[arg-type]
        i += size
    return out


# --------------------------------------------------------------------------------------- English, from the parse
def _is_arg(tok: Token) -> bool:
    return tok.dep_ in _ARG_DEPS or tok.dep_ == "ROOT"


def _verb_of(tok: Token) -> Token | None:
    """The verb a noun is an argument of (through a preposition and coordination)."""
    head = tok
    for _ in range(4):
        if head.dep_ == "conj" or head.dep_ == "appos":
            head = head.head
            continue
        if head.dep_ == "pobj":
            head = head.head.head if head.head.dep_ == "prep" else head.head
            continue
        break
    h = head.head if head is tok or head.dep_ != "ROOT" else head
    if head.dep_ in ("nsubj", "nsubjpass", "dobj", "attr", "dative", "oprd", "agent"):
        h = head.head
    return h if h.pos_ in ("VERB", "AUX") else None


def _person_context(tok: Token) -> bool:
    """A person-verb is said of ``tok`` ("Kenji owns", "Ravi will set up"), or it is asked / told."""
    if tok.dep_ in ("nsubj", "nsubjpass"):
        verb = tok.head
        if lemma(verb.lower_, "verb") in _PERSON_VERBS:
            return True
        if any(c.lower_ in ("will", "'ll", "wo", "would", "can", "should") for c in verb.children if c.dep_ == "aux"):
            return verb.pos_ == "VERB"
    if tok.dep_ == "dobj" and lemma(tok.head.lower_, "verb") in _PERSON_OBJECT_VERBS:
        return True
    return bool(tok.dep_ == "poss" or any(c.dep_ == "case" and c.lower_ in ("'s", "’s") for c in tok.children))


def _thing_context(span: Span) -> bool:
    """``span`` names a thing: it modifies a noun, is used / deployed, or is defined as a thing."""
    root = span.root
    if root.dep_ == "compound" and root.head.pos_ in ("NOUN", "PROPN"):
        return True
    if span.start > 0 and span.doc[span.start - 1].lower_ in ("the", "our", "their", "its", "this", "that"):
        return True
    verb = _verb_of(root)
    if verb is not None and root.dep_ != "nsubj" and lemma(verb.lower_, "verb") in _THING_VERBS:
        return True
    if root.dep_ == "nsubj" and root.head.lemma_ == "be" or root.head.lower_ in ("is", "are", "was"):
        attrs = [c for c in root.head.children if c.dep_ == "attr" and c.pos_ == "NOUN"]
        if attrs and attrs[0].lower_ not in ("person", "guy", "engineer", "manager", "lead", "developer"):
            return True
    return False


def _org_context(span: Span) -> bool:
    if _ORG_SUFFIX_RE.search(span.text):
        return True
    root = span.root
    if root.dep_ == "pobj" and root.head.lower_ in _ORG_PREPS:
        gov = root.head.head
        # "Bob from Stripe", "I work at Zalando", "a call with Google"
        if gov.ent_type_ == "PERSON" or gov.pos_ in ("PROPN", "PRON") or lemma(gov.lower_, "verb") in ("work", "be"):
            return True
    if root.dep_ == "nsubj" and lemma(root.head.lower_, "verb") in (
        "report",
        "announce",
        "sign",
        "say",
        "ask",
        "acquire",
    ):
        return True
    nxt = span.doc[span.end] if span.end < len(span.doc) else None
    return nxt is not None and nxt.lower_ in ("company", "inc", "corp", "customers", "engineers")


def _employer_context(span: Span) -> bool:
    root = span.root
    return (
        root.dep_ == "pobj"
        and root.head.lower_ in ("at", "for")
        and lemma(root.head.head.lower_, "verb") in ("work", "intern", "consult")
    )


def _place_context(span: Span) -> bool:
    """Said where a place is said ("live in Berlin", "I moved to Toronto", "the warehouse in Frankfurt"); not
    where a thing runs or is moved ("Neo4j runs in Docker", "we moved the service to AWS"), which leaves
    the neutral kind."""
    root = span.root
    if root.dep_ != "pobj" or root.head.lower_ not in _PLACE_PREPS:
        return False
    gov = root.head.head  # a verb, or what the small tagger made of one ("Neo4j runs in …" as a noun)
    if lemma(gov.lower_, "verb") not in _THING_VERBS:
        return True
    subj = next((c for c in gov.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None and gov.dep_ == "conj":  # "I'm from Lisbon but moved to Toronto": the subject said before
        subj = next((c for c in gov.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    moved_a_thing = any(c.dep_ == "dobj" for c in gov.children)
    return subj is not None and _person_like(subj) and not moved_a_thing


def en_kind(span: Span, label: str | None, strict: bool = False) -> EntityKind:
    """The kind of a name in the parse: NER's opinion checked against the sentence, else ``concept``.
    ``strict`` (English words inside Chinese text, which the English model parses poorly): a person
    needs a person-verb said of it."""
    root = span.root
    name = span.text.strip()
    person_ctx = _person_context(root) and plausible_person(name)
    if label == "PERSON":
        if not plausible_person(name) or _thing_context(span) or (strict and not person_ctx):
            return "concept"
        return "person"
    if person_ctx and label in (None, "GPE", "ORG", "NORP", "LOC", "PRODUCT") and not _thing_context(span):
        return "person"
    if label == "ORG":
        return "org" if _org_context(span) else "concept"
    if label in ("GPE", "LOC", "FAC"):
        if label == "GPE" and _employer_context(span):
            return "org"  # "I work at Zalando": an employer is an organisation, whatever the model says
        return "other" if _place_context(span) or label == "LOC" else "concept"
    if label is None and _org_context(span) and _ORG_SUFFIX_RE.search(name):
        return "org"
    return "concept"


# Verbs of responsibility: what a person owns, leads or maintains is what the statement is about.
_OWN_VERBS = word_set("own lead maintain manage run handle drive")
_PERSONAL_PRONOUNS = word_set("i we he she they")


def _person_like(tok: Token) -> bool:
    return tok.lower_ in _PERSONAL_PRONOUNS or (
        (tok.ent_type_ == "PERSON" or tok.pos_ == "PROPN") and plausible_person(tok.text)
    )


def _statement_roles(doc: Doc) -> tuple[set[int], set[int], set[int]]:
    """(tokens of what a responsibility is about, names defined as a component, the category tokens of
    such a definition): "Dana owns the Helm charts" (Helm charts), "Atlas is our new search service"
    (Atlas; "search service" is what it is, not a second thing)."""
    about: set[int] = set()
    defined: set[int] = set()
    category: set[int] = set()
    for tok in doc:
        if tok.pos_ not in ("VERB", "AUX"):
            continue
        subj = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is None:
            continue
        if lemma(tok.lower_, "verb") in _OWN_VERBS and _person_like(subj):
            for c in tok.children:
                if c.dep_ in ("dobj", "attr", "oprd"):
                    about.update(t.i for t in c.subtree)
        if tok.lemma_ == "be" or tok.lower_ in ("is", "are", "was", "'s"):
            attr = next((c for c in tok.children if c.dep_ == "attr" and c.pos_ == "NOUN"), None)
            if attr is not None and lemma(attr.lower_, "noun") in EN_COMPONENT_HEADS and subj.pos_ == "PROPN":
                defined.update(t.i for t in subj.subtree if t.pos_ == "PROPN")
                category.update(t.i for t in attr.subtree)
    return about, defined, category


def en_candidates(text: str, doc: Doc, strict: bool = False) -> list[EntityCandidate]:
    """Names from the English parse: NER entities and proper nouns with checked kinds; component
    compounds. ``argument`` marks those that are a subject or object, ``about`` what a statement of
    responsibility or a definition is about."""
    out: list[EntityCandidate] = []
    covered: set[int] = set()
    about, defined, category = _statement_roles(doc)
    for ent in doc.ents:
        # Dates and amounts are no names; nationalities and languages ("German", "Chinese") describe.
        if ent.label_ in ("DATE", "TIME", "MONEY", "PERCENT", "QUANTITY", "ORDINAL", "CARDINAL", "NORP", "LANGUAGE"):
            continue
        while len(ent) > 1 and ent[0].is_lower:  # "a leaked API token": a name starts with its capital
            ent = ent[1:]
        name = ent.text.strip()
        if has_cjk(name) or len(name) < 2 or name.lower() in EN_STOP_WORDS or name.islower():
            continue  # a lowercase "name" ("two mobile devs") is the small model's noise
        # The small model glues names across a preposition ("Orion on Kubernetes"): leave those to the
        # proper-noun pass, which takes each name on its own.
        if any(t.is_lower and t.pos_ in ("ADP", "SCONJ", "VERB", "AUX") and t.lower_ != "of" for t in ent[1:-1]):
            continue
        if "\n" in name:
            continue  # nor across a line break (a heading and its paragraph): the proper-noun pass splits it
        kind = en_kind(ent, ent.label_, strict)
        canonical = canonicalize(name, kind)
        if not canonical or canonical.isdigit():
            continue
        covered.update(range(ent.start, ent.end))
        said = ent.root.i in about or ent.root.i in defined
        end = ent.start_char + len(name)
        out.append(EntityCandidate(name, canonical, kind, ent.start_char, end, "ner", _is_arg(ent.root) or said, said))
    # Proper nouns NER did not name: "Ravi will set up …", "Atlas is our new search service".
    i = 0
    while i < len(doc):
        tok = doc[i]
        if tok.pos_ != "PROPN" or i in covered or has_cjk(tok.text) or not tok.text[:1].isupper():
            i += 1
            continue
        j = i
        while (
            j + 1 < len(doc) and doc[j + 1].pos_ == "PROPN" and j + 1 not in covered and doc[j + 1].text[:1].isupper()
        ):
            j += 1
        span = doc[i : j + 1]
        name = span.text
        if name.lower() not in EN_STOP_WORDS and len(name) >= 2 and not _is_calendar(name) and not has_cjk(name):
            kind = en_kind(span, None, strict)
            said = any(t.i in about or t.i in defined for t in span)
            out.append(
                EntityCandidate(name, canonicalize(name, kind), kind, span.start_char, span.end_char, "proper_noun",
                                _is_arg(span.root) or said, said)
            )  # fmt: skip
        i = j + 1
    out += [c for c in _en_compounds(doc) if not _in_category(c, doc, category)]
    return out


def _in_category(c: EntityCandidate, doc: Doc, category: set[int]) -> bool:
    span = doc.char_span(c.start, c.end, alignment_mode="expand")
    return span is not None and all(t.i in category for t in span)


_CALENDAR = word_set(
    "monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday",
    "january february march april may june july august september october november december",
    "q1 q2 q3 q4 eod eow asap todo fyi ok",
)


def _is_calendar(name: str) -> bool:
    return name.casefold() in _CALENDAR


def _en_compounds(doc: Doc) -> list[EntityCandidate]:
    out: list[EntityCandidate] = []
    for tok in doc:
        if lemma(tok.lower_, "noun") not in EN_COMPONENT_HEADS:
            continue
        # The small tagger calls some head nouns verbs ("the relational retriever"): a head word that is
        # no verb at all is a noun whatever the tag says, and its parse is not to be trusted either.
        mistagged = tok.pos_ not in ("NOUN", "PROPN") and not known(tok.lower_, "verb")
        nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
        if (tok.pos_ not in ("NOUN", "PROPN") and not mistagged) or (
            tok.dep_ == "compound" and nxt is not None and lemma(nxt.lower_, "noun") in EN_COMPONENT_HEADS
        ):
            continue  # "search service team": the name ends at the last head
        start = tok.i
        k = tok.i - 1
        while k >= 0:
            left = doc[k]
            if mistagged:
                if left.pos_ in ("ADJ", "NOUN", "PROPN") and left.lower_ not in _NOT_NAMING_ADJ | EN_STOP_WORDS:
                    start = k
                    k -= 1
                    continue
                break
            if left.text in ("-", "–") and k - 1 >= 0:  # "full-text index"
                k -= 1
                continue
            if left.dep_ in ("compound", "amod", "nmod", "npadvmod") and left.head.i >= tok.i - 0 and left.i < tok.i:
                if left.pos_ == "ADJ" and left.lower_ in _NOT_NAMING_ADJ:
                    break
                if left.pos_ not in ("NOUN", "PROPN", "ADJ", "X", "VERB") or left.tag_ in ("VBN", "VBD"):
                    break  # "a leaked API": a participle says what happened to it, not which it is
                start = k
                k -= 1
                continue
            if doc[k + 1].text in ("-", "–") and left.pos_ in ("ADJ", "NOUN", "PROPN"):
                start = k
                k -= 1
                continue
            break
        if start == tok.i:
            continue
        span = doc[start : tok.i + 1]
        name = span.text
        if span[0].lower_ in EN_STOP_WORDS or has_cjk(name):
            continue
        out.append(
            EntityCandidate(name, canonicalize(name, "concept"), "concept", span.start_char, span.end_char, "compound",
                            _is_arg(tok))
        )  # fmt: skip
    return out


# --------------------------------------------------------------------------------------- Chinese
# jieba flags of a word that may name which component: nouns, verbal nouns, names, English, and verbs and
# adverbs of two characters or more (jieba tags 同步 in 同步服务 as an adverb).
_ZH_MODIFIER_FLAGS = frozenset({"n", "vn", "j", "ns", "nz", "nt", "nrt", "eng", "nr", "an", "l", "v", "d"})
_ZH_ORG_BEFORE_RE = re.compile(r"(?:在|于)\s*$")
_ZH_ORG_AFTER_RE = re.compile(r"^\s*(?:工作|上班|任职|实习|的人|公司|集团)")


def zh_compounds(text: str, tokens: list[tuple[str, str, int]]) -> list[EntityCandidate]:
    """Component compounds in jieba's segmentation: a head noun (服务, 系统, 机房 …) and the noun, place
    or English word right before it (one; two before a one-character head such as 组)."""
    out: list[EntityCandidate] = []
    words = [(w, f, s) for w, f, s in tokens if w.strip()]
    for idx, (w, _flag, s) in enumerate(words):
        head = next((h for h in ZH_COMPONENT_HEADS if w.endswith(h)), None)
        if head is None or (head in _ZH_SUFFIX_HEADS and len(w) < 3):
            continue
        if idx + 1 < len(words) and words[idx + 1][2] == s + len(w):
            nxt = words[idx + 1][0]
            if any(nxt.endswith(h) for h in ZH_COMPONENT_HEADS if h not in _ZH_SUFFIX_HEADS) or nxt.endswith(
                _ZH_AGENT_SUFFIXES
            ):
                continue  # the name goes on: 数据平台|组, 系统|架构师
        start = s
        if len(w) > len(head) and all(is_cjk(c) for c in w) and head not in _ZH_SUFFIX_HEADS:
            # one token: 测试环境, 全文索引 (a 器 word alone, 分词器, is a kind of tool, not a component)
            start = s
        else:
            want = 2 if len(w) == 1 else 1
            got = 0
            k = idx - 1
            while k >= 0 and got < want:
                pw, pf, ps = words[k]
                gap = text[ps + len(pw) : (words[k + 1][2])]
                if gap.strip() or pf not in _ZH_MODIFIER_FLAGS or pw in ("的", "和") or pw in _ZH_LIGHT_VERBS:
                    break
                if pf in ("v", "d") and (got > 0 or len(pw) < 2 or pw in ZH_STOP_WORDS):
                    break
                start = ps
                got += 1
                k -= 1
                if pf == "v":
                    break
            if got == 0:
                continue
        end = s + len(w)
        while end - start > 3 and text[start] in _ZH_LEADING_FUNCTION_CHARS:
            start += 1
        name = text[start:end]
        out.append(EntityCandidate(name, canonicalize(name, "concept"), "concept", start, end, "compound", True))
    return out


_ZH_THING_SUFFIXES = frozenset("端版系派式型号")
ZH_LANGUAGE_WORDS = word_set(
    "中文 英文 汉语 英语 日语 日文 韩语 韩文 法语 法文 德语 德文 俄语 西班牙语 普通话 粤语 繁体 简体"
)
_ZH_PLACE_BEFORE_RE = re.compile(r"(?:在|到|去|从|来自|住在|回|飞|于|和|与|、)\s*$")
_ZH_PLACE_AFTER_RE = re.compile(r"^\s*(?:机房|市|省|区|县|办公室|分公司|总部|数据中心|站|出差|开会|工作|上班|、|和)")


def _zh_place_context(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 3) : start]
    return start == 0 or bool(_ZH_PLACE_BEFORE_RE.search(before) or _ZH_PLACE_AFTER_RE.match(text[end : end + 4]))


def zh_kind(text: str, word: str, flag: str, start: int) -> EntityKind | None:
    """The kind of a jieba name: a person needs a common surname; an organisation jieba's nt or a
    workplace's shape (在 X 工作); places are ns; other proper nouns are concepts."""
    end = start + len(word)
    if word in ZH_LANGUAGE_WORDS:
        return None  # 中文, 英文: a language describes a text, as "German" does in English
    if _ZH_ORG_BEFORE_RE.search(text[max(0, start - 3) : start]) and _ZH_ORG_AFTER_RE.match(text[end : end + 4]):
        return "org"
    if flag in ("nr", "nrfg"):
        # A "name" without a common surname (卡住, 索引) is jieba's guess, not a name; one glued to a
        # suffix (安卓端) names a thing.
        if not plausible_zh_person(word) or text[end : end + 1] in _ZH_THING_SUFFIXES:
            return None
        return "person"
    if flag == "nt":
        return "org"
    if flag == "ns":
        # jieba tags some verbs as places (服务中断, 重写日志采集器): a place is where one goes, lives or is.
        return "other" if _zh_place_context(text, start, end) else None
    if flag in ("nz", "nrt"):
        before = text[:start].rstrip()
        if word[0] in "里上中内下" and before and not is_cjk(before[-1]):
            return None  # "README.md 里加一节": a locative and a verb, not jieba's transliterated name 里加
        return "concept"
    return None
