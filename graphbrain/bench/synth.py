"""A seeded stream of realistic synthetic agent sessions (tasks, decisions, preferences, events, chat).

Templates in English, Chinese and both mixed, about a shared cast (``synth_vocab``: projects, people,
tools, components); each turn is a user message and an assistant reply with the memory items
``commit_turn`` would derive from it. Keys, values and texts come from graphbrain's own key functions and
renderer; superseded and versioned items keep the one-active-item-per-key rule.

**The long tail of specific names.** Real conversations keep naming new specific things beside the
familiar cast, so the generator does too: of the turns that say something (all but chit-chat),
``SPECIFIC_SHARE`` (45 %) add a line naming one specific thing ("Tracked in PAY-1042.", "cc Nadia
Moreau.", "客户是杭州华泰恒通物流。"). Its kind is drawn by ``SPECIFIC_KINDS`` (ticket 30 %, file 20 %,
person 20 %, customer 20 %, incident 10 %) and its rank ``r`` within that kind from a Zipf (zeta) law,
``P(r) ∝ r^-1.1`` on ``1 … SPECIFIC_RANKS`` (50 000; Devroye's rejection sampler, draws above the cap
redrawn). Each rank has a name of its own, a pure function of (kind, rank, language), so a few names
recur in thousands of turns and most appear once or twice; the number of distinct names of a kind grows
about as ``draws^0.7`` (about 2 000 after 6 000 draws, 10 000 after 60 000), so the entities grow with
the data (about 3 400 at 10 000 items and 17 500 at 100 000, against some 700 and 1 000 for the cast
alone) while the cast stays fixed. Chinese sessions name Chinese people and customers (and the same
tickets, incidents and files). Questions (``questions``) ask about one of these names one time in six,
picked in proportion to how often it was mentioned. Everything is drawn from the generator's seeded
random stream: the same seed gives the same names.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from graphbrain.bench.synth_vocab import (
    ACKS,
    ACTIONS_EN,
    ACTIONS_ZH,
    CHIT_CHAT,
    CITIES_ZH,
    CODE_MODULES,
    CODE_STEMS,
    COMPONENTS_EN,
    COMPONENTS_ZH,
    CUSTOMER_CORES,
    CUSTOMER_HEADS,
    CUSTOMER_TAILS,
    CUSTOMERS_ZH_HEADS,
    CUSTOMERS_ZH_TAILS,
    EVENT_KINDS_EN,
    EVENT_KINDS_ZH,
    FIRST_NAMES,
    GIVEN_ZH,
    LAST_NAMES,
    MONTHS,
    PEOPLE_EN,
    PEOPLE_ZH,
    PREFERENCES,
    PROJECTS_EN,
    PROJECTS_ZH,
    QUESTIONS_EN,
    QUESTIONS_MIXED,
    QUESTIONS_SPECIFIC_EN,
    QUESTIONS_SPECIFIC_ZH,
    QUESTIONS_ZH,
    REASONS_EN,
    REASONS_ZH,
    SPECIFIC_LINES_EN,
    SPECIFIC_LINES_ZH,
    SURNAMES_ZH,
    TASK_NEW_EN,
    TASK_NEW_ZH,
    TICKET_PREFIXES,
    TOOLS,
)
from graphbrain.commit.candidate import render
from graphbrain.commit.keys import decision_key, event_key, goal_key, pref_key, project_slug, task_key, topic_slug
from graphbrain.contracts import MemoryType
from graphbrain.ids import entity_id as make_entity_id
from graphbrain.ids import stable_id
from graphbrain.nlp import canonicalize

__all__ = [
    "DEFAULT_SEED",
    "SessionGenerator",
    "SynthEntity",
    "SynthItem",
    "SynthMessage",
    "SynthTurn",
    "specific_name",
    "zipf_rank",
]

DEFAULT_SEED = 20_261
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

# The long tail (module docstring): how often a turn names a specific thing, of which kind (weight, and the
# entity kind commit_turn gives it), and the Zipf law of its rank.
SPECIFIC_SHARE = 0.45
SPECIFIC_KINDS: tuple[tuple[str, float, str], ...] = (
    ("ticket", 0.30, "other"),
    ("file", 0.20, "file"),
    ("person", 0.20, "person"),
    ("customer", 0.20, "org"),
    ("incident", 0.10, "other"),
)
SPECIFIC_EXPONENT = 1.1
SPECIFIC_RANKS = 50_000


def zipf_rank(rng: random.Random, exponent: float = SPECIFIC_EXPONENT, cap: int = SPECIFIC_RANKS) -> int:
    """A rank in ``1 … cap`` with ``P(r) ∝ r^-exponent`` (Devroye's rejection sampler for the zeta law,
    ranks above ``cap`` drawn again); ``exponent`` must be above 1."""
    b = 2.0 ** (exponent - 1.0)
    while True:
        u, v = 1.0 - rng.random(), rng.random()
        x = math.floor(u ** (-1.0 / (exponent - 1.0)))
        if x > cap:
            continue
        t = (1.0 + 1.0 / x) ** (exponent - 1.0)
        if v * x * (t - 1.0) / (b - 1.0) <= t / b:
            return int(x)


def specific_name(kind: str, rank: int, zh: bool = False) -> str:
    """The name of the ``rank``-th (1-based) specific thing of ``kind``; distinct ranks have distinct
    canonical names (Chinese customers, 23 520 of them, wrap around)."""
    r = rank - 1
    if kind == "ticket":
        return f"{TICKET_PREFIXES[r % len(TICKET_PREFIXES)]}-{rank + 99}"
    if kind == "incident":
        return f"INC-{rank + 999}"
    if kind == "file":
        module, stem = CODE_MODULES[r % len(CODE_MODULES)], CODE_STEMS[(r // len(CODE_MODULES)) % len(CODE_STEMS)]
        n = r // (len(CODE_MODULES) * len(CODE_STEMS))
        return f"src/{module}/{stem}.py" if n == 0 else f"src/{module}/{stem}_{n}.py"
    if kind == "person":
        if zh:
            g = len(GIVEN_ZH)
            surname = SURNAMES_ZH[r % len(SURNAMES_ZH)]
            return surname + GIVEN_ZH[(r // len(SURNAMES_ZH)) % g] + GIVEN_ZH[(r // (len(SURNAMES_ZH) * g)) % g]
        first, last = FIRST_NAMES[r % len(FIRST_NAMES)], LAST_NAMES[(r // len(FIRST_NAMES)) % len(LAST_NAMES)]
        n = r // (len(FIRST_NAMES) * len(LAST_NAMES))
        return f"{first} {last}" if n == 0 else f"{first} {chr(ord('A') + (n - 1) % 26)}. {last}"
    if kind == "customer":
        if zh:
            heads, tails = CUSTOMERS_ZH_HEADS, CUSTOMERS_ZH_TAILS
            a, b = heads[r % len(heads)], heads[(r // len(heads)) % len(heads)]
            tail = tails[(r // len(heads) ** 2) % len(tails)]
            city = CITIES_ZH[(r // (len(heads) ** 2 * len(tails))) % len(CITIES_ZH)]
            return f"{city}{a}{b}{tail}"
        head, core = (
            CUSTOMER_HEADS[r % len(CUSTOMER_HEADS)],
            CUSTOMER_CORES[(r // len(CUSTOMER_HEADS)) % len(CUSTOMER_CORES)],
        )
        tail = CUSTOMER_TAILS[(r // (len(CUSTOMER_HEADS) * len(CUSTOMER_CORES))) % len(CUSTOMER_TAILS)]
        return f"{head} {core} {tail}"
    raise ValueError(f"unknown kind of specific name: {kind!r}")


@dataclass
class SynthEntity:
    id: str
    key: str
    kind: str
    canonical: str
    name: str


@dataclass
class SynthItem:
    id: str
    type: MemoryType
    key: str
    value: dict[str, Any]
    text: str  # the searchable text, "[type:key] rendering"
    version: int
    rule: str
    old_id: str | None = None
    edge: str | None = None  # SUPERSEDES (overwrite types) | VERSION_OF (versioned types)
    superseded_at: datetime | None = None  # set when a later item takes over the key


@dataclass
class SynthMessage:
    id: str
    message_id: str
    role: str
    content: str
    position: int
    canned: bool  # a fixed phrase, repeated verbatim across the data
    mentions: list[tuple[str, int, int, str]] = field(default_factory=list)  # entity id, start, end, text


@dataclass
class SynthTurn:
    session_id: str
    session_node_id: str
    turn_id: str
    turn_node_id: str
    seq: int
    at: datetime
    project: str
    messages: list[SynthMessage]
    items: list[SynthItem]
    refs: list[dict[str, Any]]
    prev_turn_node_id: str | None
    entity_ids: list[str]
    previous: str | None = None  # the session's last message before this turn (its search context)


@dataclass
class _Spec:
    """One template's output before ids: the texts, the items, the names it mentions, refs."""

    user: str
    assistant: str
    canned_user: bool = False
    canned_assistant: bool = False
    items: list[tuple[MemoryType, str, dict[str, Any], str]] = field(default_factory=list)  # type, key, value, rule
    names: list[tuple[str, str]] = field(default_factory=list)  # (name, kind) as written in the user text
    refs: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def stating(
        cls,
        user: str,
        assistant: str,
        item: tuple[MemoryType, str, dict[str, Any], str],
        names: Sequence[tuple[str, str]] = (),
        *,
        canned_assistant: bool = False,
    ) -> _Spec:
        """The usual exchange: the user states one memory item (type, key, value, rule), the assistant acks."""
        return cls(user, assistant, canned_assistant=canned_assistant, items=[item], names=list(names))


class SessionGenerator:
    """An endless, seeded stream of synthetic agent turns (``next_turn``) and matching questions.

    Two generators with the same seed and namespace produce the same data; the state that makes the
    stream realistic (open tasks, the active item of each key, known entities) lives here.
    """

    KINDS: tuple[tuple[str, float], ...] = (
        ("task_new", 0.24),
        ("task_update", 0.12),
        ("decision", 0.14),
        ("preference", 0.05),
        ("goal", 0.05),
        ("event", 0.10),
        ("ref", 0.08),
        ("question", 0.10),
        ("chit_chat", 0.12),
    )

    def __init__(
        self,
        namespace: str,
        seed: int = DEFAULT_SEED,
        *,
        start: datetime = START,
        session_prefix: str = "s",
        projects: tuple[Sequence[str], Sequence[str]] = (PROJECTS_EN, PROJECTS_ZH),
        exclude: Sequence[str] = (),
    ) -> None:
        self.namespace = namespace
        self.projects_en, self.projects_zh = tuple(projects[0]), tuple(projects[1])
        self.rng = random.Random(seed)
        self.clock = start
        self.session_prefix = session_prefix
        self.session_no = 0
        self.turns_left = 0
        self.seq = 0
        self.session_id = ""
        self.session_lang = "en"
        self.project = self.projects_en[0]
        self.prev_turn_node_id: str | None = None
        self.last_content: str | None = None
        self.active: dict[str, SynthItem] = {}
        self.open_tasks: list[tuple[str, str, str, str]] = []  # key, title, project, language
        self.entities: dict[str, SynthEntity] = {}
        self.specific_mentions: list[str] = []  # every long-tail name as named, in order (questions pick one)
        self.items_made = 0
        self.turns_made = 0
        self._kinds = [k for k, _ in self.KINDS if k not in exclude]
        self._weights = [w for k, w in self.KINDS if k not in exclude]

    # ------------------------------------------------------------------ the stream
    def next_turn(self) -> SynthTurn:
        if self.turns_left <= 0:
            self._new_session()
        self.turns_left -= 1
        self.seq += 1
        self.clock += timedelta(minutes=self.rng.randint(1, 12), seconds=self.rng.randint(0, 59))
        kind = self.rng.choices(self._kinds, self._weights)[0]
        spec = getattr(self, f"_{kind}")()
        if kind != "chit_chat" and self.rng.random() < SPECIFIC_SHARE:
            self._name_specific(spec)
        turn_id = f"t{self.seq:03d}"
        turn_node_id = stable_id("turn", self.namespace, self.session_id, turn_id)
        messages = []
        for pos, (role, content, canned) in enumerate(
            [("user", spec.user, spec.canned_user), ("assistant", spec.assistant, spec.canned_assistant)]
        ):
            message_id = f"{turn_id}-{role[0]}"
            messages.append(
                SynthMessage(
                    id=stable_id("msg", self.namespace, self.session_id, turn_id, message_id),
                    message_id=message_id,
                    role=role,
                    content=content,
                    position=pos,
                    canned=canned,
                )
            )
        entity_ids: list[str] = []
        for name, kind_ in spec.names:
            entity = self._entity(name, kind_)
            start = spec.user.find(name)
            if start >= 0:
                messages[0].mentions.append((entity.id, start, start + len(name), name))
            if entity.id not in entity_ids:
                entity_ids.append(entity.id)
        items = [self._item(t, k, v, rule, turn_node_id) for t, k, v, rule in spec.items]
        self.prev_turn_node_id, prev = turn_node_id, self.prev_turn_node_id
        previous, self.last_content = self.last_content, messages[-1].content
        self.turns_made += 1
        return SynthTurn(
            session_id=self.session_id,
            session_node_id=stable_id("ses", self.namespace, self.session_id),
            turn_id=turn_id,
            turn_node_id=turn_node_id,
            seq=self.seq,
            at=self.clock,
            project=self.project,
            messages=messages,
            items=items,
            refs=spec.refs,
            prev_turn_node_id=prev,
            entity_ids=entity_ids,
            previous=previous,
        )

    def questions(self, n: int) -> list[str]:
        """``n`` questions about the cast, in English, Chinese and mixed (their own seeded stream)."""
        rng = random.Random(self.rng.random())
        out = []
        for i in range(n):
            pick = i % 6
            if pick == 5:
                if self.specific_mentions:
                    name = rng.choice(self.specific_mentions)
                    zh = any("\u4e00" <= ch <= "\u9fff" for ch in name)
                    out.append(rng.choice(QUESTIONS_SPECIFIC_ZH if zh else QUESTIONS_SPECIFIC_EN).format(name=name))
                    continue
                pick = 0
            slots = {
                "component": rng.choice(COMPONENTS_EN),
                "component_zh": rng.choice(COMPONENTS_ZH),
                "project": rng.choice(PROJECTS_EN),
                "project_zh": rng.choice(PROJECTS_ZH),
                "person": rng.choice(PEOPLE_EN),
                "person_zh": rng.choice(PEOPLE_ZH),
                "tool": rng.choice(TOOLS),
                "pref": rng.choice(PREFERENCES)[1],
            }
            table = QUESTIONS_ZH if pick in (1, 3) else (QUESTIONS_MIXED if pick == 4 else QUESTIONS_EN)
            out.append(rng.choice(table).format(**slots))
        return out

    # ------------------------------------------------------------------ state
    def _new_session(self) -> None:
        self.session_no += 1
        self.session_id = f"{self.session_prefix}{self.session_no:05d}"
        self.turns_left = self.rng.randint(6, 30)
        self.seq = 0
        self.prev_turn_node_id = None
        self.last_content = None
        self.clock += timedelta(hours=self.rng.randint(2, 30))
        self.session_lang = self.rng.choices(("en", "zh", "mixed"), (0.6, 0.3, 0.1))[0]
        pool = self.projects_zh if self.session_lang == "zh" else self.projects_en
        self.project = self.rng.choice(pool)

    def _lang(self) -> str:
        if self.session_lang == "mixed":
            return self.rng.choice(("en", "zh", "mixed"))
        return self.session_lang

    def _project(self) -> str:
        if self.rng.random() < 0.8:
            return self.project
        return self.rng.choice(self.projects_zh if self.session_lang == "zh" else self.projects_en)

    def _entity(self, name: str, kind: str) -> SynthEntity:
        canonical = canonicalize(name, kind)
        key = f"entity:{kind}:{canonical}"
        entity_id = make_entity_id(self.namespace, canonical)
        entity = self.entities.get(entity_id)
        if entity is None:
            entity = SynthEntity(id=entity_id, key=key, kind=kind, canonical=canonical, name=name)
            self.entities[entity_id] = entity
        return entity

    def _name_specific(self, spec: _Spec) -> None:
        """Add a line naming one specific thing of the long tail (module docstring) to the user's message."""
        r = self.rng
        kind, _, entity_kind = r.choices(SPECIFIC_KINDS, [w for _, w, _ in SPECIFIC_KINDS])[0]
        zh = self.session_lang == "zh"
        name = specific_name(kind, zipf_rank(r), zh=zh)
        line = r.choice((SPECIFIC_LINES_ZH if zh else SPECIFIC_LINES_EN)[kind]).format(name=name)
        spec.user = f"{spec.user}{line}" if zh else f"{spec.user} {line}"
        spec.names.append((name, entity_kind))
        self.specific_mentions.append(name)

    def _item(self, mtype: MemoryType, key: str, value: dict[str, Any], rule: str, turn_node_id: str) -> SynthItem:
        old = self.active.get(key)
        self.items_made += 1
        item = SynthItem(
            id=stable_id("mem", self.namespace, turn_node_id, key, self.items_made),
            type=mtype,
            key=key,
            value=value,
            text=f"[{mtype.value}:{key}] {render(mtype, value)}",
            version=old.version + 1 if old else 1,
            rule=rule,
        )
        if old is not None:
            item.old_id = old.id
            overwrite = mtype in (MemoryType.tasks, MemoryType.preferences, MemoryType.goals)
            item.edge = "SUPERSEDES" if overwrite else "VERSION_OF"
            old.superseded_at = self.clock
        self.active[key] = item
        return item

    # ------------------------------------------------------------------ templates
    def _task_new(self) -> _Spec:
        lang, project, r = self._lang(), self._project(), self.rng
        tool = r.choice(TOOLS)
        zh = lang == "zh"
        action, component = r.choice(ACTIONS_ZH if zh else ACTIONS_EN), r.choice(COMPONENTS_ZH if zh else COMPONENTS_EN)
        title = f"{action}{component}" if zh else f"{action} the {component}"
        slots = {"action": action, "component": component, "title": title, "project": project, "tool": tool}
        if not zh:
            slots["month"] = r.choice(MONTHS)
        user = r.choice(TASK_NEW_ZH if zh else TASK_NEW_EN).format(**slots)
        if lang == "mixed":
            user = f"TODO：{title}，{project} 这周要用。"
        if zh:
            assistant = f"好的，已添加任务：{title}。"
        else:
            assistant = f"Added the task: {title}." if r.random() < 0.6 else r.choice(ACKS)
        key = task_key(project_slug(project), title)
        self.open_tasks.append((key, title, project, lang))
        value = {"title": title, "status": "todo", "project": project_slug(project)}
        return _Spec.stating(
            user,
            assistant,
            (MemoryType.tasks, key, value, "bench:task-new"),
            [(project, "topic")] + ([(tool, "org")] if tool in user else []),
            canned_assistant=assistant in ACKS,
        )

    def _task_update(self) -> _Spec:
        if not self.open_tasks:
            return self._task_new()
        r = self.rng
        i = r.randrange(len(self.open_tasks))
        key, title, project, lang = self.open_tasks[i]
        status = r.choices(("doing", "done", "blocked"), (0.4, 0.45, 0.15))[0]
        person = r.choice(PEOPLE_ZH if lang == "zh" else PEOPLE_EN)
        if lang == "zh":
            user = {
                "doing": f"我正在{title}。",
                "done": f"{title}已经完成了。",
                "blocked": f"{title}卡住了，在等{person}。",
            }[status]
            assistant = "好的，已更新任务状态。"
        else:
            user = {
                "doing": f"I'm working on the task to {title} now.",
                "done": f"Finished: {title}.",
                "blocked": f"Blocked on {title}: waiting for {person}.",
            }[status]
            assistant = f"Marked '{title}' as {status}."
        if status == "done":
            self.open_tasks.pop(i)
        value = {"title": title, "status": status, "project": project_slug(project)}
        names = [(person, "person")] if status == "blocked" else []
        return _Spec.stating(user, assistant, (MemoryType.tasks, key, value, f"bench:task-{status}"), names)

    def _decision(self) -> _Spec:
        lang, project, r = self._lang(), self._project(), self.rng
        tool = r.choice(TOOLS)
        if lang == "zh":
            component, reason = r.choice(COMPONENTS_ZH), r.choice(REASONS_ZH)
            user = f"我们决定{project}的{component}用 {tool}，因为{reason}。"
            assistant = f"记下了：{component}用 {tool}。"
        else:
            component, reason = r.choice(COMPONENTS_EN), r.choice(REASONS_EN)
            user = r.choice(
                (
                    f"Let's go with {tool} for the {component} in {project}, because {reason}.",
                    f"Decision: the {project} {component} will use {tool} since {reason}.",
                )
            )
            assistant = f"Decision noted: {tool} for the {component}."
        key = decision_key(project_slug(project), topic_slug(component))
        value = {
            "topic": component,
            "decision": f"use {tool}",
            "project": project_slug(project),
            "choice": tool,
            "rationale": reason,
        }
        return _Spec.stating(
            user, assistant, (MemoryType.decisions, key, value, "bench:decision"), [(project, "topic"), (tool, "org")]
        )

    def _preference(self) -> _Spec:
        r = self.rng
        scope, name, values = r.choice(PREFERENCES)
        choice = r.choice(values)
        if self._lang() == "zh":
            user, assistant = f"以后{name}请用{choice}，我更喜欢这样。", "好的，以后照这个来。"
        else:
            user, assistant = f"I prefer {choice} for {name}.", "Sure, I'll keep that in mind."
        value = {"scope": scope, "name": name, "value": choice, "polarity": "positive"}
        return _Spec.stating(
            user,
            assistant,
            (MemoryType.preferences, pref_key(scope, name), value, "bench:preference"),
            canned_assistant=True,
        )

    def _goal(self) -> _Spec:
        lang, project, r = self._lang(), self._project(), self.rng
        month = r.choice(MONTHS)
        if lang == "zh":
            component = r.choice(COMPONENTS_ZH)
            goal = f"{month}前上线{project}的{component}"
            user, assistant = f"我们的目标是{goal}。", "目标已记录。"
        else:
            component = r.choice(COMPONENTS_EN)
            goal = f"ship the {component} for {project} by {month}"
            user, assistant = f"Our goal is to {goal}.", "That's a clear target."
        value = {"project": project_slug(project), "goal": goal}
        return _Spec.stating(
            user,
            assistant,
            (MemoryType.goals, goal_key(project_slug(project), goal), value, "bench:goal"),
            [(project, "topic")],
            canned_assistant=True,
        )

    def _event(self) -> _Spec:
        lang, project, r = self._lang(), self._project(), self.rng
        kind = r.choice(EVENT_KINDS_EN)
        day = self.clock.date().isoformat()
        if lang == "zh":
            person, component = r.choice(PEOPLE_ZH), r.choice(COMPONENTS_ZH)
            title = f"{project}{EVENT_KINDS_ZH[kind]}：{component}"
            user = f"今天和{person}开了{project}的{EVENT_KINDS_ZH[kind]}，主要讨论{component}。"
            assistant = "好的，已记录。"
        else:
            person, component = r.choice(PEOPLE_EN), r.choice(COMPONENTS_EN)
            title = f"{project} {kind} about the {component}"
            user = f"We had the {project} {kind} with {person} today, mostly about the {component}."
            assistant = f"Logged the {kind}."
        value = {"kind": kind, "title": title, "date": day, "project": project_slug(project)}
        key = event_key(project_slug(project), day, topic_slug(title, 32))
        return _Spec.stating(
            user, assistant, (MemoryType.events, key, value, "bench:event"), [(project, "topic"), (person, "person")]
        )

    def _ref(self) -> _Spec:
        lang, project, r = self._lang(), self._project(), self.rng
        slug = project_slug(project)
        component = r.choice(COMPONENTS_EN)
        ref: dict[str, Any]
        if r.random() < 0.5:
            uri = f"https://docs.example.com/{slug}/{topic_slug(component)}"
            ref = {"type": "url", "uri": uri, "title": f"{component} design"}
            kind = "url"
        else:
            uri = f"docs/{slug}/{topic_slug(component)}.md"
            ref = {"type": "file", "uri": uri, "title": None}
            kind = "file"
        if lang == "zh":
            user, assistant = f"{component} 的设计文档在 {uri}，请先看一下。", "好的，我先读这份文档。"
        else:
            user, assistant = f"The {component} design is in {uri}, please read it first.", "Will do."
        return _Spec(user=user, assistant=assistant, canned_assistant=True, names=[(uri, kind)], refs=[ref])

    def _question(self) -> _Spec:
        r = self.rng
        if self._lang() == "zh":
            component = r.choice(COMPONENTS_ZH)
            user = f"{component}的重试逻辑是怎么实现的？"
            assistant = f"{component}在失败后会指数退避重试三次。"
        else:
            component = r.choice(COMPONENTS_EN)
            user = f"How does the {component} handle retries?"
            assistant = f"The {component} retries three times with exponential back-off."
        return _Spec(user=user, assistant=assistant)

    def _chit_chat(self) -> _Spec:
        r = self.rng
        return _Spec(user=r.choice(CHIT_CHAT), assistant=r.choice(ACKS), canned_user=True, canned_assistant=True)
