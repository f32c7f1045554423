"""What every route is given: the Brain (made on first use), the caller's Scope, the settings, the 404 rule."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from fastapi import Path as PathParam
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel

from graphbrain.brain import Brain
from graphbrain.contracts import MAX_ID_CHARS
from graphbrain.interfaces.http.auth import NAMESPACE_HEADER, Scope, TokenRegistry, resolve_scope
from graphbrain.interfaces.http.errors import NOT_FOUND, ApiError
from graphbrain.interfaces.http.settings import ServerSettings
from graphbrain.interfaces.serving import BrainSource, LazyBrain

__all__ = [
    "BrainDep",
    "BrainSource",
    "IdParam",
    "LazyBrain",
    "ScopeDep",
    "SettingsDep",
    "State",
    "lookup",
]


@dataclass
class State:
    """What create_app keeps on ``app.state.graphbrain`` for the routes."""

    settings: ServerSettings
    tokens: TokenRegistry
    brains: LazyBrain


def _state(request: Request) -> State:
    state: State = request.app.state.graphbrain
    return state


def get_brain(request: Request) -> Brain:
    return _state(request).brains.get()


def get_settings(request: Request) -> ServerSettings:
    return _state(request).settings


_bearer = HTTPBearer(auto_error=False, description="A graphbrain token (server.tokens / $GRAPHBRAIN_TOKENS).")


def get_scope(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    namespace: Annotated[
        str | None,
        Header(
            alias=NAMESPACE_HEADER,
            description="The namespace to act in; default: the token's first.",
            max_length=128,
        ),
    ] = None,
) -> Scope:
    state = _state(request)
    token = credentials.credentials if credentials is not None else None
    return resolve_scope(state.settings, state.tokens, token, namespace, lambda: get_brain(request).namespace)


BrainDep = Annotated[Brain, Depends(get_brain)]
ScopeDep = Annotated[Scope, Depends(get_scope)]
SettingsDep = Annotated[ServerSettings, Depends(get_settings)]
# An id in the path (a memory item, a session, a trace).
IdParam = Annotated[str, PathParam(max_length=MAX_ID_CHARS)]


def absent(value: Any) -> bool:
    """Brain lookups answer None (or an empty mapping) for what is not in the namespace."""
    return value is None or (isinstance(value, Mapping) and not value)


def not_found_flag(result: Any) -> bool:
    """Brain.forget reports found=False for what is not there."""
    return not result.get("found", True)


Endpoint = Callable[..., Any]


def lookup(
    route: Callable[..., Callable[[Endpoint], Endpoint]], path: str, what: str, missing: Callable[[Any], bool] = absent
) -> Callable[[Endpoint], Endpoint]:
    """Register an endpoint that answers one thing, or a 404 naming ``what`` when the Brain finds nothing.

    ``route`` is a router's ``get`` or ``delete``; ``what`` is formatted with the endpoint's arguments
    (``"entity {name!r}"``); ``missing`` says what counts as nothing. The endpoint's docstring is the
    route's summary (not its description). FastAPI reads the parameters through ``__wrapped__``, so the
    endpoint keeps its own signature; a model it returns is sent as JSON.
    """

    def register(endpoint: Endpoint) -> Endpoint:
        @functools.wraps(endpoint)
        def answer(**params: Any) -> Any:
            value = endpoint(**params)
            if missing(value):
                raise ApiError(404, "not_found", f"{what.format(**params)} not found in this namespace")
            if isinstance(value, BaseModel):
                return value.model_dump(mode="json")
            return value

        answer.__doc__ = None
        summary = (endpoint.__doc__ or "").strip()
        return route(path, response_model=dict[str, Any], responses=NOT_FOUND, summary=summary)(answer)

    return register
