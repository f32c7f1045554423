"""Shared helpers of the interface tests: tokens, tenants, turns, a free port (fixtures: conftest.py).

Two tenants share one Brain (one store) in two namespaces, as in a real deployment: token A is bound to
namespace A, token B to namespace B, the cypher token to A with the cypher grant, the admin token to any
namespace. Seed data goes in through ``brain.commit_turn`` like every other test's.
"""

from __future__ import annotations

import hashlib
import socket
import struct
import uuid
import zlib
from dataclasses import dataclass
from typing import Any

from helpers import turn

from graphbrain import Brain
from graphbrain.interfaces.http import ServerSettings, TokenConfig

TOKEN_A = "tok-a-" + "a" * 32
TOKEN_B = "tok-b-" + "b" * 32
TOKEN_CYPHER = "tok-c-" + "c" * 32
TOKEN_ADMIN = "tok-admin-" + "d" * 32


def sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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


# ---------------------------------------------------------------- screenshots (Chromium writes PNG)
@dataclass
class Png:
    width: int
    height: int
    channels: int
    rows: list[bytes]  # unfiltered scanlines

    def colours(self, x0: int, y0: int, x1: int, y1: int) -> set[bytes]:
        """The distinct RGB values in a box."""
        ch = self.channels
        return {row[x * ch : x * ch + 3] for row in self.rows[y0:y1] for x in range(x0, x1)}


def decode_png(data: bytes) -> Png:
    """Decode an 8-bit RGB or RGBA PNG (what Chromium writes) with the stdlib only."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), f"unexpected PNG format depth={depth} color={color}"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind_, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):  # the five PNG filters (RFC 2083 §6)
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind_ == 1:
                line[i] = (line[i] + a) & 255
            elif kind_ == 2:
                line[i] = (line[i] + b) & 255
            elif kind_ == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind_ == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return Png(width, height, channels, rows)
