"""Memory snapshots: a selection of a namespace's memory items, rendered as one Markdown document to ingest."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast
from urllib.parse import quote

from graphbrain.contracts import KEY_PREFIX, MemoryType
from graphbrain.errors import InputError
from graphbrain.resources.model import ParsedDocument
from graphbrain.resources.options import IngestOptions, to_json
from graphbrain.resources.parsers import parse_text
from graphbrain.store import Store
from graphbrain.store.json_props import loads_object

__all__ = ["DEFAULT_SNAPSHOT_LIMIT", "MemorySnapshot", "parse_snapshot", "render_memory_snapshot"]

DEFAULT_SNAPSHOT_LIMIT = 500


@dataclass(frozen=True, slots=True)
class MemorySnapshot:
    """A selection of the namespace's memory items to render and ingest as one document."""

    types: tuple[str, ...] | None = None  # memory types ("decisions", or "decision"); None: all but entities
    key_prefix: str | None = None
    status: tuple[str, ...] = ("active",)
    limit: int = DEFAULT_SNAPSHOT_LIMIT

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> MemorySnapshot:
        unknown = set(data) - {"types", "type", "key_prefix", "status", "statuses", "limit"}
        if unknown:
            raise InputError(f"memory_snapshot: unknown selection keys {sorted(unknown)}")
        raw_types = data.get("types", data.get("type"))
        types = None if raw_types is None else tuple(_memory_type(t) for t in _as_list(raw_types, "types"))
        status = tuple(_as_list(data.get("status", data.get("statuses", ["active"])), "status"))
        for s in status:
            if s not in ("active", "superseded", "retracted"):
                raise InputError(f"memory_snapshot: status {s!r} is not active / superseded / retracted")
        prefix = data.get("key_prefix")
        if prefix is not None and not isinstance(prefix, str):
            raise InputError("memory_snapshot: key_prefix must be a string")
        limit = data.get("limit", DEFAULT_SNAPSHOT_LIMIT)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 10_000:
            raise InputError("memory_snapshot: limit must be an integer from 1 to 10000")
        return cls(types=types, key_prefix=prefix or None, status=status, limit=limit)

    def describe(self) -> str:
        parts = [f"types={','.join(self.types) if self.types else 'all'}"]
        if self.key_prefix:
            parts.append(f"key_prefix={self.key_prefix}")
        parts.append(f"status={','.join(self.status)}")
        return " ".join(parts)

    def source_uri(self) -> str:
        # Stable per selection, so a later snapshot of the same selection updates the same document.
        types = ",".join(sorted(self.types)) if self.types else "all"
        prefix = quote(self.key_prefix or "", safe=":")
        return f"graphbrain://memory_snapshot/{types}/{prefix}?status={','.join(sorted(self.status))}"


def _as_list(value: Any, name: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable) and all(isinstance(v, str) for v in value):
        return list(value)
    raise InputError(f"memory_snapshot: {name} must be a string or a list of strings")


def _memory_type(name: str) -> str:
    for t in MemoryType:
        if name in (t.value, KEY_PREFIX[t]):
            return t.value
    raise InputError(f"memory_snapshot: unknown memory type {name!r} (one of {', '.join(t.value for t in MemoryType)})")


def parse_snapshot(store: Store, sel: MemorySnapshot, opts: IngestOptions) -> ParsedDocument:
    """The selected memory items of ``opts.namespace`` as a parsed Markdown document."""
    rows = store.run(
        "resources/snapshot_items",
        {
            "namespace": opts.namespace,
            "types": list(sel.types) if sel.types else None,
            "key_prefix": sel.key_prefix,
            "statuses": list(sel.status),
            "limit": sel.limit,
        },
    )
    if not rows:
        raise InputError(f"memory_snapshot: no memory items match {sel.describe()}")
    title = opts.title or f"Memory snapshot: {', '.join(sel.types) if sel.types else 'all types'}" + (
        f" ({sel.key_prefix})" if sel.key_prefix else ""
    )
    text = render_memory_snapshot(rows, title=title, selection=sel.describe())
    meta = {
        **opts.metadata,
        "selection": sel.describe(),
        "memory_item_ids": [r["id"] for r in rows],
    }
    return parse_text(
        text,
        title=title,
        fmt="markdown",
        source_uri=sel.source_uri(),
        source_type="memory_snapshot",
        language=opts.language,
        metadata=meta,
    )


_TYPE_HEADINGS = {t.value: t.value.capitalize() for t in MemoryType}


def render_memory_snapshot(items: Sequence[Mapping[str, Any]], *, title: str, selection: str = "") -> str:
    """Memory items as Markdown: one ``##`` per type, one ``###`` section per item (its key).

    Deterministic (no render time, items in the query's order), so unchanged memory renders to the same
    text and its re-ingest is a no-op.
    """
    lines = [f"# {title}", ""]
    lines.append(f"{len(items)} memory item(s)" + (f", selected by {selection}." if selection else "."))
    current: str | None = None
    for it in items:
        mtype = str(it.get("type") or "other")
        if mtype != current:
            lines += ["", f"## {_TYPE_HEADINGS.get(mtype, mtype.capitalize())}"]
            current = mtype
        key = str(it.get("key") or it.get("id"))
        text = str(it.get("text") or "")
        prefix = f"[{mtype}:{key}]"
        if text.startswith(prefix):
            text = text[len(prefix) :].strip()
        lines += ["", f"### {key}", ""]
        if text:
            lines += [text, ""]
        value = loads_object(cast(str | None, it.get("value_json")))
        for k in sorted(value):
            v = value[k]
            if v in (None, "", [], {}) or (isinstance(v, str) and v == text):
                continue
            shown = v if isinstance(v, str) else to_json(v)
            lines.append(f"- {k}: {shown}")
        facts = [f"status: {it.get('status') or 'active'}"]
        if it.get("confidence") is not None:
            facts.append(f"confidence: {float(it['confidence']):.2f}")
        if it.get("version") is not None:
            facts.append(f"version: {it['version']}")
        when = it.get("updated_at") or it.get("created_at")
        if isinstance(when, datetime):
            facts.append(f"updated: {when.date().isoformat()}")
        lines.append(f"- {'; '.join(facts)}")
    return "\n".join(lines) + "\n"
