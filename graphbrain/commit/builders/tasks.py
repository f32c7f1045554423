"""Task builders: a status change of a known task (or a new one), and a new task said as a plan."""

from __future__ import annotations

import re

from graphbrain.commit import keys
from graphbrain.commit.builders.base import State, group, make, span_of, task_value
from graphbrain.commit.candidate import Candidate
from graphbrain.commit.matching import best_match, current_task
from graphbrain.commit.phrase import (
    ZH_CLAUSE_SEP_RE,
    clean,
    lang_of,
    meaningful,
    split_due,
    zh_has_verb,
    zh_starts_with_verb,
)
from graphbrain.commit.rules import Rule
from graphbrain.commit.rules.table import en_re
from graphbrain.contracts import MemoryType, TaskStatus
from graphbrain.nlp import dates
from graphbrain.nlp.chars import has_cjk

_HAVE_DELIVERABLE_RE = en_re(r"^(?:have|get)\s+(?:a\s+|an\s+|the\s+)?")
# "I'll …" that is not a piece of work.
_NOT_A_TASK_LEAD = en_re(
    r"^(?:be|have|see|think|try|bet|pass|leave|let you know|get back to you|keep that in mind|remember"
    r"|take that|do that|do it|do my best|wait|talk|ask)\b"
)

_LEADING_DETERMINER_RE = re.compile(r"^(?:the|a|an|my|our|this|that)\s+", re.I)
_TRAILING_NOW_RE = re.compile(r"\s+(?:now|right now|at the moment|currently|again|today)\s*$", re.I)


def build_status(rule: Rule, m: re.Match[str], clause: str, offset: int, st: State) -> Candidate | None:
    status: TaskStatus = rule.params["status"]  # type: ignore[assignment]
    x = _TRAILING_NOW_RE.sub("", clean(group(m, "x")))
    y = clean(group(m, "y"))
    if y and re.fullmatch(r"(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?|he|she|they|i|we)", x):
        x, y = y, ""  # "Sam is stuck on the chart library upgrade": the upgrade is the task
    if status == "doing" and not meaningful(x) and has_cjk(clause):
        x = _zh_previous_topic(clause[: m.start()]) or x  # "关系检索太慢了，王强在优化": 优化 what was said
    planned = None
    if status == "doing" and st.ctx.now is not None:
        found = dates.find_date(clause, st.ctx.now, "future")
        if found is not None and found[0] > st.ctx.now.date():
            planned = found[0]  # "下周一开始做 X", "starting on X next week": planned work, not work in progress
            status = "todo"
    tasks = st.ctx.of_type(MemoryType.tasks)
    target = best_match(x, tasks, min_overlap=0.5, whole=True) if meaningful(x) else current_task(tasks)
    notes = None
    if status == "blocked" and y:
        notes = f"被{y}卡住" if has_cjk(y) and lang_of(clause) == "zh" else f"blocked on {y}"
    span = span_of(m, offset)
    if target is not None:
        value = dict(target.value)
        value["status"] = status
        if notes:
            value["notes"] = notes
            value["blocked_by"] = y
        return make(st, rule, MemoryType.tasks, target.key, value, span, f"{rule.name}: matched {target.key}")
    if not meaningful(x):
        return None  # "done with it" / "blocked on the API" with no task to attach it to
    title, due = split_due(x, st.ctx.now)
    title = _LEADING_DETERMINER_RE.sub("", title)
    due = due or (planned.isoformat() if planned else None)
    project = st.project_for(clause)
    value = task_value(title, status, project, due, notes)
    if notes:
        value["blocked_by"] = y
    return make(st, rule, MemoryType.tasks, keys.task_key(project, title), value, span, f"{rule.name}: new task")


def _zh_previous_topic(before: str) -> str:
    """The clause before a subject-and-verb clause that names no object ("关系检索太慢了，王强在优化"):
    what the work is about. The subject itself (王强) is the last part and is skipped."""
    parts = [p.strip() for p in ZH_CLAUSE_SEP_RE.split(before)]
    if len(parts) < 2:
        return ""
    return clean(parts[-2])


# A date right after a rescheduling verb is when something now happens ("周会改到周三", "发布推迟到下周").
_ZH_RESCHEDULED_RE = re.compile(r"(?:改到|改成|改在|推迟到|延期到|延到|挪到|提前到|调到|移到|换到)\s*$")
# Who does what from a date on (a role), not a piece of work: "下周开始带数据平台组", "下个月入职".
_ZH_ROLE_RE = re.compile(r"(?:开始)?(?:带|负责|管|接手|接管|加入|离开|入职|离职|转岗|调去)")
# "他说月底前能上线": the report and the modal are not the work.
_ZH_REPORTED_RE = re.compile(r"^(?:说|表示|承诺|答应|保证)\s*")
_ZH_MODAL_LEAD_RE = re.compile(r"^(?:能|会|可以|要|将|就|得|应该)\s*(?=\S)")
_ZH_PREPS = ("给", "为", "帮", "替", "对", "跟", "和", "在", "用", "拿", "把", "从", "往", "向")
_LATIN_NAME_RE = re.compile(r"[A-Za-z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*)*")


def _zh_prep_then_verb(phrase: str) -> bool:
    """ "给 topic_slug 加单元测试", "在 README.md 里加一节", "把文档写完": a prepositional phrase, then the verb."""
    return phrase.startswith(_ZH_PREPS) and zh_has_verb(phrase[1:])


def _resolve_it(title: str, before: str) -> str:
    """ "我在学 Rust，打算用它重写日志采集器": 它 is the name said just before (Latin-script names only)."""
    if "它" not in title:
        return title
    names = _LATIN_NAME_RE.findall(before)
    return title.replace("它", f" {names[-1]} ", 1).strip() if names else title


_ZH_SUBJECT_RE = re.compile(r"^(?:我们|咱们|我|你们|你|他们|他|她)\s*")


def build_task(rule: Rule, m: re.Match[str], clause: str, offset: int, st: State) -> Candidate | None:
    raw = clean(group(m, "x"))
    check = rule.params.get("check")
    if check == "zh_dated":
        found = dates.find_date(raw, st.ctx.now, "future") if st.ctx.now else None
        if found is None or (st.ctx.now and found[0] < st.ctx.now.date()) or not zh_has_verb(raw):
            return None
        if _ZH_RESCHEDULED_RE.search(raw[: found[1]]):
            return None  # "周会改到周三": the new time of something, not a piece of work
        if _ZH_ROLE_RE.search(raw):
            return None  # "赵磊下周开始带数据平台组": who does what from then on, not a piece of work
    zh_rule = rule.name.startswith("zh.")
    later = ""
    if zh_rule and ZH_CLAUSE_SEP_RE.search(raw):
        # "需要重写，三月底前完成": the work is the first clause, a later one may only set its deadline.
        raw, later = (p.strip() for p in ZH_CLAUSE_SEP_RE.split(raw, maxsplit=1))
    title, due = split_due(raw, st.ctx.now)
    if later and not due:
        due = split_due(later, st.ctx.now)[1]
    if zh_rule:
        title = _ZH_REPORTED_RE.sub("", _ZH_SUBJECT_RE.sub("", title)).strip() or title
        title = _ZH_MODAL_LEAD_RE.sub("", title).strip() or title
        title = _resolve_it(title, clause[: m.start("x")] if m.groupdict().get("x") is not None else "")
    if check == "zh_verb" and not (zh_starts_with_verb(title) or _zh_prep_then_verb(title)):
        return None
    pre = clean(group(m, "pre")) if rule.params.get("keep_pre") else ""
    if pre:
        pre, pre_due = split_due(pre, st.ctx.now)
        due = due or pre_due
        pre = _ZH_SUBJECT_RE.sub("", pre).strip()
        title = f"{pre}{title}" if pre else title
    title = re.sub(r"^(?:to|please|also|then|just)\s+", "", title, flags=re.I).strip()
    title = _TRAILING_NOW_RE.sub("", _LEADING_DETERMINER_RE.sub("", title))
    title = _ZH_SUBJECT_RE.sub("", title).strip() or title
    if due and _HAVE_DELIVERABLE_RE.match(title):
        title = _HAVE_DELIVERABLE_RE.sub("", title)  # "she'll have a first draft by Friday": the draft is due
    if not meaningful(title) or _NOT_A_TASK_LEAD.match(title):
        return None
    span = span_of(m, offset)
    # The same task said again ("TODO: write the tests" twice) keeps its key and its status.
    existing = best_match(title, st.ctx.of_type(MemoryType.tasks), min_overlap=0.8, min_jaccard=0.6)
    if existing is not None:
        value = dict(existing.value)
        if due:
            value["due"] = due
        return make(st, rule, MemoryType.tasks, existing.key, value, span, f"{rule.name}: same as {existing.key}")
    project = st.project_for(clause)
    title = _drop_project_tail(title, project)
    value = task_value(title, "todo", project, due)
    return make(st, rule, MemoryType.tasks, keys.task_key(project, title), value, span)


def _drop_project_tail(title: str, project: str) -> str:
    """ "write docs for graphbrain" in project graphbrain → "write docs": the key already says it."""
    if project == keys.GENERAL_PROJECT:
        return title
    name = re.escape(project).replace("\\-", "[-_ ]?")
    out = re.sub(rf"\s+(?:for|in|on|of)\s+(?:the\s+)?{name}(?:\s+(?:project|repo))?$", "", title, flags=re.I)
    out = re.sub(rf"^(?:在|给|为)\s*{name}\s*(?:项目|仓库)?(?:里|中|上)?\s*", "", out, flags=re.I)
    return out.strip() or title
