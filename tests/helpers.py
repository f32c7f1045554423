"""Helpers test modules share (import them as ``from helpers import ...``; tests/ is on sys.path)."""

from __future__ import annotations

from typing import Any


def turn(turn_id: str, user: str, assistant: str = "OK.", **extra: Any) -> dict[str, Any]:
    """A user/assistant turn for commit_turn, message ids derived from ``turn_id``."""
    return {
        "turn_id": turn_id,
        "messages": [
            {"message_id": f"{turn_id}-u", "role": "user", "content": user},
            {"message_id": f"{turn_id}-a", "role": "assistant", "content": assistant},
        ],
        **extra,
    }
