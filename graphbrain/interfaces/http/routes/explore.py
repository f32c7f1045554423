"""Exploring the graph: /v1/entities, /v1/cypher (read-only unless admin) and the compose/commit traces."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from graphbrain.errors import ReadOnlyViolation, StoreError, StoreUnavailable
from graphbrain.interfaces.http.auth import require_admin
from graphbrain.interfaces.http.deps import BrainDep, IdParam, ScopeDep, SettingsDep, lookup
from graphbrain.interfaces.http.errors import ERRORS, ApiError
from graphbrain.interfaces.http.settings import StrictModel

graph = APIRouter(tags=["graph"], responses=ERRORS)
traces = APIRouter(tags=["traces"], responses=ERRORS)

MAX_CYPHER_CHARS = 100_000


class CypherRequest(StrictModel):
    query: str = Field(min_length=1, max_length=MAX_CYPHER_CHARS)
    params: dict[str, Any] = Field(default_factory=dict)
    write: bool = False
    row_cap: int | None = Field(None, ge=1, le=100_000, description="At most server.cypher_row_cap.")


class CypherResponse(BaseModel):
    columns: list[str]
    rows: list[dict[str, Any]]
    truncated: bool


@lookup(graph.get, "/v1/entities/{name}", "entity {name!r}")
def get_entity(name: Annotated[str, PathParam(max_length=512)], scope: ScopeDep, brain: BrainDep) -> Any:
    """An entity: aliases, neighbourhood (entities, tasks, decisions, turns, documents) and timeline"""
    return brain.entity(name, namespace=scope.namespace)


@graph.post(
    "/v1/cypher",
    response_model=CypherResponse,
    summary="Run Cypher: read-only (a READ transaction) unless write=true with an admin token",
)
def cypher(body: CypherRequest, scope: ScopeDep, brain: BrainDep, settings: SettingsDep) -> CypherResponse:
    if body.write:
        require_admin(scope, "write Cypher")
    if not scope.principal.cypher:
        # A READ transaction still reads every namespace: $namespace is a filter the query may skip.
        raise ApiError(
            403, "forbidden", "Cypher needs a token with the cypher grant (or admin): it can read every namespace"
        )
    cap = min(body.row_cap or settings.cypher_row_cap, settings.cypher_row_cap)
    try:
        result = brain.cypher(body.query, body.params, write=body.write, row_cap=cap, namespace=scope.namespace)
    except ReadOnlyViolation as e:
        raise ReadOnlyViolation(f'{e}; send "write": true (admin tokens only) to change the graph') from e
    except StoreUnavailable:
        raise
    except StoreError as e:
        # The caller's query is at fault (syntax, unknown function...), not the service.
        raise ApiError(400, "cypher_error", str(e), [{"field": "query", "reason": str(e)}]) from e
    return CypherResponse(columns=list(result.columns), rows=list(result.rows), truncated=bool(result.truncated))


@lookup(traces.get, "/v1/traces/context/{context_id}", "context trace {context_id!r}")
def context_trace(context_id: IdParam, scope: ScopeDep, brain: BrainDep) -> Any:
    """The trace of one compose_context: plan, evidence chosen and dropped, budget"""
    return brain.get_context_trace(context_id, namespace=scope.namespace)


@lookup(traces.get, "/v1/traces/commit/{commit_id}", "commit trace {commit_id!r}")
def commit_trace(commit_id: IdParam, scope: ScopeDep, brain: BrainDep) -> Any:
    """The trace of one commit_turn: retention, conflicts, memory written"""
    return brain.get_commit_trace(commit_id, namespace=scope.namespace)
