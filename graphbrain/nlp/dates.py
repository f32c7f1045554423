"""Dates said in English and Chinese, resolved against the turn's time: one module for commit and the planner.

``resolve_date(text, now)`` gives the first day ``text`` names (a due date, an event's day);
``due_phrase(text)`` finds where a deadline is said in a clause; ``time_range(text, now)`` gives the
period a question asks about ("last week", "最近三天"), for the retrieval planner.

Weeks start on Monday. The readings, the same in both languages:

- "next Friday" / 下周五 / 下星期五: the Friday of next week (said on Tuesday 2026-12-01: 2026-12-11);
- "this Friday" / 这周五 / 本周五: the Friday of this week (2026-12-04, even when it has passed);
- "Friday", "by Friday", "on Friday" / 周五 / 星期五: the next Friday after today (2026-12-04; said on a
  Friday, the one a week later); "next week" / 下周: next week's Monday;
- 月底 / "end of the month": the month's last day; 下个月底 its next; X月底 / "end of March": that
  month's; 月初 / "early next month": the 1st of next month; 月中: the 15th; 年底: 31 December;
- 三月五日 / 3月5号 / "March 5" / "5 March": that day, of the next year when it has passed and the
  caller wants a deadline (``prefer="future"``), of this year otherwise;
- today / 今天, tomorrow / 明天, 后天, yesterday / 昨天, "in 3 days" / 3天后, ISO dates.

Why not dateparser: measured by ``scripts/measure_dateparser.py`` (dateparser 1.5.0), it finds the right
day for 18 of the 39 due dates of the labelled extraction set (this module: 39, though its rules were
written knowing 31 of them), and alone it reads none of 下周五, 这周五, 月底, 三月五日, 3月5号, X月底, "end of
the month", and "next Friday" as this week's Friday.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal

Prefer = Literal["future", "past"] | None

WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WD_EN = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_WD_ZH = "一二三四五六日天"
_MONTHS_EN = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_EN = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_ZH_NUM = "零一二两三四五六七八九十"
_ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def zh_number(s: str) -> int | None:
    """Arabic digits or a Chinese numeral up to 99 ("三", "十五", "二十", "两")."""
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        t = _ZH_DIGITS.get(tens, 1) if tens else 1
        o = _ZH_DIGITS.get(ones, 0) if ones else 0
        return t * 10 + o
    if len(s) == 1 and s in _ZH_DIGITS:
        return _ZH_DIGITS[s]
    return None


def _wd_index(word: str) -> int:
    w = word.lower()
    if w[0] in _WD_ZH or w in _WD_ZH:
        return 6 if w in ("日", "天") else _WD_ZH.index(w)
    for i, name in enumerate(WEEKDAYS_EN):
        if name.startswith(w[:3]):
            return i
    raise ValueError(word)


def _week_start(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _month_end(y: int, m: int) -> date:
    return date(y, m, calendar.monthrange(y, m)[1])


def _add_months(y: int, m: int, n: int) -> tuple[int, int]:
    m0 = m - 1 + n
    return y + m0 // 12, m0 % 12 + 1


def _day(y: int, m: int, d: int, today: date, prefer: Prefer, year_given: bool) -> date | None:
    try:
        out = date(y, m, d)
    except ValueError:
        return None
    if not year_given and prefer == "future" and out < today:
        try:
            out = date(y + 1, m, d)
        except ValueError:
            return None
    return out


_N = rf"(?:\d{{1,2}}|[{_ZH_NUM}]{{1,3}})"
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rx, re.I))
    for name, rx in (
        ("iso", r"(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})"),
        ("zh_ymd", r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]"),
        ("zh_md", rf"(?P<m>{_N})\s*月\s*(?P<d>{_N})\s*[日号]"),
        ("zh_month_part", rf"(?P<m>{_N})\s*月\s*(?P<part>底|末|初|中旬|中|上旬|下旬)"),
        ("en_md", rf"\b(?P<mon>{_MONTH_EN})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(?P<y>\d{{4}}))?"),
        ("en_dm", rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_EN})\b(?:,?\s*(?P<y>\d{{4}}))?"),
        ("en_month_end", rf"\bend\s+of\s+(?P<mon>{_MONTH_EN})\b"),
        ("zh_next_wd", rf"下(?:个)?(?:周|星期|礼拜)(?P<wd>[{_WD_ZH}])"),
        ("zh_this_wd", rf"(?:这|本|这个)(?:周|星期|礼拜)(?P<wd>[{_WD_ZH}])"),
        ("zh_wd", rf"(?:周|星期|礼拜)(?P<wd>[{_WD_ZH}])"),
        ("en_next_wd", rf"\bnext\s+(?P<wd>{_WD_EN})\b"),
        ("en_this_wd", rf"\bthis\s+(?P<wd>{_WD_EN})\b"),
        ("en_wd", rf"\b(?P<wd>{_WD_EN})\b"),
        ("next_month_end", r"下(?:个)?月(?:底|末)|\bend\s+of\s+next\s+month\b"),
        ("month_end", r"(?:本|这个|这)?月(?:底|末)|\bend\s+of\s+(?:the\s+|this\s+)?month\b|\beom\b"),
        ("next_month_start", r"下(?:个)?月初|(?<![本这个])月初|\b(?:early|beginning\s+of)\s+next\s+month\b"),
        ("month_start", r"(?:本|这个)月初"),
        ("month_mid", r"(?:本|这个)?月中"),
        ("next_month", r"下(?:个)?月|\bnext\s+month\b"),
        ("year_end", r"年底|年末|\bend\s+of\s+(?:the\s+|this\s+)?year\b"),
        ("week_end", r"\b(?:end\s+of\s+(?:the\s+|this\s+)?week|eow)\b|周末前|这周内|本周内"),
        ("next_week", r"下(?:个)?(?:周|星期|礼拜)|\bnext\s+week\b"),
        (
            "in_days",
            rf"\bin\s+(?P<n>\d+|a|one|two|three|four|five|six|seven)\s+days?\b|(?P<zn>{_N})\s*天(?:后|之后|以后|内)",
        ),
        ("in_weeks", rf"\bin\s+(?P<n>\d+|a|one|two|three)\s+weeks?\b|(?P<zn>{_N})\s*(?:周|个星期)(?:后|之后|以后|内)"),
        ("day_after_tomorrow", r"后天|\bday\s+after\s+tomorrow\b"),
        ("day_before_yesterday", r"前天|\bday\s+before\s+yesterday\b"),
        ("tomorrow", r"明天|明早|明晚|\btomorrow\b"),
        ("yesterday", r"昨天|昨晚|\byesterday\b"),
        ("today", r"今天|今晚|今日|\btoday\b|\btonight\b|\beod\b|\bend\s+of\s+(?:the\s+)?day\b"),
    )
)
# Counts said in words ("in three days", "the last couple of weeks"); "few" / 几 are read as 3.
FEW = 3
EN_NUMBERS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "a couple of": 2,
    "few": FEW, "a few": FEW,
}  # fmt: skip


def number(s: str) -> int | None:
    """A count as said: digits, an English number word ("three", "a couple of"), a Chinese numeral up
    to 99 ("三", "十五"); "few" / "几" are 3."""
    s = re.sub(r"\s+", " ", s.strip().lower())
    if s in EN_NUMBERS:
        return EN_NUMBERS[s]
    if s == "几":
        return FEW
    return zh_number(s)


def _month_of(g: dict[str, str | None]) -> int | None:
    if g.get("mon"):
        return _MONTHS_EN.index(str(g["mon"]).lower()[:3]) + 1
    return zh_number(str(g["m"])) if g.get("m") else None


def _resolve(name: str, g: dict[str, str | None], today: date, prefer: Prefer) -> date | None:
    y = today.year
    if name in ("iso", "zh_ymd", "zh_md", "en_md", "en_dm"):
        m = _month_of(g)
        d = zh_number(str(g["d"])) if g.get("d") else None
        if m is None or d is None or not 1 <= m <= 12:
            return None
        year_given = bool(g.get("y"))
        return _day(int(str(g["y"])) if year_given else y, m, d, today, prefer, year_given)
    if name in ("zh_month_part", "en_month_end"):
        m = _month_of(g)
        if m is None or not 1 <= m <= 12:
            return None
        part = g.get("part") or "底"
        yy = y + 1 if prefer == "future" and m < today.month else y
        if part in ("底", "末", "下旬"):
            return _month_end(yy, m) if part != "下旬" else date(yy, m, 21)
        if part in ("初", "上旬"):
            return date(yy, m, 1)
        return date(yy, m, 15)
    if name in ("zh_next_wd", "en_next_wd"):
        return _week_start(today) + timedelta(days=7 + _wd_index(str(g["wd"])))
    if name in ("zh_this_wd", "en_this_wd"):
        return _week_start(today) + timedelta(days=_wd_index(str(g["wd"])))
    if name in ("zh_wd", "en_wd"):
        i = _wd_index(str(g["wd"]))
        return today + timedelta(days=(i - today.weekday()) % 7 or 7)
    if name == "next_month_end":
        ny, nm = _add_months(y, today.month, 1)
        return _month_end(ny, nm)
    if name == "month_end":
        return _month_end(y, today.month)
    if name in ("next_month_start", "next_month"):
        ny, nm = _add_months(y, today.month, 1)
        return date(ny, nm, 1)
    if name == "month_start":
        return date(y, today.month, 1)
    if name == "month_mid":
        return date(y, today.month, 15)
    if name == "year_end":
        return date(y, 12, 31)
    if name == "week_end":
        return _week_start(today) + timedelta(days=4)
    if name == "next_week":
        return _week_start(today) + timedelta(days=7)
    if name in ("in_days", "in_weeks"):
        raw = g.get("n") or g.get("zn") or ""
        n = number(raw)
        if n is None:
            return None
        return today + timedelta(days=n * (7 if name == "in_weeks" else 1))
    delta = {"day_after_tomorrow": 2, "day_before_yesterday": -2, "tomorrow": 1, "yesterday": -1, "today": 0}
    return today + timedelta(days=delta[name]) if name in delta else None


def find_date(text: str, now: datetime | date | None, prefer: Prefer = None) -> tuple[date, int, int] | None:
    """The first (leftmost; the more specific reading on a tie) day ``text`` names, with its span."""
    if now is None:
        return None
    today = now.date() if isinstance(now, datetime) else now
    best: tuple[int, int, date, int] | None = None  # (start, rule order, day, end)
    for order, (name, rx) in enumerate(_RULES):
        for m in rx.finditer(text):
            if _recurring(text, m.start()):
                continue
            day = _resolve(name, m.groupdict(), today, prefer)
            if day is None:
                continue
            cand = (m.start(), order, day, m.end())
            if best is None or (cand[0], cand[1]) < (best[0], best[1]):
                best = cand
            break
    if best is None:
        return None
    return best[2], best[0], best[3]


# "every Sunday", "每周日", "每个月底": a recurrence names no one day.
_RECURRING_RE = re.compile(r"(?:\bevery|\beach|每个?|逢)\s*$", re.I)


def _recurring(text: str, start: int) -> bool:
    return _RECURRING_RE.search(text[max(0, start - 8) : start]) is not None


def resolve_date(text: str, now: datetime | date | None, prefer: Prefer = None) -> date | None:
    """The first day ``text`` names, resolved against ``now``; None when it names none (or no ``now``
    is given and the date is not absolute)."""
    found = find_date(text, now if now is not None else date.max.replace(year=9000), prefer)
    if found is None:
        return None
    if now is None:
        return found[0] if _absolute(text) else None
    return found[0]


def _absolute(text: str) -> bool:
    return bool(_RULES[0][1].search(text) or _RULES[1][1].search(text))


# A deadline said in a clause: "by Friday", "before next Friday", "due 2026-03-01", "下周五前",
# "截止 3月1日", "deadline 是下周五", or a date word in a Chinese task ("支付网关下周三升级完").
_DATE_WORDS = "|".join(re.sub(r"\(\?P<\w+>", "(?:", rx.pattern) for _, rx in _RULES)
# A month alone ("三月前", "by March") is a deadline, but names no day: it is kept as said. Only after a
# deadline cue: a bare "may" is a modal verb.
_MONTH_ONLY = (
    rf"{_N}\s*月份?(?![底末初中旬日号{_ZH_NUM}\d])"
    r"|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b"
)
DUE_RES: tuple[re.Pattern[str], ...] = (
    re.compile(
        rf"[，,]?\s*(?:deadline|ddl|截止(?:日期|时间)?|due date)\s*(?:is|是|为|在|[:：])?\s*(?P<due>{_DATE_WORDS})",
        re.I,
    ),
    re.compile(
        rf"\s*\b(?:by|before|until|till|no later than|due(?:\s+(?:on|by))?|on)\s+(?:the\s+)?(?P<due>{_DATE_WORDS})",
        re.I,
    ),
    re.compile(rf"(?:在)?\s*(?P<due>{_DATE_WORDS})\s*(?:之前|以前|前|为止)", re.I),
    re.compile(rf"\s*\b(?:by|before|until|till|no later than)\s+(?P<due>{_MONTH_ONLY})", re.I),
    re.compile(rf"(?:在)?\s*(?P<due>{_MONTH_ONLY})\s*(?:之前|以前|前|为止)", re.I),
    re.compile(rf"\s*(?P<due>{_DATE_WORDS})", re.I),
)


def due_phrase(text: str, *, cued: bool = False) -> re.Match[str] | None:
    """Where ``text`` says its deadline (group "due" is the date words), else None. ``cued``: only a date
    said as a deadline ("by Friday", "下周五前", "deadline 是…"), not any date ("next month")."""
    for rx in DUE_RES[:-1] if cued else DUE_RES:
        for m in rx.finditer(text):
            if not _recurring(text, m.start("due")):
                return m
    return None


# =========================================================================================== time ranges
# The period a question asks about ("what did we decide last week", "最近三天的进展"), for the retrieval
# planner. Closed days and weeks ("yesterday", "last week", "上个月") end at the start of the next one;
# open ones ("today", "this week", "recently", "in the last 3 days", "最近三天", "since 2026-01-05") end
# at ``now``. "recently" / "最近" alone is the last ``RECENT_DAYS`` days.
RECENT_DAYS = 7

Period = Literal["day", "week", "month", "year"]
Span = tuple[datetime, datetime]
SpanResolver = Callable[[datetime, re.Match[str]], Span | None]


def _day_start(now: datetime, days_back: int = 0) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=days_back)


def _week_start_at(now: datetime) -> datetime:
    return _day_start(now, now.weekday())  # ISO week: Monday 00:00


def _month_start(now: datetime, months_back: int = 0) -> datetime:
    y, m = _add_months(now.year, now.month, -months_back)
    return now.replace(year=y, month=m, day=1, hour=0, minute=0, second=0, microsecond=0)


def _months_before(now: datetime, n: int) -> datetime:
    y, m = _add_months(now.year, now.month, -n)
    return now.replace(year=y, month=m, day=min(now.day, calendar.monthrange(y, m)[1]))


_UNIT_DAYS: dict[str, float] = {
    "hour": 1 / 24, "小时": 1 / 24, "day": 1, "天": 1, "日": 1, "week": 7, "周": 7, "星期": 7, "礼拜": 7,
}  # fmt: skip
_MONTH_UNITS = ("month", "个月", "月")


def _last_n(now: datetime, n: int, unit: str) -> Span:
    unit = unit.lower().rstrip("s") if unit.isascii() else unit
    if unit in _MONTH_UNITS:
        return _months_before(now, n), now
    return now - timedelta(days=_UNIT_DAYS[unit] * n), now


def _parse_iso(s: str, now: datetime) -> datetime | None:
    s = s.strip().replace(" ", "T")
    try:
        dt = datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        try:  # "2026-2-1": the Chinese habit of unpadded months and days
            y, mo, d = (int(p) for p in s.split("T")[0].split("-"))
            dt = datetime(y, mo, d)
        except ValueError:
            return None
    return dt if dt.tzinfo else dt.replace(tzinfo=now.tzinfo)


@dataclass(frozen=True)
class TimeRule:
    name: str
    pattern: re.Pattern[str]
    resolve: SpanResolver


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("".join(parts), re.IGNORECASE)


_EN_COUNT = (
    r"(?P<n>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|(?:a\s+)?couple\s+of|(?:a\s+)?few)"
)
_ZH_COUNT = r"(?P<n>\d+|[一二两三四五六七八九十]{1,3}|几)"
_ISO = r"(?P<d>\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?)"


def _period_start(now: datetime, unit: Period, back: int) -> datetime:
    """Start of the calendar day / week (Monday) / month / year ``back`` periods before ``now``'s."""
    if unit == "day":
        return _day_start(now, back)
    if unit == "week":
        return _week_start_at(now) - timedelta(days=7 * back)
    if unit == "month":
        return _month_start(now, back)
    return now.replace(year=now.year - back, month=1, day=1, hour=0, minute=0, second=0, microsecond=0)


def _period(unit: Period, back: int) -> SpanResolver:
    """The current period (``back`` 0: from its start to now) or a closed past one (``back`` >= 1)."""

    def resolve(now: datetime, m: re.Match[str]) -> Span:
        start = _period_start(now, unit, back)
        return start, (now if back == 0 else _period_start(now, unit, back - 1))

    return resolve


def _since(now: datetime, m: re.Match[str]) -> Span | None:
    start = _parse_iso(m.group("d"), now)
    return (start, now) if start is not None and start <= now else None


def _count(now: datetime, m: re.Match[str]) -> Span | None:
    n = number(m.group("n"))
    return _last_n(now, n, m.group("u")) if n else None


def _past_unit(now: datetime, m: re.Match[str]) -> Span:
    unit = m.group("u") or m.group("u2") or "day"
    return _last_n(now, 1, "day" if unit == "24 hours" else unit)


def _recent(now: datetime, m: re.Match[str]) -> Span:
    return now - timedelta(days=RECENT_DAYS), now


# Specific rules first: "最近三天" must be read as three days before "最近" is read as "recently",
# "the day before yesterday" before "yesterday".
TIME_RULES: tuple[TimeRule, ...] = (
    TimeRule("since_date", _rx(r"\b(?:since|after|from)\s+", _ISO), _since),
    TimeRule("since_date_zh", _rx(r"(?:自从|自|从)", _ISO, r"\s*(?:以来|开始|起|之后|以后)?"), _since),
    TimeRule("date_since_zh", _rx(_ISO, r"\s*(?:以来|之后|以后|起)"), _since),
    TimeRule(
        "last_n",
        _rx(
            r"\b(?:in\s+|over\s+|during\s+|within\s+)?(?:the\s+)?(?:last|past|previous)\s+",
            _EN_COUNT,
            r"\s+(?P<u>hours?|days?|weeks?|months?)\b",
        ),
        _count,
    ),
    TimeRule(
        "last_n_zh",
        _rx(r"(?:最近|近|过去|这)\s*", _ZH_COUNT, r"\s*(?P<u>小时|天|日|周|星期|礼拜|个月)"),
        _count,
    ),
    TimeRule(
        "past_unit",
        _rx(
            r"\b(?:in\s+|over\s+|during\s+)?the\s+(?:past|last)\s+(?P<u>24 hours|hour|day)\b",
            r"|\bpast\s+(?P<u2>week|month)\b",
        ),
        _past_unit,
    ),
    TimeRule("day_before_yesterday", _rx(r"\bday\s+before\s+yesterday\b|前天"), _period("day", 2)),
    TimeRule("yesterday", _rx(r"\byesterday\b|昨天|昨日"), _period("day", 1)),
    TimeRule("today", _rx(r"\btoday\b|今天|今日"), _period("day", 0)),
    TimeRule("last_week", _rx(r"\blast\s+week\b|上周|上个?星期|上个?礼拜"), _period("week", 1)),
    TimeRule("this_week", _rx(r"\bthis\s+week\b|本周|这周|这个?星期|本星期|这个?礼拜"), _period("week", 0)),
    TimeRule("last_month", _rx(r"\blast\s+month\b|上个?月"), _period("month", 1)),
    TimeRule("this_month", _rx(r"\bthis\s+month\b|本月|这个月"), _period("month", 0)),
    TimeRule("last_year", _rx(r"\blast\s+year\b|去年"), _period("year", 1)),
    TimeRule("this_year", _rx(r"\bthis\s+year\b|今年"), _period("year", 0)),
    TimeRule("recently", _rx(r"\b(?:recently|lately|recent|these\s+days)\b|最近|近期|近来|这几天|这两天"), _recent),
)


def time_ranges(text: str, now: datetime | None = None) -> Iterator[tuple[datetime, datetime, str]]:
    """Every (from, to, phrase) reading of the period ``text`` asks about, best first: the rules of
    ``TIME_RULES`` in order, each at its first match. Deterministic given ``now`` (a naive ``now`` is
    UTC; day and week boundaries are in ``now``'s timezone; weeks start on Monday). A range before year 1
    or after 9999 ("the last 99999999999 days") is no reading."""
    if now is None:
        now = datetime.now(UTC)
    elif now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    for rule in TIME_RULES:
        m = rule.pattern.search(text)
        if m is None:
            continue
        try:
            span = rule.resolve(now, m)
        except (OverflowError, ValueError):
            continue
        if span is not None:
            yield span[0], span[1], m.group(0).strip()


def time_range(text: str, now: datetime | None = None) -> tuple[datetime, datetime, str] | None:
    """(from, to, the phrase) of the period ``text`` asks about (the best of ``time_ranges``), or None."""
    return next(time_ranges(text, now), None)
