"""EventStore records: the turn, its messages, tool calls and refs, verbatim, as rows for one UNWIND.

Ids are derived from (namespace, session, turn, message) so a replayed turn maps to the same nodes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphbrain.contracts import TurnEvents
from graphbrain.ids import stable_id
from graphbrain.resources.refs import normalise_ref_uri


def _json(v: Any) -> str | None:
    return None if v is None else json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)


@dataclass
class TurnRecord:
    namespace: str
    session_id: str
    turn_id: str
    at: datetime
    session_node_id: str
    turn_node_id: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    refs: list[dict[str, Any]] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    items_json: str | None = None  # explicit structured items, verbatim (the EventStore keeps everything)

    def message_node_id(self, position: int) -> str:
        return self.messages[position]["id"]


def build_turn(namespace: str, session_id: str, turn_id: str, at: datetime, ev: TurnEvents) -> TurnRecord:
    rec = TurnRecord(
        namespace=namespace,
        session_id=session_id,
        turn_id=turn_id,
        at=at,
        session_node_id=stable_id("ses", namespace, session_id),
        turn_node_id=stable_id("turn", namespace, session_id, turn_id),
        metadata=ev.metadata,
        items_json=_json([i.model_dump(mode="json") for i in ev.items]) if ev.items else None,
    )
    for pos, m in enumerate(ev.messages):
        message_id = m.message_id or f"{turn_id}:{pos}"
        mid = stable_id("msg", namespace, session_id, turn_id, message_id)
        rec.messages.append(
            {
                "id": mid,
                "message_id": message_id,
                "position": pos,
                "role": m.role,
                "content": m.content,
                "name": m.name,
                "tool_call_id": m.tool_call_id,
                "status": m.status,
                "result_json": _json(m.result),
                "at": m.at or at,
                "language": None,
                "embedding": None,
                "tool_calls": [
                    {
                        "id": stable_id("call", namespace, session_id, turn_id, c.id),
                        "call_id": c.id,
                        "name": c.name,
                        "args_json": _json(c.args),
                    }
                    for c in m.tool_calls
                ],
            }
        )
    seen: set[str] = set()
    for r in ev.refs:
        uri = normalise_ref_uri(r.type, r.uri)
        rid = stable_id("ref", namespace, r.type, uri)
        if rid in seen:
            continue
        seen.add(rid)
        rec.refs.append({"id": rid, "type": r.type, "uri": uri, "title": r.title, "metadata_json": _json(r.metadata)})
    return rec


def turn_text(rec: TurnRecord) -> str:
    """The turn as one readable text (roles prefixed), for the trace and the summary's token count."""
    return "\n".join(f"{m['role']}: {m['content']}" for m in rec.messages if m["content"])
