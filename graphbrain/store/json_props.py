"""Reading the JSON that graphbrain stores as text in node properties (``value_json``, ``trace``…)."""

from __future__ import annotations

import json
from typing import Any


def loads(text: str | None) -> Any:
    """A JSON property as written; None when the property is absent."""
    return None if text is None else json.loads(text)


def loads_object(text: str | None) -> dict[str, Any]:
    """A JSON-object property, or {} when it is absent, not JSON or not an object (older or foreign data)."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
