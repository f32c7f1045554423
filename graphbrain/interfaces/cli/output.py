"""How the CLI prints: JSON for --json, else rich tables and aligned "name: value" lines."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.text import Text

MAX_CELL = 60  # characters per table cell before it is cut with "…"
TEXT_CELL = 110  # the same for a row's own text (a memory item's, a turn's snippet): what the row is about
PAIR_CELL = 200  # the same for the value of a "name: value" line
TEXT_COLUMNS = frozenset({"text", "snippet", "content"})
# Tables are never wrapped to the terminal: a row stays one line, however wide (pipe it to `less -S`).
UNWRAPPED = 100_000


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return str(value)


def emit(obj: Any, as_json: bool, human: Callable[[Any], None] | None = None) -> None:
    """``obj`` as indented JSON (with --json, or when there is no human form), else ``human(obj)``."""
    if as_json or human is None:
        click.echo(json.dumps(obj, ensure_ascii=False, indent=2, default=_json_default))
    else:
        human(obj)


def emit_report(report: Any, as_json: bool, text: Callable[[], str]) -> None:
    """A bench report as JSON, or as the text its own formatter writes."""
    if as_json:
        emit(report, True)
    else:
        click.echo(text())


def _cell(value: Any, limit: int) -> Text:
    """One value as a single line of at most ``limit`` terminal columns (CJK counts two), cut with "…"."""
    from rich.text import Text

    if value is None:
        text = ""
    elif isinstance(value, datetime):
        text = value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    elif isinstance(value, float):
        text = f"{value:.3f}".rstrip("0").rstrip(".") if value == value else "nan"
    elif isinstance(value, list | dict):
        text = json.dumps(value, ensure_ascii=False, default=_json_default)
    else:
        text = str(value)
    cell = Text(" ".join(text.split()))  # a Text, not a str: "[type:key]" is data here, never rich markup
    cell.truncate(limit, overflow="ellipsis")
    return cell


def table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], *, title: str | None = None) -> None:
    """A table: a header, a rule and one line per row (cells cut at MAX_CELL, a row's text at TEXT_CELL)."""
    from rich.box import Box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    if title:
        click.secho(title, bold=True)
    if not rows:
        click.echo("  (none)")
        return
    # No edges and no column lines, only a rule of "-" under the header: plain ASCII that reads the same in a
    # terminal, a pipe or a log file. Box rows: top, head, head rule, mid, row, foot rule, foot, bottom.
    rule_only = Box("    \n    \n -  \n    \n    \n    \n    \n    \n", ascii=True)
    grid = Table(box=rule_only, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), header_style="bold")
    for c in columns:
        grid.add_column(Text(c), no_wrap=True)
    for r in rows:
        grid.add_row(*(_cell(r.get(c), TEXT_CELL if c in TEXT_COLUMNS else MAX_CELL) for c in columns))
    # Rendered into a string and written with click.echo, so that click's own stdout (a pipe, CliRunner's
    # capture) gets it and styles reach only a terminal.
    styled = sys.stdout.isatty()
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=UNWRAPPED,
        force_terminal=styled,
        color_system="standard" if styled else None,
        highlight=False,
    )
    console.print(grid)
    click.echo("\n".join(line.rstrip() for line in buffer.getvalue().splitlines()))


def readable(text: Any) -> Any:
    """A memory item's text without its "[type:key] " head: the key has a column of its own."""
    if isinstance(text, str) and text.startswith("[") and "] " in text:
        return text.partition("] ")[2]
    return text


def readable_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "text": readable(r.get("text"))} for r in rows]


def fields(record: Mapping[str, Any], *names: str) -> list[tuple[str, Any]]:
    """(name, value) of a record's fields, for ``pairs`` where a field's name is its label."""
    return [(name, record.get(name)) for name in names]


def pairs(items: Sequence[tuple[str, Any]]) -> None:
    """Aligned "name: value" lines for one record."""
    width = max(len(k) for k, _ in items)
    for k, v in items:
        click.echo(f"{k + ':':<{width + 1}} {_cell(v, PAIR_CELL).plain}")
