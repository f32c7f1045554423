"""Speed at scale, against the physical floor measured in the same run, as the data grows.

    report = run_scale(lambda: Brain.from_config("brain.yml"), sizes=(10_000, 100_000))
    print(format_scale(report))             # graphbrain.bench.report

**Data.** A seeded generator writes realistic agent sessions from templates in English, Chinese and
both mixed: new tasks and their status changes, decisions (and revisions), preferences (and changes of
mind), goals, meetings / releases / incidents, links and files, questions and chit-chat, each turn a
user message and an assistant reply, about a fixed cast of projects, people and tools. Committing
100 000 memory items one ``commit_turn`` at a time takes hours here, so the bulk of the data goes in
through a loader that writes *the same node shapes* as ``commit_turn`` (docs/graph-model.md: Session,
Turn, Message, Memory with its type label, Entity, MemoryKey, Ref, and HAS_TURN / NEXT / HAS_MESSAGE /
DERIVED_FROM / SUPERSEDES / VERSION_OF / MENTIONS / RELATED_TO / REFERENCES) with batched ``UNWIND``
queries (``cypher/bench/bulk_*``), one write transaction per batch. Keys, values and texts are made
by graphbrain's own key functions and renderer; superseded and versioned items keep the one-active-item
-per-key rule. Every message, item and entity is embedded by the same embedder, in batches (a text
repeated verbatim, like "Got it.", is embedded once). Vectors travel as strings of integers (×1e7) and
are rebuilt into float lists by Cypher: the Python driver packs a float list one value at a time,
which made the loader spend most of its time packing. Not generated: summaries, commit/context traces
and documents (the ingest figure measures documents separately).

Sizes are memory items; they are loaded in ascending order into one namespace, each step adding to the
previous one, and everything is measured at each step.

The measured ``commit_turn`` calls talk about projects of their own (``LIVE_PROJECTS_*``, no
preferences), so the real pipeline and the loader never contend for a key; any item a real commit
made active for a key the loader writes later is superseded first (``bench/bulk_retire``). The
namespace (``bench-scale-<seed>``) is deleted before the run and, unless ``keep``, after it.

**Figures per size** (``samples`` rounds after an untimed warm-up round that compiles the query
plans; each round takes one generated question and one generated turn and runs the floors, then
``commit_turn``, ``compose_context`` and each retrieve mode, back to back, so that a figure and its
floor see the same moment of a shared machine):

- ``commit_turn``: wall ms per turn of freshly generated turns into a new session, through
  ``brain.commit_turn``; the time inside the embedding model is measured apart (``model_ms``) and the
  rest is ``outside_model_ms``.
- ``compose_context``: wall ms of ``Composer.compose`` for generated questions (``now`` = the data's
  last day + 1), and each step's share from ``package.debug.timings_ms``.
- ``retrieve:<mode>``: wall ms of ``brain.retrieve`` with one query in that mode, ``scope: [memory,
  turns]``, ``top_k`` 10.
- ``ingest``: ``graphbrain.bench.ingest_bench.run_ingest_bench`` on ``seeds/docs`` (chunks per second).

**The floor**, measured in the same rounds on the same data, so that noise on a shared machine cancels
in the ratios: a bare ``db.index.vector.queryNodes`` and a bare ``db.index.fulltext.queryNodes`` (k =
the first k the retrievers ask, ``OVERSAMPLE × candidate_k``), over the memory and the message indexes,
run as named queries through the store like every retriever query; a bare one-node write transaction;
the embedding model's single-text latency and batch throughput. Each figure's floor:

====================  =====================================================================
commit_turn           the turn's own model time + one bare write transaction
retrieve:exact        full-text(memory) + full-text(messages)
retrieve:relational   full-text(memory) + full-text(messages) (its seeds are full-text lookups)
retrieve:semantic     embed one text + vector(memory) + vector(messages)
retrieve:hybrid       embed one text + vector(memory, messages) + full-text(memory, messages)
retrieve:associative  as hybrid
compose_context       as hybrid: the least work that answers a question from the indexes
commit outside model  one bare write transaction
ingest                the model's own texts/s in that ingest ÷ graphbrain's chunks/s
====================  =====================================================================
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphbrain.assets import asset_dir
from graphbrain.bench.ingest_bench import run_ingest_bench
from graphbrain.bench.locomo import delete_namespace, namespace_counts, timed_embedder, warm_up_models
from graphbrain.bench.scoring import mean, percentile, ratio, summarise_latencies
from graphbrain.commit.extract import render
from graphbrain.commit.keys import decision_key, event_key, goal_key, pref_key, project_slug, task_key, topic_slug
from graphbrain.contracts import MemoryType
from graphbrain.errors import GraphbrainError
from graphbrain.ids import entity_id as make_entity_id
from graphbrain.ids import stable_id
from graphbrain.nlp import canonicalize, detect_language
from graphbrain.nlp.analysis import query_terms
from graphbrain.retrieve.base import OVERSAMPLE, lucene_query

if TYPE_CHECKING:
    from graphbrain.brain import Brain
    from graphbrain.store import Store, Tx

__all__ = ["SessionGenerator", "bulk_load", "main_scale", "parse_sizes", "run_scale"]

DEFAULT_SIZES = (10_000, 100_000)
DEFAULT_SAMPLES = 30
DEFAULT_SEED = 20_261
DEFAULT_BATCH_TURNS = 250
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
VECTOR_SCALE = 10_000_000  # vectors travel as integers × 1e7 (7 decimals: far below the model's noise)
RETRIEVE_MODES = ("exact", "semantic", "hybrid", "relational", "associative")
FIGURE_LABELS = {
    "commit_turn": "commit_turn",
    "commit_turn_outside_model": "commit_turn outside model",
    "compose_context": "compose_context",
    **{f"retrieve:{m}": f"retrieve {m}" for m in RETRIEVE_MODES},
}
FLOOR_LABELS = {
    "vector:memory": "vector top-k memory",
    "vector:messages": "vector top-k messages",
    "fulltext:memory": "full-text memory",
    "fulltext:messages": "full-text messages",
    "write": "bare write tx",
    "model_one": "model: embed one text",
}
Progress = Callable[[str], None]

# =================================================================================== vocabulary
PROJECTS_EN = (
    "Atlas", "Billing", "Falcon", "Helios", "Orion", "Payments", "Nebula", "Quartz", "Zephyr", "Lumen",
    "Apollo", "Cobalt", "Ember", "Granite", "Harbor", "Juniper",
)  # fmt: skip
PROJECTS_ZH = ("支付系统", "搜索平台", "数据中台", "风控引擎", "会员中心", "推荐系统", "客服机器人", "物流调度")
# The measured commit_turn calls talk about projects of their own, so the real pipeline and the bulk
# loader never write the same keys (the loader keeps each key's version chain itself).
LIVE_PROJECTS_EN = ("Kestrel", "Lynx", "Mercury", "Nimbus", "Onyx", "Pulsar")
LIVE_PROJECTS_ZH = ("智能客服", "结算中心", "监控平台")
COMPONENTS_EN = (
    "API gateway", "login page", "vector index", "cache layer", "CI pipeline", "billing export",
    "onboarding flow", "rate limiter", "search ranking", "audit log", "admin dashboard", "mobile app",
    "webhook retries", "schema migration", "nightly report", "alerting rules", "feature flags",
    "session store", "image upload", "PDF parser",
)  # fmt: skip
COMPONENTS_ZH = (
    "登录页面", "缓存层", "向量索引", "接口网关", "报表导出",
    "权限系统", "消息队列", "日志采集", "数据同步", "支付回调",
)  # fmt: skip
TOOLS = (
    "Neo4j", "PostgreSQL", "Redis", "Kafka", "Docker", "Kubernetes", "React", "FastAPI", "Grafana",
    "Terraform", "Elasticsearch", "ClickHouse", "RabbitMQ", "Nginx", "Sentry", "Airflow",
)  # fmt: skip
PEOPLE_EN = (
    "Alice Chen", "Bob Martin", "Diego Alvarez", "Emma Schmidt", "Farah Khan", "George Okafor",
    "Hana Suzuki", "Ivan Petrov", "Julia Rossi", "Kofi Mensah", "Lena Novak", "Marco Silva",
)  # fmt: skip
PEOPLE_ZH = ("王伟", "李娜", "张敏", "刘洋", "陈静", "杨帆", "赵磊", "黄丽")
ACTIONS_EN = ("fix", "refactor", "review", "document", "benchmark", "migrate", "deploy", "test", "profile", "rewrite")
ACTIONS_ZH = ("修复", "重构", "评审", "编写文档", "压测", "迁移", "部署", "测试", "优化", "监控")
REASONS_EN = (
    "it is faster", "the team knows it", "it has better docs", "it is cheaper to run", "it scales out",
    "it supports transactions", "the old one kept timing out", "it is already in production",
)  # fmt: skip
REASONS_ZH = ("性能更好", "团队更熟悉", "运维成本更低", "文档更完善", "已经在生产环境使用", "支持事务")
PREFERENCES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("coding", "indentation", ("tabs", "4 spaces", "2 spaces")),
    ("writing", "language", ("English", "中文")),
    ("writing", "tone", ("concise answers", "detailed explanations")),
    ("tools", "editor", ("VS Code", "Neovim", "PyCharm")),
    ("coding", "test framework", ("pytest", "unittest")),
    ("ui", "theme", ("dark mode", "light mode")),
    ("tools", "database client", ("DBeaver", "psql")),
    ("other", "meeting time", ("mornings", "afternoons")),
)
EVENT_KINDS_EN = ("meeting", "release", "incident", "demo")
EVENT_KINDS_ZH = {"meeting": "会议", "release": "发布", "incident": "故障", "demo": "演示"}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October")
CHIT_CHAT = (
    "Thanks!", "haha ok", "Good morning!", "Great, thank you.", "Sounds good.", "好的，谢谢", "收到", "辛苦了",
    "Cool 👍", "明白了", "Perfect, thanks a lot!", "哈哈好的",
)  # fmt: skip
ACKS = (
    "Got it.", "Noted.", "Sure, I'll keep that in mind.", "Done.", "好的，记下了。", "收到，已更新。",
    "Understood.", "I've updated the task list.", "Okay!", "没问题。",
)  # fmt: skip
QUESTIONS_EN = (
    "What did we decide for the {component} in {project}?",
    "Which tool did we pick for the {component}?",
    "What are the open tasks for {project}?",
    "What is {person} working on?",
    "What happened in the last {project} meeting?",
    "Is the {component} migration done?",
    "What does the user prefer for {pref}?",
    "Why did we choose {tool}?",
    "Show me everything about {tool} in {project}.",
    "What is blocking the {component}?",
)
QUESTIONS_ZH = (
    "{project_zh}的{component_zh}最后决定用什么？",
    "{project_zh}还有哪些待办？",
    "{person_zh}最近在做什么？",
    "上次{project_zh}的会议讨论了什么？",
    "为什么选择{tool}？",
    "{component_zh}的迁移完成了吗？",
)
QUESTIONS_MIXED = ("{project} 的 {component} 用 {tool} 了吗？", "最近 {project} 有什么 decision？")


def parse_sizes(items: str | Sequence[int]) -> list[int]:
    """``"2000,10000"`` or ``[2000, 10000]`` → sorted, de-duplicated positive sizes."""
    raw = [p for p in re.split(r"[,\s]+", items) if p] if isinstance(items, str) else list(items)
    sizes = sorted({int(str(v).replace("_", "")) for v in raw})
    if not sizes or sizes[0] <= 0:
        raise ValueError("sizes must be positive integers")
    return sizes


# =================================================================================== the generator
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
        self.active: dict[str, SynthItem] = {}
        self.open_tasks: list[tuple[str, str, str, str]] = []  # key, title, project, language
        self.entities: dict[str, SynthEntity] = {}
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
        )

    def questions(self, n: int) -> list[str]:
        """``n`` questions about the cast, in English, Chinese and mixed (their own seeded stream)."""
        rng = random.Random(self.rng.random())
        out = []
        for i in range(n):
            pick = i % 5
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
        if lang == "zh":
            action, component = r.choice(ACTIONS_ZH), r.choice(COMPONENTS_ZH)
            title = f"{action}{component}"
            user = r.choice(
                (
                    f"待办：{action}{project}的{component}。",
                    f"明天之前要{action}{component}，{project}那边在等。",
                    f"记一下，{title}，用 {tool}。",
                )
            )
            assistant = f"好的，已添加任务：{title}。"
        else:
            action, component = r.choice(ACTIONS_EN), r.choice(COMPONENTS_EN)
            title = f"{action} the {component}"
            user = r.choice(
                (
                    f"TODO: {title} for {project}.",
                    f"Can you remind me to {title} in {project} by {r.choice(MONTHS)}?",
                    f"I need to {title} before the {project} release, probably with {tool}.",
                )
            )
            if lang == "mixed":
                user = f"TODO：{title}，{project} 这周要用。"
            assistant = f"Added the task: {title}." if r.random() < 0.6 else r.choice(ACKS)
        key = task_key(project_slug(project), title)
        self.open_tasks.append((key, title, project, lang))
        value = {"title": title, "status": "todo", "project": project_slug(project)}
        return _Spec(
            user=user,
            assistant=assistant,
            canned_assistant=assistant in ACKS,
            items=[(MemoryType.tasks, key, value, "bench:task-new")],
            names=[(project, "topic")] + ([(tool, "org")] if tool in user else []),
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
        return _Spec(
            user=user,
            assistant=assistant,
            items=[(MemoryType.tasks, key, value, f"bench:task-{status}")],
            names=names,
        )

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
        return _Spec(
            user=user,
            assistant=assistant,
            items=[(MemoryType.decisions, key, value, "bench:decision")],
            names=[(project, "topic"), (tool, "org")],
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
        return _Spec(
            user=user,
            assistant=assistant,
            canned_assistant=True,
            items=[(MemoryType.preferences, pref_key(scope, name), value, "bench:preference")],
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
        return _Spec(
            user=user,
            assistant=assistant,
            canned_assistant=True,
            items=[(MemoryType.goals, goal_key(project_slug(project), goal), value, "bench:goal")],
            names=[(project, "topic")],
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
        return _Spec(
            user=user,
            assistant=assistant,
            items=[(MemoryType.events, key, value, "bench:event")],
            names=[(project, "topic"), (person, "person")],
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


# =================================================================================== the bulk loader
def _vector_strings(vectors: Sequence[Sequence[float]]) -> list[str]:
    """Unit vectors as space-separated integers (× VECTOR_SCALE); ``cypher/bench`` divides them back."""
    if not vectors:
        return []
    ints = np.rint(np.asarray(vectors, dtype=np.float64) * VECTOR_SCALE).astype(np.int64)
    return [" ".join(map(str, row)) for row in ints.tolist()]


@dataclass
class LoadStats:
    turns: int = 0
    messages: int = 0
    items: int = 0
    embedded: int = 0
    batches: int = 0
    generate_s: float = 0.0
    embed_s: float = 0.0
    format_s: float = 0.0
    write_s: float = 0.0
    wall_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in vars(self).items()}


class _Embeddings:
    """Embeds in batches; remembers the vector strings of canned phrases (the only verbatim repeats)."""

    def __init__(self, embedder: Any, stats: LoadStats) -> None:
        self.embedder = embedder
        self.stats = stats
        self.canned: dict[str, str] = {}

    def strings(self, texts: Sequence[str], canned: Sequence[bool]) -> list[str | None]:
        out: list[str | None] = [None] * len(texts)
        todo: dict[str, list[int]] = {}
        for i, (text, is_canned) in enumerate(zip(texts, canned, strict=True)):
            if not text.strip():
                continue
            if is_canned and text in self.canned:
                out[i] = self.canned[text]
            else:
                todo.setdefault(text, []).append(i)
        if todo:
            unique = list(todo)
            t0 = time.perf_counter()
            vectors = self.embedder.embed(unique)
            t1 = time.perf_counter()
            strings = _vector_strings(vectors)
            self.stats.embed_s += t1 - t0
            self.stats.format_s += time.perf_counter() - t1
            self.stats.embedded += len(unique)
            for text, s in zip(unique, strings, strict=True):
                for i in todo[text]:
                    out[i] = s
                    if canned[i]:
                        self.canned[text] = s
        return out


def _batch_rows(
    turns: Sequence[SynthTurn],
    gen: SessionGenerator,
    emb: _Embeddings,
    written_entities: set[str],
    confidence: float,
) -> dict[str, Any]:
    """Every row of one bulk write, embeddings included (in one model call per batch)."""
    ns = gen.namespace
    texts: list[str] = []
    canned: list[bool] = []
    for t in turns:
        for m in t.messages:
            texts.append(m.content)
            canned.append(m.canned)
    for t in turns:
        for it in t.items:
            texts.append(it.text)
            canned.append(False)
    new_entities = sorted({e for t in turns for e in t.entity_ids if e not in written_entities})
    texts += [gen.entities[e].name for e in new_entities]
    canned += [True] * len(new_entities)
    vectors = iter(emb.strings(texts, canned))

    sessions: dict[str, dict[str, Any]] = {}
    turn_rows, next_rows, ref_rows = [], [], []
    for t in turns:
        s = sessions.setdefault(
            t.session_node_id, {"id": t.session_node_id, "session_id": t.session_id, "created_at": t.at}
        )
        s["updated_at"], s["last_seq"] = t.at, t.seq
        turn_rows.append(
            {
                "id": t.turn_node_id,
                "session_node_id": t.session_node_id,
                "session_id": t.session_id,
                "turn_id": t.turn_id,
                "seq": t.seq,
                "at": t.at,
                "commit_id": stable_id("commit", ns, t.turn_node_id),
                "entity_keys": sorted({gen.entities[e].canonical for e in t.entity_ids}),
                "text": "\n".join(f"{m.role}: {m.content}" for m in t.messages if m.content),
                "metadata_json": f'{{"project": "{t.project}"}}',
                "messages": [
                    {
                        "id": m.id,
                        "message_id": m.message_id,
                        "role": m.role,
                        "content": m.content,
                        "position": m.position,
                        "language": detect_language(m.content) if m.content else None,
                        "embedding": next(vectors),
                    }
                    for m in t.messages
                ],
            }
        )
        if t.prev_turn_node_id:
            next_rows.append({"a": t.prev_turn_node_id, "b": t.turn_node_id})
        for r in t.refs:
            ref_id = stable_id("ref", ns, r["type"], r["uri"])
            ref_rows.append({"id": ref_id, "turn_node_id": t.turn_node_id, "at": t.at, **r})

    item_rows: list[dict[str, Any]] = []
    retire_rows: list[dict[str, Any]] = []
    link_rows: list[dict[str, Any]] = []
    key_rows: list[dict[str, Any]] = []
    for t in turns:
        user = t.messages[0]
        for it in t.items:
            active = it.superseded_at is None
            item_rows.append(
                {
                    "id": it.id,
                    "type": it.type.value,
                    "turn_node_id": t.turn_node_id,
                    "message_node_id": user.id,
                    "active_key": f"{ns}|{it.key}" if active else None,
                    "embedding": next(vectors),
                    "props": {
                        "type": it.type.value,
                        "key": it.key,
                        "value_json": _json(it.value),
                        "text": it.text,
                        "confidence": confidence,
                        "status": "active" if active else "superseded",
                        "source": "user",
                        "source_session_id": t.session_id,
                        "source_turn_id": t.turn_id,
                        "source_message_id": user.message_id,
                        "evidence_refs": [],
                        "version": it.version,
                        "rule": it.rule,
                        "missing_embedding": False,
                        "task_status": it.value.get("status") if it.type == MemoryType.tasks else None,
                        "created_at": t.at,
                        "updated_at": it.superseded_at or t.at,
                    },
                }
            )
            if it.version == 1:
                key_rows.append({"id": f"{ns}|{it.key}", "key": it.key})
            if it.old_id:
                link_rows.append({"new_id": it.id, "old_id": it.old_id, "edge": it.edge, "at": t.at})
            if active:
                # Whatever holds the key now (an earlier batch's item, or one a measured commit_turn
                # wrote) steps down first: one active item per key.
                retire_rows.append({"active_key": f"{ns}|{it.key}", "at": t.at})

    entity_rows = []
    counts = Counter(e for t in turns for m in t.messages for e, *_ in m.mentions)
    for e in new_entities:
        ent = gen.entities[e]
        first = next(t for t in turns if e in t.entity_ids)
        entity_rows.append(
            {
                "id": ent.id,
                "key": ent.key,
                "lock_id": f"{ns}|{ent.key}",
                "kind": ent.kind,
                "canonical": ent.canonical,
                "name": ent.name,
                "session_id": first.session_id,
                "turn_id": first.turn_id,
                "message_id": first.messages[0].message_id,
                "at": first.at,
                "embedding": next(vectors),
                "value_json": _json({"name": ent.name, "kind": ent.kind, "canonical": ent.canonical}),
                "confidence": confidence,
            }
        )
    last_seen: dict[str, datetime] = {}
    for t in turns:
        for e in t.entity_ids:
            last_seen[e] = t.at
    entity_updates = [{"id": e, "count": counts.get(e, 0), "at": at} for e, at in sorted(last_seen.items())]
    message_mentions, turn_mentions, memory_mentions = [], [], []
    related: Counter[tuple[str, str]] = Counter()
    related_at: dict[tuple[str, str], datetime] = {}
    for t in turns:
        for m in t.messages:
            for e, start, end, text in m.mentions:
                message_mentions.append(
                    {"message_node_id": m.id, "entity_id": e, "start": start, "end": end, "text": text}
                )
        per_turn = Counter(e for m in t.messages for e, *_ in m.mentions)
        for e in t.entity_ids:
            turn_mentions.append({"turn_node_id": t.turn_node_id, "entity_id": e, "count": per_turn.get(e, 1)})
        for it in t.items:
            low = it.text.casefold()
            for e in t.entity_ids:
                if gen.entities[e].name.casefold() in low:
                    memory_mentions.append({"memory_id": it.id, "entity_id": e})
        ids = sorted(set(t.entity_ids))
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                related[(a, b)] += 1
                related_at[(a, b)] = t.at
    written_entities.update(new_entities)
    return {
        "sessions": list(sessions.values()),
        "turns": turn_rows,
        "next": next_rows,
        "refs": ref_rows,
        "retire": retire_rows,
        "items": item_rows,
        "links": link_rows,
        "keys": key_rows,
        "entities": entity_rows,
        "entity_updates": entity_updates,
        "message_mentions": message_mentions,
        "turn_mentions": turn_mentions,
        "memory_mentions": memory_mentions,
        "related": [{"a": a, "b": b, "n": n, "at": related_at[(a, b)]} for (a, b), n in sorted(related.items())],
    }


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _write_batch(store: Store, namespace: str, rows: Mapping[str, Any]) -> None:
    def work(tx: Tx) -> None:
        p = {"namespace": namespace}
        tx.run("bench/bulk_turns", {**p, "sessions": rows["sessions"], "turns": rows["turns"]})
        if rows["next"]:
            tx.run("bench/bulk_next", {"pairs": rows["next"]})
        if rows["refs"]:
            tx.run("bench/bulk_refs", {**p, "refs": rows["refs"]})
        if rows["retire"]:
            tx.run("bench/bulk_retire", {"items": rows["retire"]})
        if rows["items"]:
            tx.run("bench/bulk_memory", {**p, "items": rows["items"], "keys": rows["keys"]})
        if rows["links"]:
            tx.run("bench/bulk_links", {"links": rows["links"]})
        tx.run(
            "bench/bulk_entities",
            {
                **p,
                "entities": rows["entities"],
                "updates": rows["entity_updates"],
                "message_mentions": rows["message_mentions"],
                "turn_mentions": rows["turn_mentions"],
                "memory_mentions": rows["memory_mentions"],
                "related": rows["related"],
            },
        )

    store.write(work)


def bulk_load(
    brain: Brain,
    gen: SessionGenerator,
    target_items: int,
    *,
    batch_turns: int = DEFAULT_BATCH_TURNS,
    written_entities: set[str] | None = None,
    embeddings: _Embeddings | None = None,
    stats: LoadStats | None = None,
    progress: Progress | None = None,
) -> LoadStats:
    """Generate and write turns until ``gen`` has made ``target_items`` memory items.

    Generation and embedding of batch n+1 overlap the write of batch n (one writer thread, so batches
    are written in order: supersessions and NEXT links always find their older node).
    """
    stats = stats or LoadStats()
    written = written_entities if written_entities is not None else set()
    emb = embeddings or _Embeddings(brain.embedder, stats)
    confidence = brain.config.policies.retention.confidence.user_asserted
    say = progress or (lambda _m: None)
    t_wall = time.perf_counter()
    pending: Future[float] | None = None

    def write(rows: Mapping[str, Any]) -> float:
        t0 = time.perf_counter()
        _write_batch(brain.store, gen.namespace, rows)
        return time.perf_counter() - t0

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-writer") as pool:
        while gen.items_made < target_items:
            t0 = time.perf_counter()
            batch: list[SynthTurn] = []
            while len(batch) < batch_turns and gen.items_made < target_items:
                batch.append(gen.next_turn())
            stats.generate_s += time.perf_counter() - t0
            rows = _batch_rows(batch, gen, emb, written, confidence)
            if pending is not None:
                stats.write_s += pending.result()
            pending = pool.submit(write, rows)
            stats.turns += len(batch)
            stats.messages += sum(len(t.messages) for t in batch)
            stats.items += sum(len(t.items) for t in batch)
            stats.batches += 1
            if stats.batches % 20 == 0:
                say(f"bulk load: {gen.items_made:,} items, {gen.turns_made:,} turns")
        if pending is not None:
            stats.write_s += pending.result()
    stats.wall_s += time.perf_counter() - t_wall
    return stats


# =================================================================================== measuring
def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1000.0, out


def _p(values: Sequence[float]) -> dict[str, Any]:
    return summarise_latencies(values)


def _floor_sum(*figures: Mapping[str, Any] | None) -> float | None:
    total = 0.0
    for f in figures:
        if not f or f.get("p50") is None:
            return None
        total += float(f["p50"])
    return total


def _live_events(turn: SynthTurn, namespace: str) -> dict[str, Any]:
    return {
        "turn_id": turn.turn_id,
        "at": turn.at,
        "namespace": namespace,
        "messages": [{"message_id": m.message_id, "role": m.role, "content": m.content} for m in turn.messages],
        "refs": turn.refs,
        "metadata": {"project": turn.project},
    }


def _mode_plan(question: str, mode: str) -> dict[str, Any]:
    return {
        "version": "0.1",
        "queries": [{"text": question, "mode": mode}],
        "global_filters": {"scope": ["memory", "turns"]},
        "budget": {"top_k": 10},
    }


class _Probe:
    """One sample round: the floors, then graphbrain's figures, for the same question, back to back.

    Interleaving (rather than all floors first) lets a floor and the figure it divides see the same
    moment of a shared machine: background index merges after a bulk load, another process's burst.
    """

    def __init__(self, brain: Brain, ns: str, now: datetime) -> None:
        self.brain = brain
        self.store = brain.store
        self.ns = ns
        self.now = now
        self.k = OVERSAMPLE * brain.config.policies.retrieval.candidate_k
        self.composer = brain.composer()
        self.session = "bench-questions"
        self.ms: dict[str, list[float]] = {}
        self.steps: dict[str, list[float]] = {}
        self.commit_model_ms: list[float] = []
        self.writes = 0

    def _add(self, key: str, ms: float) -> None:
        self.ms.setdefault(key, []).append(ms)

    def floors(self, question: str, record: bool = True) -> None:
        embedder, store = self.brain.embedder, self.store
        ms, vector = _timed(lambda: embedder.embed_one(question))
        if record:
            self._add("floor:model_one", ms)
        for key, index in (("vector:memory", "memory_embedding"), ("vector:messages", "message_embedding")):
            params = {"index": index, "k": self.k, "vector": vector}
            ms, _ = _timed(lambda params=params: store.run("bench/floor_vector", params))  # type: ignore[misc]
            if record:
                self._add(f"floor:{key}", ms)
        text_query = lucene_query(question) or "x"
        # Messages are indexed as the analyzer's terms (message_search): the floor asks for those.
        terms_query = " ".join(query_terms(question)) or "x"
        for key, index, query in (
            ("fulltext:memory", "memory_text", text_query),
            ("fulltext:messages", "message_search", terms_query),
        ):
            params = {"index": index, "k": self.k, "query": query}
            ms, _ = _timed(lambda params=params: store.run("bench/floor_fulltext", params))  # type: ignore[misc]
            if record:
                self._add(f"floor:{key}", ms)
        self.writes += 1
        probe = {"namespace": self.ns, "id": f"bench-floor-{self.writes}"}
        ms, _ = _timed(lambda: store.run("bench/floor_write", probe, write=True))
        if record:
            self._add("floor:write", ms)

    def graphbrain(self, question: str, turn: SynthTurn, timed: Any, record: bool = True) -> None:
        brain = self.brain
        before = timed.seconds
        ms, _ = _timed(lambda: brain.commit_turn(turn.session_id, _live_events(turn, self.ns)))
        if record:
            self._add("commit_turn", ms)
            self.commit_model_ms.append((timed.seconds - before) * 1000.0)
        ms, package = _timed(lambda: self.composer.compose(self.session, question, namespace=self.ns, now=self.now))
        if record:
            self._add("compose_context", ms)
            timings = package.debug.timings_ms
            total = sum(v for k, v in timings.items() if k != "total") or 1.0
            for step, v in timings.items():
                if step != "total":
                    self.steps.setdefault(step, []).append(v / total)
        for mode in RETRIEVE_MODES:
            ms, _ = _timed(lambda mode=mode: brain.retrieve(_mode_plan(question, mode), namespace=self.ns))  # type: ignore[misc]
            if record:
                self._add(f"retrieve:{mode}", ms)


def _measure(
    brain: Brain,
    ns: str,
    live: SessionGenerator,
    questions: Sequence[str],
    now: datetime,
    ingest_path: Path | None,
    say: Progress,
) -> dict[str, Any]:
    probe = _Probe(brain, ns, now)
    with timed_embedder(brain) as timed:
        probe.floors("warm-up question?", record=False)  # compiles every query plan once
        probe.graphbrain("warm-up question?", live.next_turn(), timed, record=False)
        for i, q in enumerate(questions, start=1):
            probe.floors(q)
            probe.graphbrain(q, live.next_turn(), timed)
            if i % 10 == 0:
                say(f"  {i}/{len(questions)} samples")

    embedder = brain.embedder
    batch_texts = [f"{q} #{i}" for i, q in enumerate(list(questions) * (512 // max(len(questions), 1) + 1))][:512]
    batch_ms, _ = _timed(lambda: embedder.embed(batch_texts))
    floors: dict[str, Any] = {
        "k": probe.k,
        "model_batch": {"texts": len(batch_texts), "texts_per_s": round(len(batch_texts) / (batch_ms / 1000.0), 1)},
    }
    for key in FLOOR_LABELS:
        floors[key] = _p(probe.ms.get(f"floor:{key}", []))

    ingest: dict[str, Any] = {}
    if ingest_path is not None and ingest_path.exists():
        say("  ingest …")
        bench = run_ingest_bench(brain, ingest_path)
        ingest = {
            "path": str(ingest_path),
            "chunks": bench["chunks"],
            "chunks_per_s": bench["chunks_per_s"],
            "embed_share": bench["embed_share"],
            "model_texts_per_s": bench["model_texts_per_s"],
            # the model's own rate during that very ingest, over graphbrain's chunks per second
            "ratio_to_model": round(bench["model_texts_per_s"] / bench["chunks_per_s"], 2)
            if bench["chunks_per_s"]
            else None,
        }

    exact_floor = _floor_sum(floors["fulltext:memory"], floors["fulltext:messages"])
    semantic_floor = _floor_sum(floors["model_one"], floors["vector:memory"], floors["vector:messages"])
    hybrid_floor = None if exact_floor is None or semantic_floor is None else exact_floor + semantic_floor
    model_ms = probe.commit_model_ms
    commit_floor = None
    if model_ms and floors["write"].get("p50") is not None:
        commit_floor = float(percentile(model_ms, 50) or 0.0) + float(floors["write"]["p50"])
    mode_floor = {
        "exact": exact_floor,
        "relational": exact_floor,
        "semantic": semantic_floor,
        "hybrid": hybrid_floor,
        "associative": hybrid_floor,
    }

    def fig(values: Sequence[float], floor: float | None, **extra: Any) -> dict[str, Any]:
        out = _p(values)
        out["floor_ms"] = None if floor is None else round(floor, 2)
        x = ratio(out["p50"], floor)
        out["x_floor"] = None if x is None else round(x, 2)
        return out | extra

    commit_ms = probe.ms.get("commit_turn", [])
    outside = [c - m for c, m in zip(commit_ms, model_ms, strict=True)]
    figures = {
        "commit_turn": fig(
            commit_ms,
            commit_floor,
            model_ms=_p(model_ms),
            outside_model_share=round(sum(outside) / sum(commit_ms), 3) if sum(commit_ms) else None,
        ),
        "commit_turn_outside_model": fig(outside, floors["write"].get("p50")),
        "compose_context": fig(
            probe.ms.get("compose_context", []),
            hybrid_floor,
            step_share={k: round(mean(v) or 0.0, 3) for k, v in sorted(probe.steps.items())},
        ),
        **{f"retrieve:{m}": fig(probe.ms.get(f"retrieve:{m}", []), mode_floor[m]) for m in RETRIEVE_MODES},
    }
    return {"floors": floors, "figures": figures, "ingest": ingest}


# =================================================================================== the run
def run_scale(
    brain_factory: Callable[[], Brain],
    sizes: Sequence[int] | str = DEFAULT_SIZES,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    batch_turns: int = DEFAULT_BATCH_TURNS,
    namespace: str | None = None,
    keep: bool = False,
    ingest_path: str | PathLike[str] | None = "default",
    plot: str | PathLike[str] | None = None,
    progress: Progress | None = None,
    on_size: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Load synthetic data up to each size in turn, measure at each, return the report (see the docstring).

    ``on_size`` receives each size's results as soon as they are measured (a long run can save them).
    """
    steps = parse_sizes(sizes)
    if samples <= 0:
        raise ValueError("samples must be positive")
    say = progress or (lambda _m: None)
    ns = namespace or f"bench-scale-{seed}"
    docs: Path | None
    if ingest_path == "default":
        ingest_path = str(asset_dir("seeds") / "docs")
    docs = Path(ingest_path) if ingest_path else None
    brain = brain_factory()
    if brain.store.backend != "neo4j":
        brain.close()
        # The floor it measures against is Neo4j's bare index procedures and its bulk-load Cypher; the
        # embedded backend's figures are in bench locomo --backends and bench load.
        raise GraphbrainError(
            f"bench scale runs on Neo4j only (this config uses the {brain.store.backend} backend): set "
            "NEO4J_URI or storage.neo4j.uri; for the embedded backend use `graphbrain bench locomo FILE "
            "--backends neo4j,embedded` or `graphbrain bench load`"
        )
    try:
        load_model_s = warm_up_models(brain)
        removed = delete_namespace(brain.store, ns)
        say(f"scale: namespace {ns} (removed {removed} old nodes); sizes {', '.join(f'{s:,}' for s in steps)}")
        gen = SessionGenerator(ns, seed)
        live = SessionGenerator(
            ns,
            seed + 1,
            session_prefix="live",
            projects=(LIVE_PROJECTS_EN, LIVE_PROJECTS_ZH),
            exclude=("preference",),  # preference keys are not per project: they would be shared
        )
        stats = LoadStats()
        emb = _Embeddings(brain.embedder, stats)
        written: set[str] = set()
        results = []
        for size in steps:
            t0 = time.perf_counter()
            bulk_load(
                brain,
                gen,
                size,
                batch_turns=batch_turns,
                written_entities=written,
                embeddings=emb,
                stats=stats,
                progress=say,
            )
            step_s = time.perf_counter() - t0
            counts = namespace_counts(brain.store, ns)
            say(f"scale: {size:,} items loaded in {step_s:.0f} s ({counts}); measuring")
            live.clock = max(live.clock, gen.clock)
            questions = gen.questions(samples)
            measured = _measure(brain, ns, live, questions, gen.clock + timedelta(days=1), docs, say)
            result = {
                "target_items": size,
                "graph": counts,
                "load": {"step_s": round(step_s, 1), "cumulative_s": round(stats.wall_s, 1), **stats.as_dict()},
                **measured,
            }
            results.append(result)
            if on_size is not None:
                on_size(result)
        settings = {
            "namespace": ns,
            "seed": seed,
            "samples": samples,
            "batch_turns": batch_turns,
            "embedding_model": brain.embedder.name,
            "embedding_dimension": brain.embedder.dim,
            "config_fingerprint": brain.config.fingerprint(),
            "model_load_s": round(load_model_s, 3),
            "kept": keep,
        }
        if not keep:
            say(f"scale: removing namespace {ns}")
            delete_namespace(brain.store, ns)
    finally:
        brain.close()
    report: dict[str, Any] = {
        "benchmark": "scale",
        "settings": settings,
        "figure_labels": FIGURE_LABELS,
        "floor_labels": FLOOR_LABELS,
        "sizes": results,
        "load_s_per_1000_items": _load_rate(results),
        "notes": [
            "each figure: p50 ms (p95) [p50 / its floor's p50]; floors measured in the same run on the same data",
            "bulk-loaded data has the node shapes of commit_turn; measured commits and composes use the real path",
        ],
    }
    if plot:
        write_plot(report, plot)
        report["plot"] = str(plot)
    return report


def _load_rate(results: Sequence[Mapping[str, Any]]) -> float | None:
    if not results:
        return None
    last = results[-1]
    items = last["load"]["items"]
    return round(last["load"]["cumulative_s"] / items * 1000.0, 2) if items else None


# =================================================================================== plot
def write_plot(report: Mapping[str, Any], path: str | PathLike[str]) -> None:
    """Latency p50 against data size, graphbrain and floors (left), and each figure ÷ its floor (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = report["sizes"]
    xs = [s["graph"].get("memory_items") or s["target_items"] for s in sizes]
    cmap = plt.get_cmap("tab20")
    colours = [cmap(i) for i in range(20)]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2))
    for i, (key, label) in enumerate(report["figure_labels"].items()):
        colour = colours[(2 * i) % len(colours)]
        ys = [s["figures"].get(key, {}).get("p50") for s in sizes]
        if all(y is not None for y in ys):
            left.plot(xs, ys, marker="o", color=colour, label=label)
        rs = [s["figures"].get(key, {}).get("x_floor") for s in sizes]
        if all(r is not None for r in rs):
            right.plot(xs, rs, marker="o", color=colour, label=label)
    for i, (key, label) in enumerate(report["floor_labels"].items()):
        ys = [s["floors"].get(key, {}).get("p50") for s in sizes]
        if all(y is not None for y in ys):
            colour = colours[(2 * i + 1) % len(colours)]
            left.plot(xs, ys, marker="x", linestyle="--", color=colour, label=f"floor: {label}")
    for ax, title, ylabel in (
        (left, "latency p50 by data size", "ms (log)"),
        (right, "graphbrain ÷ floor", "× floor (log)"),
    ):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("memory items (log)")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"graphbrain bench scale — {report['settings']['embedding_model']}")
    fig.tight_layout()
    out = Path(path)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)


# =================================================================================== entry point
def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main_scale(
    config_path: str | None,
    items: str | Sequence[int] = DEFAULT_SIZES,
    as_json: bool = False,
    plot: str | None = None,
) -> dict[str, Any]:
    """``graphbrain bench scale --items 10000,100000 [--json] [--plot FILE]``: run, print, return."""
    from graphbrain.bench.report import format_scale, to_json
    from graphbrain.brain import Brain

    report = run_scale(lambda: Brain.from_config(config_path), items, plot=plot, progress=_stderr)
    print(to_json(report) if as_json else format_scale(report))
    return report
