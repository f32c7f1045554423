"""The product: /v1/commit_turn, /v1/compose_context and /v1/retrieve (also at /retrieve, for SmartRAG)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import AwareDatetime, Field

from graphbrain.contracts import (
    ID_PATTERN,
    MAX_ID_CHARS,
    MAX_MESSAGE_CHARS,
    CommitResult,
    ContextPackage,
    EvidencePack,
    RetrievalPlan,
    TurnEvents,
)
from graphbrain.interfaces.http.auth import same_namespace
from graphbrain.interfaces.http.deps import BrainDep, ScopeDep
from graphbrain.interfaces.http.errors import ERRORS
from graphbrain.interfaces.http.settings import StrictModel

turns = APIRouter(tags=["turns"], responses=ERRORS)
retrieval = APIRouter(tags=["retrieval"], responses=ERRORS)

SessionId = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN)]


class CommitTurnRequest(StrictModel):
    session_id: SessionId
    turn_events: TurnEvents


class ComposeContextRequest(StrictModel):
    session_id: SessionId
    user_message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    agent_state: dict[str, Any] | None = None
    now: AwareDatetime | None = Field(
        None,
        description="The moment the question is asked (ISO 8601 with a zone; default: the server's clock): "
        "what 'last week' means and which turns are recent, to replay a history as of its own dates.",
    )


@turns.post("/v1/commit_turn", response_model=CommitResult, summary="Record a turn and distil it into typed memory")
def commit_turn(body: CommitTurnRequest, scope: ScopeDep, brain: BrainDep) -> CommitResult:
    same_namespace(body.turn_events.namespace, scope, "turn_events.namespace")
    events = body.turn_events.model_copy(update={"namespace": scope.namespace})
    return brain.commit_turn(body.session_id, events)


@turns.post(
    "/v1/compose_context", response_model=ContextPackage, summary="Compose the ContextPackage for the next model call"
)
def compose_context(body: ComposeContextRequest, scope: ScopeDep, brain: BrainDep) -> ContextPackage:
    return brain.compose_context(
        body.session_id, body.user_message, body.agent_state, namespace=scope.namespace, now=body.now
    )


@retrieval.post(
    "/v1/retrieve",
    response_model=EvidencePack,
    summary="Execute a RetrievalPlan (SmartRAG-compatible): RetrievalPlan in, EvidencePack out",
)
def retrieve(plan: RetrievalPlan, scope: ScopeDep, brain: BrainDep) -> EvidencePack:
    same_namespace(plan.namespace, scope, "namespace")
    return brain.retrieve(plan, namespace=scope.namespace)


# The same endpoint at the path SmartRAG clients call; its own operation id keeps the schema's ids unique.
retrieval.add_api_route(
    "/retrieve",
    retrieve,
    methods=["POST"],
    name="retrieve_alias",
    response_model=EvidencePack,
    summary="Alias of /v1/retrieve at the path SmartRAG clients call",
    operation_id="retrieve_smartrag_alias",
)
