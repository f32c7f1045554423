"""The time range a message names ("last week", "最近三天", "since 2026-01-05"), as a TimeRange filter.

The readings come from ``graphbrain.nlp.dates.time_ranges``, the project's one date module (shared with
commit); this module only turns the first valid reading into a ``TimeRange``.
"""

from __future__ import annotations

from datetime import datetime

from graphbrain.compose.cues import nlp_text
from graphbrain.contracts import TimeRange
from graphbrain.nlp import dates


def parse_time_range(message: str, now: datetime | None = None) -> tuple[TimeRange | None, str]:
    """A time range named in the message and the phrase that named it; ``(None, "")`` when there is none.

    The readings are ``graphbrain.nlp.dates.time_ranges`` (the one date module, shared with commit):
    closed days and weeks ("yesterday", "last week", "上个月") end at the start of the next one; open
    ones ("today", "this week", "recently", "in the last 3 days", "最近三天", "since 2026-01-05") end at
    ``now``; "recently" / "最近" alone is the last ``RECENT_DAYS`` days. The first reading a TimeRange
    accepts wins. ``now`` defaults to the current time; a naive one is UTC (as ``time_ranges`` reads it).
    """
    for start, end, phrase in dates.time_ranges(nlp_text(message), now):
        try:
            return TimeRange.model_validate({"from": start, "to": end}), phrase
        except ValueError:
            # "since 0001-01-01T00:00+14:00": before year 1 in UTC, not a range anything is stored in;
            # the message is searched without a time filter.
            continue
    return None, ""
