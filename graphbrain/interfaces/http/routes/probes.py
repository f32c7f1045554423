"""/healthz and /readyz: the probes orchestrators call, without a token."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from graphbrain import __version__
from graphbrain.errors import GraphbrainError
from graphbrain.interfaces.http.deps import get_brain
from graphbrain.store import SCHEMA_VERSION

router = APIRouter(tags=["probes"])


class Health(BaseModel):
    ok: bool
    version: str


class Readiness(BaseModel):
    ready: bool
    backend: str = Field(description="The database serving this process: neo4j or embedded (FalkorDB).")
    database: bool = Field(description="The database named by backend answers.")
    schema_version: int | None
    expected_schema_version: int
    detail: str


@router.get("/healthz", response_model=Health, summary="Liveness: the process answers")
def healthz() -> Health:
    return Health(ok=True, version=__version__)


@router.get(
    "/readyz",
    response_model=Readiness,
    summary="Readiness: the database reachable and the schema current",
    responses={503: {"model": Readiness, "description": "Not ready"}},
)
def readyz(request: Request) -> JSONResponse:
    probe = _probe(request)
    return JSONResponse(probe.model_dump(), status_code=200 if probe.ready else 503)


def _probe(request: Request) -> Readiness:
    # Filled in as far as the checks get: what failed first is the detail.
    probe = Readiness(
        ready=False,
        backend="unknown",
        database=False,
        schema_version=None,
        expected_schema_version=SCHEMA_VERSION,
        detail="ok",
    )
    try:
        brain = get_brain(request)
        probe.backend = brain.store.backend
        probe.database = brain.store.ping()
        if probe.database:
            probe.schema_version = brain.store.schema_version()
            brain.check_schema()  # raises SchemaError naming what to run
        else:
            probe.detail = f"the {probe.backend} database does not answer ({brain.store.target})"
    except GraphbrainError as e:
        probe.detail = str(e)
    probe.ready = probe.database and probe.detail == "ok"
    return probe
