"""Fuzz the HTTP API from its own OpenAPI document (schemathesis): no input makes it answer 5xx.

Driven by hand over ``schema.get_all_operations()`` (schemathesis's pytest fixture loader does not run
under this pytest), one hypothesis run per operation, with tenant A's token.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from iface_support import TOKEN_A, Tenants, tenant_settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok

from graphbrain.interfaces.http import create_app

EXAMPLES = 12


def fuzz(tenants: Tenants, *, only: str | None = None, skip: frozenset[str] = frozenset()) -> int:
    app = create_app(tenants.brain, tenant_settings(tenants.a, tenants.b), environ={})
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    auth = tenants.headers(TOKEN_A, tenants.a)
    results = list(schema.get_all_operations())
    assert all(isinstance(r, Ok) for r in results), results  # the document itself is valid
    operations = [r.ok() for r in results if isinstance(r, Ok)]
    ran = 0
    for operation in operations:
        if operation.path in skip or (only is not None and operation.path != only):
            continue

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,  # the same cases every run: a failure here is a bug, not bad luck
            database=None,
        )
        def run(case: Any) -> None:
            case.call_and_validate(headers=auth, checks=[not_a_server_error], timeout=120)

        run()
        ran += 1
    return ran


@pytest.mark.slow
def test_no_input_causes_a_server_error(tenants: Tenants) -> None:
    assert fuzz(tenants, skip=frozenset({"/v1/commit_turn"})) >= 14


def test_duplicate_tool_call_ids_are_a_422(client: TestClient, tenants: Tenants) -> None:
    calls = [{"id": "c1", "name": "search"}, {"id": "c1", "name": "fetch"}]
    events = {"messages": [{"role": "assistant", "content": "looking", "tool_calls": calls}]}
    r = client.post(
        "/v1/commit_turn", headers=tenants.headers(TOKEN_A), json={"session_id": "s1", "turn_events": events}
    )
    assert r.status_code == 422, r.text


@pytest.mark.slow
def test_commit_turn_fuzz(tenants: Tenants) -> None:
    assert fuzz(tenants, only="/v1/commit_turn") == 1
