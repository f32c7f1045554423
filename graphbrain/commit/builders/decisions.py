"""Decision and goal builders: what was chosen (and why, and by when), and what is aimed at."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from graphbrain.commit import keys
from graphbrain.commit.builders.base import State, group, make, span_of, task_value
from graphbrain.commit.candidate import Candidate
from graphbrain.commit.phrase import (
    PRONOUN_ONLY,
    VERSION_RE,
    clean,
    meaningful,
    split_due,
    zh_starts_with_verb,
)
from graphbrain.commit.rules import Rule
from graphbrain.commit.rules.table import en_re, zh_re
from graphbrain.contracts import MemoryType
from graphbrain.nlp import dates, pipelines
from graphbrain.nlp.chars import has_cjk
from graphbrain.nlp.stopwords import word_set

_USE_LEAD_RE = en_re(
    r"^(?:(?:we|i)(?:'ll|'re going to| will| are going to| am going to)\s+)?(?:to\s+)?(?:just\s+)?"
    r"(?:use|using|go with|going with|adopt|choose|pick|stick with|switch to|move to"
    r"|go for|keep using|settle on|opt for)\s+|^(?:使用|采用|选用|改用|选择|选定|选|用)\s*"
)

_RATIONALE_RES: tuple[re.Pattern[str], ...] = (
    en_re(r"\s*[,;—-]?\s*\b(?:because|since|as it|as they|so that|due to|given that)\b\s*(?P<r>.+)$"),
    zh_re(r"\s*[，,；;]?\s*(?:因为|由于|原因是|理由是)\s*(?P<r>.+)$"),
)
_TOPIC_SPLIT_RES: tuple[re.Pattern[str], ...] = (
    en_re(r"^(?P<c>.+?)\s+(?:for|as)\s+(?:the\s+|our\s+|a\s+|an\s+|my\s+)?(?P<t>.+)$"),
    zh_re(r"^(?P<c>.+?)\s*(?:来做|来当|作为|当作|当|用于|用作|做)\s*(?P<t>.+)$"),
)
_DECISION_VERBS_EN = word_set(
    "drop remove add keep move migrate switch rename split merge support deprecate build write ship",
    "release delay postpone skip implement make run host deploy store cache limit rewrite replace",
    "introduce enable disable ban require go stop start not",
)
_ZH_FILLER_TOPIC = frozenset({"那", "那么", "那就", "我们", "咱们", "我", "就", "还是", "这个", "这里"})


def _split_rationale(text: str) -> tuple[str, str | None]:
    for rx in _RATIONALE_RES:
        m = rx.search(text)
        if m and m.start() > 0:
            return clean(text[: m.start()]), clean(m.group("r"))
    return text, None


_CLAUSE_SEP_RE = re.compile(r"\s*[，,；;]\s*|\s+and\s+")
# What a Chinese decision leaves behind, said after it: "不再用 Jenkins 了", "替代 Jenkins".
_ZH_INSTEAD_RE = re.compile(r"^\s*[，,]?\s*(?:不再用|不用|不再使用|替代|取代|代替|而不是)\s*(?P<y>[^，,。；;]+)")
_ALTERNATIVE_RE = re.compile(r"\s+(?:instead of|rather than|in place of)\s+.*$|\s*[，,]?\s*(?:而不是|而非).*$", re.I)
_ZH_TOPIC_USE_RE = re.compile(r"^(?P<t>[^，,。；;]{1,20}?)\s*(?:就)?(?:用|使用|采用|改用|换成)\s*(?P<c>.+)$")
_LEADING_PREP_RE = re.compile(r"^(?:on|to|in|into|onto|at|from|with|for)\b", re.I)


def _deadline_clause(x: str, now: datetime | None) -> tuple[str, str | None]:
    """(the decision, the clause that sets its deadline) — "用 Neo4j 做记忆存储，下周五前完成 schema",
    "move the PDFs to S3 by next Friday": one sentence, a decision and a task with a due date."""
    # Only a date said as a deadline: "let's switch the runners to ARM next month" sets no due date.
    for sep in _CLAUSE_SEP_RE.finditer(x):
        tail = x[sep.end() :]
        if dates.due_phrase(tail, cued=True) and dates.find_date(tail, now, "future"):
            return x[: sep.start()].strip(), tail.strip()
    m = dates.due_phrase(x, cued=True)
    if m and m.start() > 0 and dates.find_date(m.group("due"), now, "future") and not has_cjk(x[: m.start()][-1:]):
        return (x[: m.start()] + x[m.end() :]).strip(), x.strip()
    return x, None


# Whom a choice is for ("… for you", "给你们"), never what it is about.
_PRONOUN_TOPICS = PRONOUN_ONLY | word_set(
    "you me us him her everyone everybody yourself myself ourselves", "你 你们 他 她 他们 她们 大家 自己"
)


def build_decision(
    rule: Rule, m: re.Match[str], clause: str, offset: int, st: State
) -> Candidate | list[Candidate] | None:
    x, deadline = _deadline_clause(clean(group(m, "x")), st.ctx.now)
    x, rationale = _split_rationale(x)
    zh = has_cjk(clause)
    use = rule.params.get("use") == "1"
    lead = _USE_LEAD_RE.match(x)
    if lead:
        x, use = x[lead.end() :].strip(), True
    if not meaningful(x):
        return None
    project = st.project_for(clause)
    topic = group(m, "t")
    if topic in _ZH_FILLER_TOPIC:
        topic = ""
    if zh and not use and not topic:
        tm = _ZH_TOPIC_USE_RE.match(x)  # "memory store 用 Neo4j 5.26": the topic comes first
        if (
            tm
            and not zh_starts_with_verb(tm.group("t"), english=False)
            and tm.group("t").strip() not in _ZH_FILLER_TOPIC
        ):
            topic, x, use = tm.group("t").strip(), tm.group("c").strip(), True
    choice: str | None = None
    if use:
        choice = x
        for rx in _TOPIC_SPLIT_RES:
            sm = rx.match(x)
            if sm:
                # "use tabs … for you": whom it is for is not what it is about (a key never names a pronoun)
                said = clean(sm.group("t"))
                choice = clean(sm.group("c"))
                topic = topic or ("" if said.casefold() in _PRONOUN_TOPICS else said)
                break
        if not topic or keys.project_slug(topic) == project:
            topic = VERSION_RE.sub("", choice).strip() or choice  # "Neo4j 5.26" and "Neo4j 5.25": one topic
        decision = f"用 {choice}" if zh else f"use {choice}"
    else:
        decision = x
        x = _ALTERNATIVE_RE.sub("", x).strip() or x
        words = x.split()
        if not topic:
            topic = " ".join(words[1:]) if len(words) > 1 and words[0].lower() in _DECISION_VERBS_EN else x
            # "deploy Orion on Kubernetes" in project orion: the key names what was decided about it.
            if project != keys.GENERAL_PROJECT and not zh:
                rest = re.sub(rf"^(?:the\s+)?{re.escape(project)}\b\s*", "", topic, flags=re.I)
                if rest != topic and _LEADING_PREP_RE.match(rest):
                    topic = f"{words[0]} {rest}"
            topic = " ".join(topic.split()[:6])
            if zh and zh_starts_with_verb(x, english=False):
                first = pipelines.posseg(x)[0][0]
                topic = x[len(first) :].strip() or x
    value: dict[str, Any] = {"topic": clean(topic), "decision": decision, "project": project}
    if choice:
        value["choice"] = choice
    dropped = _ZH_INSTEAD_RE.search(clause[m.end() :]) if zh else None
    if dropped:
        value["instead_of"] = clean(dropped.group("y"))  # "改用 GitHub Actions，不再用 Jenkins 了"
    if rationale:
        value["rationale"] = rationale
    span = span_of(m, offset)
    decided = make(st, rule, MemoryType.decisions, keys.decision_key(project, value["topic"]), value, span)
    if deadline is None:
        return decided
    title, due = split_due(deadline, st.ctx.now)
    title = re.sub(r"^(?:要|需要|得|要把|把)\s*|^(?:to|we|and)\s+", "", title).strip()
    if not meaningful(title) or re.fullmatch(r"(?:deadline|ddl|截止|due)\W*", title, re.I):
        title = value["topic"]
    new_task = task_value(title, "todo", project, due)
    task = make(st, rule, MemoryType.tasks, keys.task_key(project, title), new_task, span, f"{rule.name}: deadline")
    return [decided, task]


def build_goal(rule: Rule, m: re.Match[str], clause: str, offset: int, st: State) -> Candidate | None:
    goal = clean(group(m, "x"))
    by = clean(group(m, "by"))
    if not by:
        goal, by_due = split_due(goal, st.ctx.now)
        by = by_due or ""
    if not meaningful(goal):
        return None
    project = st.project_for(clause)
    value: dict[str, Any] = {"project": project, "goal": goal}
    if by:
        resolved = dates.resolve_date(by, st.ctx.now, "future")
        value["by"] = resolved.isoformat() if resolved else by
    span = span_of(m, offset)
    return make(st, rule, MemoryType.goals, keys.goal_key(project, goal), value, span)
