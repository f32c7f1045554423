"""dateparser against graphbrain.nlp.dates on the labelled extraction set (issue 17: measure before choosing).

    pip install dateparser        # not a graphbrain dependency: only this measurement uses it
    .venv/bin/python scripts/measure_dateparser.py [--verbose]

Two measurements, side by side:

1. Every due date the set labels (tasks, goals: ``due`` resolved against the session's ``now``): the first
   date each parser finds in the turn, read as a deadline (a future date preferred). graphbrain:
   ``nlp.dates.find_date(text, now, "future")``; dateparser: ``search.search_dates`` with
   ``RELATIVE_BASE=now`` and ``PREFER_DATES_FROM="future"``, languages en and zh.
2. The readings issue 17 asks for (下周五 said on a Tuesday, 这周五, 月底, 三月五日, 3月5号, X月底, next
   Friday, end of the month, in 3 days), each phrase alone: ``dates.resolve_date`` vs ``dateparser.parse``.
"""

from __future__ import annotations

import sys
from datetime import date, datetime

import dateparser
from dateparser.search import search_dates

from graphbrain.bench.extract import load_set
from graphbrain.nlp import dates

TUESDAY = datetime(2026, 12, 1, 10, 0)  # Tuesday 2026-12-01
PHRASES: tuple[tuple[str, date], ...] = (
    ("下周五", date(2026, 12, 11)),
    ("下星期五", date(2026, 12, 11)),
    ("这周五", date(2026, 12, 4)),
    ("本周五", date(2026, 12, 4)),
    ("周五", date(2026, 12, 4)),
    ("月底", date(2026, 12, 31)),
    ("下个月底", date(2027, 1, 31)),
    ("月初", date(2027, 1, 1)),
    ("三月五日", date(2027, 3, 5)),
    ("3月5号", date(2027, 3, 5)),
    ("3月底", date(2027, 3, 31)),
    ("明天", date(2026, 12, 2)),
    ("后天", date(2026, 12, 3)),
    ("3天后", date(2026, 12, 4)),
    ("next Friday", date(2026, 12, 11)),
    ("this Friday", date(2026, 12, 4)),
    ("by Friday", date(2026, 12, 4)),
    ("end of the month", date(2026, 12, 31)),
    ("end of March", date(2027, 3, 31)),
    ("March 5", date(2027, 3, 5)),
    ("in 3 days", date(2026, 12, 4)),
    ("tomorrow", date(2026, 12, 2)),
)
SETTINGS = {"PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False}


def _dp_first(text: str, now: datetime) -> date | None:
    found = search_dates(text, languages=["en", "zh"], settings={**SETTINGS, "RELATIVE_BASE": now})
    return found[0][1].date() if found else None


def _dp_parse(phrase: str, now: datetime) -> date | None:
    got = dateparser.parse(phrase, languages=["en", "zh"], settings={**SETTINGS, "RELATIVE_BASE": now})
    return got.date() if got else None


def main(verbose: bool) -> None:
    rows = []
    for s in load_set():
        now = s.now.replace(tzinfo=None)
        for t in s.turns:
            for item in t.items:
                if item.due:
                    rows.append((t.id, t.text, now, date.fromisoformat(item.due)))
    ours = theirs = 0
    for tid, text, now, want in rows:
        found = dates.find_date(text, now, "future")
        mine = found[0] if found else None
        dp = _dp_first(text, now)
        ours += mine == want
        theirs += dp == want
        if verbose and (mine != want or dp != want):
            print(f"  {tid}: want {want}  nlp.dates {mine}  dateparser {dp}  {text}")
    print(f"Due dates in the labelled set ({len(rows)}): nlp.dates {ours} right, dateparser {theirs} right")
    print()
    print("| phrase (said Tue 2026-12-01) | expected | nlp.dates | dateparser |")
    print("|---|---|---|---|")
    for phrase, want in PHRASES:
        mine = dates.resolve_date(phrase, TUESDAY, "future")
        dp = _dp_parse(phrase, TUESDAY)
        cells = [f"{d}{'' if d == want else ' ✗'}" for d in (mine, dp)]
        print(f"| {phrase} | {want} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main("--verbose" in sys.argv[1:])
