"""Shared helpers of the interface tests: tokens, tenants, turns, a free port (fixtures: conftest.py).

Two tenants share one Brain (one store) in two namespaces, as in a real deployment: token A is bound to
namespace A, token B to namespace B, the cypher token to A with the cypher grant, the admin token to any
namespace. Seed data goes in through ``brain.commit_turn`` like every other test's.
"""

from __future__ import annotations

import hashlib
import socket
import uuid
from dataclasses import dataclass
from typing import Any

from graphbrain import Brain
from graphbrain.interfaces.http import ServerSettings, TokenConfig

TOKEN_A = "tok-a-" + "a" * 32
TOKEN_B = "tok-b-" + "b" * 32
TOKEN_CYPHER = "tok-c-" + "c" * 32
TOKEN_ADMIN = "tok-admin-" + "d" * 32


def sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def turn(turn_id: str, user: str, assistant: str = "OK.", **extra: Any) -> dict[str, Any]:
    return {
        "turn_id": turn_id,
        "messages": [
            {"message_id": f"{turn_id}-u", "role": "user", "content": user},
            {"message_id": f"{turn_id}-a", "role": "assistant", "content": assistant},
        ],
        **extra,
    }


def seed(brain: Brain, namespace: str, session: str = "s1") -> None:
    """A decision, a task and an entity (Neo4j is named twice, so it passes the entity gate)."""
    brain.commit_turn(session, turn("t1", "We decided to use Neo4j for the memory store.", namespace=namespace))
    brain.commit_turn(session, turn("t2", "TODO: benchmark Neo4j vector search this week.", namespace=namespace))


@dataclass
class Tenants:
    brain: Brain
    a: str
    b: str

    def headers(self, token: str, namespace: str | None = None) -> dict[str, str]:
        h = {"Authorization": f"Bearer {token}"}
        if namespace:
            h["X-Graphbrain-Namespace"] = namespace
        return h


def tenant_settings(a: str, b: str, **extra: Any) -> ServerSettings:
    return ServerSettings(
        tokens=[
            TokenConfig(name="a", token_sha256=sha(TOKEN_A), namespaces=[a]),
            TokenConfig(name="b", token_sha256=sha(TOKEN_B), namespaces=[b]),
            TokenConfig(name="cypher", token_sha256=sha(TOKEN_CYPHER), namespaces=[a], cypher=True),
            TokenConfig(name="admin", token_sha256=sha(TOKEN_ADMIN), namespaces=["*"], admin=True),
        ],
        **extra,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"
