"""/v1/memory and /v1/sessions: list, show and forget memory items and sessions."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi import Path as PathParam
from pydantic import BaseModel

from graphbrain.contracts import MAX_ID_CHARS, MemoryStatus, MemoryType
from graphbrain.interfaces.http.deps import BrainDep, IdParam, ScopeDep, lookup, not_found_flag
from graphbrain.interfaces.http.errors import ERRORS

router = APIRouter(tags=["memory"], responses=ERRORS)


class MemoryList(BaseModel):
    items: list[dict[str, Any]]
    count: int
    limit: int
    offset: int


@router.get("/v1/memory", response_model=MemoryList, summary="List memory items")
def list_memory(
    scope: ScopeDep,
    brain: BrainDep,
    types: Annotated[list[MemoryType] | None, Query(description="Memory types; repeat the parameter")] = None,
    status: Annotated[MemoryStatus | Literal["all"], Query()] = "active",
    key_prefix: Annotated[str | None, Query(max_length=512)] = None,
    session_id: Annotated[str | None, Query(max_length=MAX_ID_CHARS)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> MemoryList:
    items = brain.list_memory(
        types=[t.value for t in types] if types else None,
        status=status,
        key_prefix=key_prefix,
        session_id=session_id,
        limit=limit,
        offset=offset,
        namespace=scope.namespace,
    )
    return MemoryList(items=items, count=len(items), limit=limit, offset=offset)


@lookup(router.get, "/v1/memory/{item}", "memory item {item!r}")
def show_memory(
    item: Annotated[str, PathParam(max_length=512, description="An item id or a key such as decision:db")],
    scope: ScopeDep,
    brain: BrainDep,
) -> Any:
    """One memory item (by id or type key) with its history and provenance"""
    return brain.show_memory(item, namespace=scope.namespace)


@lookup(router.delete, "/v1/memory/{item_id}", "memory item {item_id!r}", missing=not_found_flag)
def forget_item(item_id: IdParam, scope: ScopeDep, brain: BrainDep) -> Any:
    """Forget one memory item: its node, edges and index entries"""
    return brain.forget(item_id=item_id, namespace=scope.namespace)


@lookup(router.delete, "/v1/sessions/{session_id}", "session {session_id!r}", missing=not_found_flag)
def forget_session(session_id: IdParam, scope: ScopeDep, brain: BrainDep) -> Any:
    """Forget a session: its turns, messages and the memory derived only from them"""
    return brain.forget(session_id=session_id, namespace=scope.namespace)
