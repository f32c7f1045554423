"""What the CLI reads from the user: files or stdin, JSON (errors name the file and position), --param, turns."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from graphbrain.errors import InputError

STDIN = "-"


def read_text(source: str, what: str) -> tuple[str, str]:
    """(text, name) of a file or of stdin ("-")."""
    if source == STDIN:
        return sys.stdin.read(), "<stdin>"
    path = Path(source)
    if not path.is_file():
        raise InputError(f"{source}: no such file ({what})")
    try:
        return path.read_text(encoding="utf-8"), source
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{source}: cannot read it ({e})") from e


def text_or_stdin(value: str, what: str) -> str:
    """An argument given as the text itself, or "-" for stdin."""
    return read_text(STDIN, what)[0] if value == STDIN else value


def parse_json(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: invalid JSON at line {e.lineno} column {e.colno} (char {e.pos}): {e.msg}") from e


def read_json(source: str, what: str) -> Any:
    return parse_json(*read_text(source, what))


def json_or_file(value: str | None, what: str) -> Any:
    """An option given as inline JSON or as @FILE."""
    if value is None:
        return None
    if value.startswith("@"):
        return read_json(value[1:], what)
    return parse_json(value, what)


def parse_param(spec: str) -> tuple[str, Any]:
    """``key=value`` → (key, value): the value as JSON when it parses (numbers, true, lists...), else the
    string as given."""
    key, sep, raw = spec.partition("=")
    key = key.strip()
    if not sep or not key.isidentifier():
        raise InputError(f"--param {spec!r}: expected KEY=VALUE with KEY a parameter name")
    try:
        return key, json.loads(raw)
    except ValueError:
        return key, raw


def turns(payload: Any, session: str | None, name: str) -> list[tuple[str, dict[str, Any]]]:
    """(session_id, turn events) pairs from one turn, a list of turns or {"session_id", "turns": [...]}."""
    if isinstance(payload, dict) and isinstance(payload.get("turns"), list):
        sid = session or payload.get("session_id")
        events = payload["turns"]
    elif isinstance(payload, dict):
        sid, events = session, [payload]
    elif isinstance(payload, list):
        sid, events = session, payload
    else:
        raise InputError(f"{name}: expected a JSON object (one turn) or a list of turns")
    out = []
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise InputError(f"{name}: turn {i} is not a JSON object")
        ev = dict(ev)
        own = ev.pop("session_id", None)
        turn_session = session or own or sid
        if not isinstance(turn_session, str) or not turn_session:
            raise InputError(f'{name}: no session id: give --session or a "session_id" in the JSON')
        out.append((turn_session, ev))
    return out
