"""The retention gate (seed-policies §1.2–1.4) and the entity gate (§1.3). Pure logic, no database.

``gate`` decides, per candidate, kept or dropped, with a reason and a confidence:

- never (§1.2 C): the message or the candidate's sentence is chit-chat, emotion or speculation; and
  the assistant's guesses about the user (its preferences, profile, goals) unless the user confirmed;
- must-write (§1.2 A): tasks and decisions (entities too, once they passed the entity gate);
- conditional (§1.2 B): preferences and goals need explicit, lasting wording (not "this time");
  events need a high-value kind (release / incident / milestone; a meeting only with a date);
  cases and patterns only from tool output.

Confidence (§1.4) by class, from ``ConfidenceConfig``: user_asserted at least ``user_asserted``,
tool_derived at least ``tool_derived``, inferred at most ``inferred`` (unless confirmed, which makes it
user-asserted). An explicit confidence is kept when it lies inside its class's range, else clamped.

``EntityGate`` decides which entity candidates become entities: seen often enough in the recent window,
or a structural signal (URL / repo / path, or inside a kept task / decision), or declared by the user
("remember X" / "以后都按 X"), or referred to explicitly ("this project / 那个仓库" + continue).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from graphbrain.commit import keys
from graphbrain.commit.candidate import Candidate
from graphbrain.commit.utterance import UtteranceClass, sentence_classes
from graphbrain.config import ConfidenceConfig, EntityGateConfig, NlpConfig, RetentionConfig
from graphbrain.contracts import MemoryType, RetentionDecision
from graphbrain.nlp.candidate import EntityCandidate, EntityKind
from graphbrain.nlp.detection import entity_candidates
from graphbrain.nlp.language import detect_language
from graphbrain.nlp.shapes import remember_spans

NEVER_CLASSES: frozenset[str] = frozenset({"chit_chat", "emotion", "speculation"})
MUST_WRITE: frozenset[MemoryType] = frozenset({MemoryType.tasks, MemoryType.decisions, MemoryType.entities})
HIGH_VALUE_EVENTS: frozenset[str] = frozenset({"release", "incident", "milestone"})
# What the assistant may not assert about the user on its own (§1.2 C: "模型自我输出的臆测偏好").
ABOUT_THE_USER: frozenset[MemoryType] = frozenset({MemoryType.preferences, MemoryType.profile, MemoryType.goals})
TOOL_ONLY: frozenset[MemoryType] = frozenset({MemoryType.cases, MemoryType.patterns})

# Signals and kinds that make an entity important on first sight (seed §1.3 "结构性信号").
STRUCTURAL_SIGNALS: frozenset[str] = frozenset({"url", "repo", "path", "ref"})
STRUCTURAL_KINDS: frozenset[str] = frozenset({"url", "repo", "file"})

_CLASS_REASON = {
    "chit_chat": "chit-chat, not memory",
    "emotion": "emotion, not memory",
    "speculation": "speculation, unconfirmed",
}


class Dropped(NamedTuple):
    """A candidate the gate refused, and why. Unpacks as ``(candidate, reason)``."""

    candidate: Candidate
    reason: str


def retention_decisions(kept: Sequence[Candidate], dropped: Sequence[Dropped]) -> list[RetentionDecision]:
    """The wire form for ``CommitResult.explain.retention``: every kept and dropped candidate."""
    out = [
        RetentionDecision(
            type=c.type.value,
            key=c.key,
            text=c.text,
            kept=True,
            reason=c.gate_reason or c.reason,
            confidence=c.confidence,
        )
        for c in kept
    ]
    out += [
        RetentionDecision(type=c.type.value, key=c.key, text=c.text, kept=False, reason=r, confidence=c.confidence)
        for c, r in dropped
    ]
    return out


def confidence_for(c: Candidate, cfg: ConfidenceConfig) -> float:
    """The candidate's confidence under §1.4: the class's bound, or its explicit value within the bound."""
    cls = "user_asserted" if c.confidence_class == "inferred" and c.confirmed else c.confidence_class
    if cls == "user_asserted":
        low, high, default = cfg.user_asserted, 1.0, cfg.user_asserted
    elif cls == "tool_derived":
        low, high, default = cfg.tool_derived, 1.0, cfg.tool_derived
    else:
        low, high, default = 0.0, cfg.inferred, cfg.inferred
    value = default if c.confidence is None else c.confidence
    return round(min(high, max(low, value)), 4)


def _is_tool(c: Candidate, role: str) -> bool:
    return (c.role or role) == "tool" or c.source == "tool" or c.confidence_class == "tool_derived"


def _verdict(c: Candidate, *, role: str, utterance_class: str) -> tuple[bool, str]:
    who = c.source if c.source in ("assistant", "inferred") else (c.role or role)
    # The most specific reason first: the assistant asserting something about the user (§1.2 C).
    if who in ("assistant", "inferred") and c.type in ABOUT_THE_USER and not c.confirmed:
        return False, "model guess, unconfirmed"
    # Never: the message as a whole, then the candidate's own sentence. Explicit items are structured
    # reports, not utterances, so the class of the message around them does not apply.
    if not c.explicit and utterance_class in NEVER_CLASSES and not c.retracts:
        return False, f"message is {_CLASS_REASON[utterance_class]}"
    if c.hedged:
        return False, _CLASS_REASON["speculation"]
    if c.retracts:
        if who in ("assistant", "inferred") and not c.confirmed:
            return False, "only the user (or a tool) can correct a fact"
        target = f" {c.corrects[1]}" if c.corrects else ""
        return True, f"correction of{target or ' an unknown item'}: write the corrected fact"
    if c.type in MUST_WRITE:
        return True, f"must-write: {c.type.value}"
    if c.type in TOOL_ONLY:
        if _is_tool(c, role):
            return True, f"{c.type.value} from tool output"
        return False, f"{c.type.value} are only written from tool output"
    if c.type == MemoryType.preferences:
        if c.stable:
            return True, "explicit, lasting preference"
        return False, "one-off request, not a stable preference"
    if c.type == MemoryType.goals:
        if c.stable:
            return True, "explicit goal"
        return False, "goal wording not explicit"
    if c.type == MemoryType.events:
        kind = str(c.value.get("kind", ""))
        if kind in HIGH_VALUE_EVENTS:
            return True, f"high-value event: {kind}"
        if kind == "meeting" and c.value.get("date_source") == "text":
            return True, "scheduled meeting (has a date)"
        return False, f"low-value event: {kind or 'unknown kind'}"
    if c.type == MemoryType.profile:
        return True, "stated identity fact"
    return False, f"no retention rule for {c.type.value}"


def gate(
    candidates: Sequence[Candidate],
    *,
    role: str,
    utterance_class: UtteranceClass | str,
    cfg: RetentionConfig,
) -> tuple[list[Candidate], list[Dropped]]:
    """Split candidates into (kept, dropped) under the retention policy, each with its reason.

    Every candidate gets ``gate_reason`` (why kept or dropped) and ``confidence`` (seed §1.4); dropped
    ones also come as ``(candidate, reason)``. ``role`` is the message's role, used for candidates that
    carry none; ``utterance_class`` is ``classify_utterance`` of the message. When one message yields
    the same type+key twice, the later statement wins ("superseded within the message").
    """
    kept: list[Candidate] = []
    dropped: list[Dropped] = []
    last_index = {(c.type, c.key): i for i, c in enumerate(candidates)}
    for i, c in enumerate(candidates):
        c.confidence = confidence_for(c, cfg.confidence)
        if last_index[(c.type, c.key)] != i:
            ok, reason = False, "superseded by a later statement in the same message"
        else:
            ok, reason = _verdict(c, role=role, utterance_class=str(utterance_class))
        c.gate_reason = reason
        if ok:
            kept.append(c)
        else:
            dropped.append(Dropped(c, reason))
    return kept, dropped


# ============================================================================================ entity gate
@dataclass(frozen=True)
class EntityDecision:
    """The entity gate's verdict. ``candidate`` is None for an entity of an earlier turn that this
    turn refers to explicitly ("continue with that repo")."""

    kind: EntityKind
    canonical: str
    name: str
    passed: bool
    reason: str
    candidate: EntityCandidate | None = None

    @property
    def key(self) -> str:
        return keys.entity_key(self.kind, self.canonical)


# "this project / that repo / 上次那个链接" …
_DEICTIC_RES: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"\b(?:this|that|the same|our|the previous|the last)\s+"
        r"(?P<noun>project|repo|repository|link|url|page|file|doc|"
        r"document|library|tool|person|company)\b",
        re.I,
    ),
    re.compile(
        r"(?:这个|那个|上次那个|刚才那个|之前那个|上次的|刚才的|该)(?P<noun>项目|仓库|代码库|链接|网址|网页|文件|文档|库|工具|人|公司)"
    ),
)
# … "and continue" (§1.3: 指代并要求继续).
_CONTINUE_RE = re.compile(
    r"\b(?:continue|keep going|resume|pick up|carry on|go on|get back to|back to|keep working|let's keep)\b"
    r"|继续|接着|回到|接下来|再看看|再改改",
    re.I,
)
_DEICTIC_KINDS: dict[str, tuple[EntityKind, ...]] = {
    "project": ("repo", "topic", "other"),
    "repo": ("repo",),
    "repository": ("repo",),
    "link": ("url",),
    "url": ("url",),
    "page": ("url",),
    "file": ("file",),
    "doc": ("file", "url"),
    "document": ("file", "url"),
    "library": ("topic", "other", "repo"),
    "tool": ("topic", "other"),
    "person": ("person",),
    "company": ("org",),
    "项目": ("repo", "topic", "other"),
    "仓库": ("repo",),
    "代码库": ("repo",),
    "链接": ("url",),
    "网址": ("url",),
    "网页": ("url",),
    "文件": ("file",),
    "文档": ("file", "url"),
    "库": ("topic", "other", "repo"),
    "工具": ("topic", "other"),
    "人": ("person",),
    "公司": ("org",),
}


def references(text: str) -> list[tuple[EntityKind, ...]]:
    """For each "this project / 那个仓库 …" in a text that also asks to continue, the kinds it can mean."""
    if not _CONTINUE_RE.search(text):
        return []
    return [
        _DEICTIC_KINDS[m.group("noun").lower()]
        for rx in _DEICTIC_RES
        for m in rx.finditer(text)
        if m.group("noun").lower() in _DEICTIC_KINDS
    ]


class EntityGate:
    """Seed §1.3: which entity candidates become ``entities`` (pure logic: the caller supplies counts).

    ``counts`` maps a canonical name to how many of the previous turns of the window mentioned it
    (``window_counts`` builds it from per-turn canonical lists, keeping the last ``window_turns - 1``
    turns, since this turn completes the window). A candidate passes when, counting this turn,
    it reaches ``freq_threshold``, or on any of the other conditions; every decision has a reason.
    """

    def __init__(self, cfg: EntityGateConfig) -> None:
        self.cfg = cfg

    def window_counts(self, history: Sequence[Iterable[str]]) -> Counter[str]:
        """Mentions per canonical over the last ``window_turns - 1`` turns (each turn counted once)."""
        recent = history[-(self.cfg.window_turns - 1) :] if self.cfg.window_turns > 1 else []
        counts: Counter[str] = Counter()
        for turn in recent:
            counts.update(set(turn))
        return counts

    def decide(
        self,
        *,
        name: str,
        kind: str,
        signals: Iterable[str],
        window_count: int,
        in_task_or_decision: bool = False,
        declared: bool = False,
        referenced: bool = False,
    ) -> tuple[bool, str]:
        """Pass or fail one entity, and why. ``window_count`` counts this turn's mention too.

        ``signals``: how it was found (EntityCandidate.signal values, or "ref" for a turn's refs);
        ``declared``: inside a user's "remember X" / "以后都按 X"; ``referenced``: the user pointed at it
        ("this project / 那个仓库") and asked to continue.
        """
        found = set(signals)
        structural = sorted(found & STRUCTURAL_SIGNALS)
        if structural or kind in STRUCTURAL_KINDS:
            return True, f"structural signal: {', '.join(structural) or kind}"
        if in_task_or_decision:
            return True, "structural signal: inside a kept memory item"
        if declared or "remember" in found:
            return True, "user declared: remember / 以后都按"
        if window_count >= self.cfg.freq_threshold:
            return True, f"frequency: {window_count} mentions in the last {self.cfg.window_turns} turns"
        if referenced:
            return True, "explicit reference with a request to continue"
        need = self.cfg.freq_threshold
        return (
            False,
            f"{name!r} seen {window_count}/{need} times in the last {self.cfg.window_turns} turns, no other signal",
        )

    def evaluate(
        self,
        candidates: Sequence[EntityCandidate],
        *,
        counts: Mapping[str, int],
        text: str = "",
        role: str = "user",
        kept: Sequence[Candidate] = (),
        recent: Sequence[tuple[EntityKind, str]] = (),
    ) -> list[EntityDecision]:
        """One decision per candidate of this turn, plus one per earlier entity it explicitly refers to.

        ``counts``: mentions per canonical in the *previous* turns of the window (``window_counts``);
        ``text``: this message (for "remember X" and explicit references); ``kept``: the candidates the
        retention gate kept from it (entities inside a kept task or decision pass); ``recent``: (kind,
        canonical) of entities of earlier turns, most recent last, for "continue with that repo".
        """
        declared_spans = remember_spans(text) if role == "user" else []
        anchors = [c for c in kept if c.type in (MemoryType.tasks, MemoryType.decisions)]
        anchor_texts = [str(c.value.get("title") or c.value.get("decision") or c.text).casefold() for c in anchors]
        anchor_texts += [str(c.value.get("topic", "")).casefold() for c in anchors if c.value.get("topic")]
        refs = references(text) if role == "user" else []
        pointed = {kind for kinds in refs for kind in kinds}

        out: list[EntityDecision] = []
        for ec in candidates:
            inside_anchor = any(s <= ec.start and ec.end <= e for c in anchors for s, e in [c.span]) or any(
                ec.canonical and ec.canonical in t for t in anchor_texts
            )
            ok, reason = self.decide(
                name=ec.name,
                kind=ec.kind,
                signals={ec.signal},
                window_count=counts.get(ec.canonical, 0) + 1,
                in_task_or_decision=inside_anchor,
                declared=any(s <= ec.start and ec.end <= e for s, e in declared_spans),
                referenced=ec.kind in pointed,
            )
            out.append(EntityDecision(ec.kind, ec.canonical, ec.name, ok, reason, ec))

        # "continue with that repo": per reference, the most recent earlier entity of a kind it can mean,
        # unless this turn names one itself.
        present = {(ec.kind, ec.canonical) for ec in candidates}
        for kinds in refs:
            if any(k in kinds for k, _ in present):
                continue
            for rkind, canonical in reversed(recent):
                if rkind in kinds:
                    reason = "explicit reference to an earlier entity with a request to continue"
                    out.append(EntityDecision(rkind, canonical, canonical, True, reason))
                    present.add((rkind, canonical))
                    break
        return out


# ============================================================================================ one turn's entities
@dataclass
class TurnEntity:
    """Everything one turn says about one entity (by canonical name): the first kind and name seen, how
    it was found (signals), and where (message index, start, end, text as written)."""

    canonical: str
    kind: EntityKind
    name: str
    signals: set[str]
    mentions: list[tuple[int, int, int, str]]
    candidates: list[EntityCandidate]


@dataclass
class TurnEntities:
    """The entity candidates of a turn, grouped by canonical name (one real thing is one node even when
    another sentence gives it another kind: the first kind seen names the key)."""

    entities: dict[str, TurnEntity]

    @classmethod
    def collect(
        cls,
        messages: Sequence[tuple[str, str]],
        *,
        cfg: NlpConfig | None = None,
        lexicon: Mapping[str, tuple[str, str]] | None = None,
    ) -> TurnEntities:
        """Candidates of every (role, text) message but tool output (a tool's text is not the user's
        talk). ``lexicon``: the names (as written) of the entities the namespace already knows → (kind,
        canonical): the entity ruler finds them whatever a model makes of them."""
        found: dict[str, TurnEntity] = {}
        for i, (role, text) in enumerate(messages):
            if not text or role == "tool":
                continue
            for ec in entity_candidates(text, detect_language(text), cfg=cfg, lexicon=lexicon):
                te = found.get(ec.canonical)
                if te is None:
                    te = TurnEntity(ec.canonical, ec.kind, ec.name, set(), [], [])
                    found[ec.canonical] = te
                te.signals.add(ec.signal)
                te.mentions.append((i, ec.start, ec.end, ec.name))
                te.candidates.append(ec)
        return cls(found)

    def add(self, canonical: str, kind: EntityKind, name: str, signal: str) -> None:
        """An entity the turn names outside its messages (a ref): structural, no text span."""
        te = self.entities.get(canonical)
        if te is None:
            te = TurnEntity(canonical, kind, name, set(), [], [])
            self.entities[canonical] = te
        te.signals.add(signal)


def gate_turn_entities(
    found: TurnEntities,
    egate: EntityGate,
    *,
    known: Collection[str],
    window: Sequence[Iterable[str]],
    kept: Sequence[Candidate],
    texts: Sequence[tuple[str, str]] = (),
) -> list[EntityDecision]:
    """The entity gate over one turn (seed §1.3), one decision per canonical, sorted.

    An entity the namespace knows passes. A new one passes on a structural signal (URL, repo, path, a
    ref); inside a memory item the turn keeps (a task, a decision, a preference, an event, a profile
    fact: it is what the fact is about); as a named person, an organisation or a component that is the
    subject or object of a statement ("Alice leads the project", "Kenji owns the feature store"); when
    the user declared it ("remember X"); or on frequency in the session window (``window``: the
    canonicals of each earlier turn of the window, oldest first).
    """
    items = [c for c in kept if c.type != MemoryType.entities]
    item_texts = [
        " ".join(str(v) for v in c.value.values() if isinstance(v, str)).casefold() + " " + c.text.casefold()
        for c in items
    ]
    counts: Counter[str] = Counter()
    for turn in window:
        counts.update(set(turn))
    classes = [sentence_classes(text) if text else [] for _, text in texts]
    declared = [remember_spans(text) if role == "user" and text else [] for role, text in texts]

    def sentence_class(msg: int, start: int) -> str:
        for s, e, cls in classes[msg] if msg < len(classes) else []:
            if s <= start < e:
                return cls
        return "statement"

    out: list[EntityDecision] = []
    for canonical, te in sorted(found.entities.items()):
        first = te.candidates[0] if te.candidates else None
        if canonical in known:
            out.append(EntityDecision(te.kind, canonical, te.name, True, "already known", first))
            continue
        anchored = any(c.canonical in t or c.name.casefold() in t for c in te.candidates for t in item_texts)
        arguments = [
            c
            for c, (msg, start, _, _) in zip(te.candidates, te.mentions, strict=False)
            if c.salient and sentence_class(msg, start) == "statement"
        ]
        ok, reason = egate.decide(
            name=te.name,
            kind=te.kind,
            signals=te.signals,
            window_count=counts.get(canonical, 0) + 1,
            in_task_or_decision=anchored,
            declared=any(
                s <= st and en <= e for msg, st, en, _ in te.mentions if msg < len(declared) for s, e in declared[msg]
            ),
        )
        if not ok and arguments:
            what = {"person": "a named person", "org": "an organisation", "other": "a named place"}.get(te.kind)
            if what is None:
                what = "what a statement is about" if any(c.about for c in arguments) else "a component"
            ok, reason = True, f"{what} in a statement of fact (subject or object)"
        out.append(EntityDecision(te.kind, canonical, te.name, ok, reason, first))
    return out
