"""§7 compose_context — "资源检索按条件触发并能调用 SmartRAG.retrieve(plan)".

EN: resource retrieval is triggered by the conditions and goes through SmartRAG.retrieve(plan) — the
RetrievalPlan executor (seed-policies.md §7). §3.1: "默认触发条件：用户请求：查资料/对比方案/引用来源/'了解
一下 X' …；默认关闭条件：纯闲聊" — a request for material triggers it, pure chit-chat does not. The plan is
executed by graphbrain's own executor, or by a remote SmartRAG-compatible endpoint (POST RetrievalPlan →
EvidencePack) when ``policies.retrieval.remote_executor.url`` is set; both variants run here, the remote
one against a local HTTP stand-in that serves the same executor.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from acceptance_seed import Demo

from graphbrain import Brain
from graphbrain.contracts import EvidencePack, RetrievalPlan
from graphbrain.retrieve.executor import Executor

ASK = {"en": "find the design doc about the vector index", "zh": "帮我查一下检索设计的资料"}
CHAT = {"en": "thanks, that's great!", "zh": "好的，谢谢！"}


class Spy:
    """Records every (plan, pack) the real executor handles; the executor itself runs unchanged."""

    def __init__(self) -> None:
        self.calls: list[tuple[RetrievalPlan, EvidencePack]] = []

    def resource_calls(self) -> list[tuple[RetrievalPlan, EvidencePack]]:
        return [(p, k) for p, k in self.calls if p.global_filters.scope == ["resources"]]


@pytest.fixture()
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    s = Spy()
    real = Executor.retrieve

    def recording(self: Executor, plan: Any, **kw: Any) -> EvidencePack:
        pack = real(self, plan, **kw)
        s.calls.append((RetrievalPlan.parse(plan), pack))
        return pack

    monkeypatch.setattr(Executor, "retrieve", recording)
    return s


@pytest.fixture()
def smartrag(demo: Demo) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A SmartRAG-compatible endpoint on 127.0.0.1: POST a RetrievalPlan, get an EvidencePack."""
    brain = demo.brain
    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            plan = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            received.append(plan)
            pack = Executor(brain.config, brain.store, lambda: brain.embedder).retrieve(plan, namespace=brain.namespace)
            body = pack.model_dump_json().encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/retrieve", received
    finally:
        server.shutdown()
        server.server_close()


def _composer_brain(demo: Demo, executor: str, smartrag_url: str | None) -> Brain:
    if executor == "local":
        return demo.brain
    cfg = demo.brain.config.model_copy(deep=True)
    cfg.policies.retrieval.remote_executor.url = smartrag_url
    return Brain(cfg, demo.brain.store)  # same graph and namespace; shares (never closes) the store


@pytest.mark.parametrize("executor", ["local", "smartrag_http"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_7_compose_resource_retrieval_triggered_and_via_executor(
    demo: Demo, spy: Spy, smartrag: tuple[str, list[dict[str, Any]]], lang: str, executor: str
) -> None:
    url, received = smartrag
    brain = _composer_brain(demo, executor, url)

    # Triggered: a request for material.
    p = brain.compose_context(demo.session_id, ASK[lang])
    planner = p.debug.planner
    assert planner["search_resources"] is True and planner["search_reason"]
    resource_plans = [pl for pl in p.debug.plans if pl["global_filters"].get("scope") == ["resources"]]
    assert len(resource_plans) == 1 and resource_plans[0]["queries"][0]["mode"] == "hybrid"
    assert resource_plans[0]["request_id"] == p.context_id

    # …and executed through the RetrievalPlan executor: the plan it received is the package's plan, and
    # the pack it returned holds the resource sections the package cites.
    calls = spy.resource_calls()
    assert len(calls) == 1
    plan, pack = calls[0]
    assert plan.request_id == p.context_id
    assert [q.text for q in plan.queries] == [q["text"] for q in resource_plans[0]["queries"]]
    assert pack.evidences and {e.kind for e in pack.evidences} == {"resource_section"}
    cited = [e for e in p.evidence if e.source == "resource"]
    assert cited and {e.id for e in cited} <= {e.id for e in pack.evidences}
    assert all(e.ref.document_id and e.ref.section_id for e in cited)
    if executor == "smartrag_http":
        assert len(received) == 1 and received[0]["request_id"] == p.context_id
        assert not [w for w in p.debug.warnings if "remote executor" in w]
    else:
        assert received == []

    # Not triggered: pure chit-chat searches no resources at all.
    spy.calls.clear()
    chat = brain.compose_context(demo.session_id, CHAT[lang])
    assert chat.debug.planner["search_resources"] is False
    assert [pl["global_filters"].get("scope") for pl in chat.debug.plans] == [["memory", "turns"]]
    assert spy.resource_calls() == [] and len(received) <= 1
    assert all(e.source == "memory" for e in chat.evidence)
