"""The remote executor against local test servers: a good pack, salvage, and every failure as a warning."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from graphbrain.contracts import EvidencePack, RetrievalPlan
from graphbrain.errors import PlanError
from graphbrain.retrieve.remote import RemoteExecutor

Server = Callable[[dict[str, Any]], str]

PLAN = {
    "version": "0.1",
    "request_id": "req-1",
    "queries": [{"text": "how are results fused?", "mode": "hybrid"}],
    "global_filters": {"tag_ids": ["design"], "time_range": {"from": "2026-01-01T00:00:00Z"}},
}


def _evidence(i: int) -> dict[str, Any]:
    return {
        "id": f"doc_1:s02-fusion:{i}",
        "kind": "resource_section",
        "document_id": "doc_1",
        "section_id": "s02-fusion",
        "title": "Design",
        "source_uri": "file:///docs/design.md",
        "source_type": "file",
        "snippet": "Vector and full-text results are merged with RRF.",
        "score": 0.9 - i / 10,
        "provenance": {
            "mode": "hybrid",
            "query_text": "how are results fused?",
            "query_index": 0,
            "retrieved_at": "2026-02-18T10:00:00Z",
        },
        "metadata": {
            "chunk_index": i,
            "offset_start": 10,
            "offset_end": 60,
            "page": None,
            "section_title": "Fusion with RRF",
        },
    }


def _pack(n: int = 2) -> dict[str, Any]:
    return {
        "version": "0.1",
        "plan": PLAN,
        "plan_id": "plan_remote_1",
        "request_id": "req-1",
        "generated_at": "2026-02-18T10:00:01Z",
        "evidences": [_evidence(i) for i in range(n)],
        "stats": {"candidates": 12, "returned": n, "took_ms": 4.5},
    }


def _json_route(payload: Any, seen: list[dict[str, Any]] | None = None, status: int = 200) -> Callable[..., None]:
    def handle(h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length)
        if seen is not None:
            seen.append(
                {
                    "method": h.command,
                    "auth": h.headers.get("Authorization"),
                    "type": h.headers.get("Content-Type"),
                    "body": json.loads(body),
                }
            )
        data = json.dumps(payload).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    return handle


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_remote_pack_is_returned(http_server: Server) -> None:
    seen: list[dict[str, Any]] = []
    base = http_server({"/retrieve": _json_route(_pack(), seen)})
    pack = RemoteExecutor(f"{base}/retrieve", timeout_s=5, token="s3cret").retrieve(PLAN, namespace="ns1")
    assert isinstance(pack, EvidencePack) and pack.warnings == []
    assert [e.id for e in pack.evidences] == ["doc_1:s02-fusion:0", "doc_1:s02-fusion:1"]
    assert pack.evidences[0].metadata.section_title == "Fusion with RRF"
    assert pack.plan_id == "plan_remote_1" and pack.stats.candidates == 12
    req = seen[0]
    assert req["method"] == "POST" and req["auth"] == "Bearer s3cret"
    assert req["type"].startswith("application/json")
    # The plan went out as the wire JSON: aliases ("from"), the namespace set, parseable back.
    assert req["body"]["namespace"] == "ns1" and req["body"]["global_filters"]["time_range"]["from"]
    assert RetrievalPlan.parse(req["body"]).queries[0].text == "how are results fused?"


def test_a_mostly_valid_pack_is_salvaged(http_server: Server) -> None:
    broken = _evidence(1)
    del broken["provenance"]
    wrapped = {"evidence_pack": {**_pack(1), "evidences": [_evidence(0), broken], "engine": "smartrag-2"}}
    base = http_server({"/r": _json_route(wrapped)})
    pack = RemoteExecutor(f"{base}/r").retrieve(RetrievalPlan.parse(PLAN))
    assert [e.id for e in pack.evidences] == ["doc_1:s02-fusion:0"]
    assert any("engine" in w for w in pack.warnings)
    assert any("dropped 1 invalid evidence" in w and "provenance" in w for w in pack.warnings)


@pytest.mark.parametrize(
    ("route", "expect"),
    [
        ((200, "application/json", b"<html>definitely not json"), "not JSON"),
        ((200, "application/json", b"[1, 2, 3]"), "not an EvidencePack"),
        ((200, "application/json", b'{"evidences": 5}'), "not a list"),
        ((500, "text/plain", b"boom"), "HTTP 500"),
        ((302, "text/plain", b""), "HTTP 302"),
    ],
)
def test_bad_answers_become_warnings(http_server: Server, route: tuple[int, str, bytes], expect: str) -> None:
    base = http_server({"/r": route})
    pack = RemoteExecutor(f"{base}/r", timeout_s=5).retrieve(PLAN)
    assert pack.evidences == []
    assert len(pack.warnings) == 1 and expect in pack.warnings[0] and base in pack.warnings[0]
    assert pack.request_id == "req-1" and pack.plan["queries"][0]["text"] == "how are results fused?"
    assert pack.plan_id.startswith("plan_")


def test_dead_port_is_a_warning() -> None:
    pack = RemoteExecutor(f"http://127.0.0.1:{_free_port()}/retrieve", timeout_s=2).retrieve(PLAN)
    assert pack.evidences == [] and "cannot connect" in pack.warnings[0]


def test_a_server_slower_than_the_timeout_is_a_warning(http_server: Server) -> None:
    def slow(h: BaseHTTPRequestHandler) -> None:
        time.sleep(2.0)
        _json_route(_pack())(h)

    base = http_server({"/slow": slow})
    t0 = time.monotonic()
    pack = RemoteExecutor(f"{base}/slow", timeout_s=0.5).retrieve(PLAN)
    assert time.monotonic() - t0 < 1.8
    assert pack.evidences == [] and "timed out after 0.5 s" in pack.warnings[0]


def test_configuration_and_plan_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SMARTRAG_TOKEN", "from-env")
    ex = RemoteExecutor.from_settings("http://127.0.0.1:1/r", timeout_s=3, token_env="SMARTRAG_TOKEN")
    assert ex.token == "from-env" and ex.timeout_s == 3 and "from-env" not in repr(ex)
    with pytest.raises(ValueError):
        RemoteExecutor("ftp://example.org/r")
    # An invalid plan is the caller's error, as with the local executor.
    with pytest.raises(PlanError):
        ex.retrieve({"version": "0.1", "queries": []})
