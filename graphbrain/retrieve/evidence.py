"""Candidates into evidence: hydration rows filled in, the Evidence items, and their refs back to the graph."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, cast

from graphbrain.contracts import (
    Evidence,
    EvidenceKind,
    EvidenceMetadata,
    Provenance,
    Raw,
    RetrievalPlan,
    Signals,
    SourceType,
)
from graphbrain.retrieve.candidate import Candidate, Side
from graphbrain.retrieve.snippets import make_snippet
from graphbrain.store.base import Row

__all__ = ["fill", "to_evidence"]

_SOURCE_TYPES = frozenset({"url", "file", "manual", "memory_snapshot", "other"})
_KINDS: dict[Side, EvidenceKind] = {
    "memory": "memory_chunk",
    "turn": "memory_chunk",
    "resource": "resource_section",
}


def to_evidence(c: Candidate, plan: RetrievalPlan, retrieved_at: datetime) -> Evidence:
    out = plan.output
    if out.include_snippets:
        snippet, policy = make_snippet(c, out.snippet_policy, out.max_snippet_chars)
    else:
        snippet, policy = "", out.snippet_policy
    meta = {k: v for k, v in c.metadata.items() if k != "node_id"}
    if plan.debug.trace:
        meta["hits"] = c.hits
        meta["features"] = c.features
    raw = None
    if out.include_raw:
        raw = Raw(content_ref=_content_ref(c), content_hash=c.content_hash or _sha256(c.text))
    return Evidence(
        id=c.id,
        kind=_KINDS[c.side],
        document_id=c.document_id,
        section_id=c.section_id,
        title=c.title,
        source_uri=c.source_uri,
        source_type=_source_type(c.source_type),
        snippet=snippet,
        snippet_policy=policy,
        language=c.language,
        score=c.score,
        signals=Signals(**c.signals) if out.include_signals else Signals(),
        provenance=Provenance(
            mode=c.mode,
            query_text=c.query_text,
            query_index=c.query_index,
            retrieved_at=retrieved_at,
            path=c.path if out.include_provenance else None,
        ),
        metadata=EvidenceMetadata(**meta),
        raw=raw,
        ref=_ref(c),
    )


def _source_type(value: str) -> SourceType:
    return cast(SourceType, value) if value in _SOURCE_TYPES else "other"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _content_ref(c: Candidate) -> str:
    node = c.metadata.get("node_id")
    if c.side == "resource":
        return f"graphbrain://chunk/{node}"
    return c.source_uri


def fill(c: Candidate, row: Row) -> None:
    """Hydrate one candidate in place from its ``retrieve/hydrate_*`` row."""
    if c.side == "memory":
        c.text = row.get("text") or ""
        c.title = row.get("key")
        c.source_uri = f"graphbrain://memory/{row['id']}"
        c.source_type = "other"
        c.memory_type = row.get("type")
        c.memory_key = row.get("key")
        c.status = row.get("status")
        c.confidence = row.get("confidence")
        c.session_id = row.get("session_id")
        c.turn_id = row.get("turn_id")
        c.message_id = row.get("message_id")
        c.at = row.get("updated_at")
        c.entities = list(row.get("entities") or [])
        c.metadata |= {
            "memory_type": c.memory_type,
            "key": c.memory_key,
            "status": c.status,
            "confidence": c.confidence,
            "version": row.get("version"),
            "updated_at": _iso(row.get("updated_at")),
        }
    elif c.side == "turn":
        c.text = row.get("content") or ""
        c.session_id = row.get("session_id")
        c.turn_id = row.get("turn_id")
        c.language = row.get("language")
        c.at = row.get("at")
        c.title = f"{row.get('role')} · session {row.get('session_id')} · turn {row.get('turn_id')}"
        c.source_uri = f"graphbrain://turn/{row.get('turn_node_id')}#{row.get('message_id')}"
        c.source_type = "other"
        c.entities = sorted(set(row.get("message_entities") or []) | set(row.get("turn_entities") or []))
        c.speaker = row.get("speaker") or None
        c.filler = bool(row.get("filler"))
        c.metadata |= {
            "role": row.get("role"),
            "turn_node_id": row.get("turn_node_id"),
            "message_id": row.get("message_id"),
            "seq": row.get("seq"),
            "position": row.get("position"),
            "at": _iso(row.get("at")),
        }
    else:
        c.text = row.get("text") or ""
        c.title = row.get("title")
        c.source_uri = row.get("source_uri") or ""
        c.source_type = row.get("source_type") or "other"
        c.language = row.get("language")
        c.at = row.get("updated_at")
        c.l0 = row.get("l0") or None
        c.l1 = row.get("l1") or None
        c.tags = list(row.get("tags") or [])
        c.topics = list(row.get("topics") or [])
        c.entities = list(row.get("entities") or [])
        c.content_hash = row.get("content_hash")
        c.metadata |= {
            "chunk_index": row.get("chunk_index"),
            "offset_start": row.get("offset_start"),
            "offset_end": row.get("offset_end"),
            "page": row.get("page"),
            "section_title": row.get("section_title"),
            "heading_path": row.get("heading_path"),
            "tags": c.tags,
            "topics": c.topics,
        }


def _ref(c: Candidate) -> dict[str, Any]:
    """Where the evidence came from, in dialog and document ids, so callers can map it back."""
    if c.side == "memory":
        return {
            "memory_item_id": c.memory_item_id,
            "session_id": c.session_id,
            "turn_id": c.turn_id,
            "message_id": c.message_id,
        }
    if c.side == "turn":
        return {
            "session_id": c.session_id,
            "turn_id": c.turn_id,
            "message_id": c.metadata.get("message_id"),
            "turn_node_id": c.metadata.get("turn_node_id"),
            "message_node_id": c.metadata.get("node_id"),
        }
    return {"document_id": c.document_id, "section_id": c.section_id, "chunk_id": c.metadata.get("node_id")}
