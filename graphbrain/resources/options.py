"""What one ingest call asks for (namespace, title, tags, topics, ...) and the small helpers its writes share."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from graphbrain.contracts import SourceType, check_text
from graphbrain.errors import InputError
from graphbrain.ids import stable_id

__all__ = ["MAX_LABEL_CHARS", "IngestOptions", "elapsed_ms", "label_rows", "to_json"]

MAX_LABEL_CHARS = 256


@dataclass(slots=True)
class IngestOptions:
    namespace: str
    title: str | None
    tags: list[dict[str, str]]
    topics: list[dict[str, str]]
    language: str | None
    metadata: dict[str, Any]
    source_type: SourceType | None


def to_json(v: Any) -> str:
    # The same serialisation as the commit pipeline (value_json of an entity must compare equal).
    return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)


def label_rows(kind: str, namespace: str, names: Iterable[str] | str, what: str) -> list[dict[str, str]]:
    """Tag / Topic rows: whitespace-collapsed names (case kept), deduplicated, with their stable ids."""
    if isinstance(names, str):
        names = [names]
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for raw in names:
        if not isinstance(raw, str):
            raise InputError(f"{what}: every entry must be a string, not {type(raw).__name__}")
        check_text(raw, what)
        name = " ".join(raw.split())
        if not name or name in seen:
            continue
        if len(name) > MAX_LABEL_CHARS:
            raise InputError(f"{what}: {name[:40]!r}... is over {MAX_LABEL_CHARS} characters")
        seen.add(name)
        out.append({"id": stable_id(kind, namespace, name), "name": name})
    return out


def elapsed_ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)
