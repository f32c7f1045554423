"""The committed openapi.json is the app's own schema (regenerate: python scripts/gen_openapi.py)."""

from __future__ import annotations

import json
from pathlib import Path

from graphbrain import Brain
from graphbrain.interfaces.http import ServerSettings, create_app, openapi_document

ROOT = Path(__file__).resolve().parents[2]


def _no_brain() -> Brain:
    raise AssertionError("building the schema must not need a database")


def test_committed_openapi_matches_the_app() -> None:
    committed = json.loads((ROOT / "openapi.json").read_text(encoding="utf-8"))
    app = create_app(_no_brain, ServerSettings(auth=False), environ={})
    assert committed == json.loads(json.dumps(app.openapi())), "openapi.json is stale: run scripts/gen_openapi.py"
    assert (ROOT / "openapi.json").read_text(encoding="utf-8") == openapi_document()


def test_openapi_documents_the_contracts_auth_and_errors() -> None:
    spec = json.loads(openapi_document())
    schemas = spec["components"]["schemas"]
    for name in ("TurnEvents", "CommitResult", "RetrievalPlan", "EvidencePack", "ContextPackage", "ErrorResponse"):
        assert name in schemas
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    retrieve = spec["paths"]["/v1/retrieve"]["post"]
    assert retrieve["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/RetrievalPlan")
    assert retrieve["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/EvidencePack")
    for code in ("401", "403", "413", "422", "503"):
        assert code in retrieve["responses"]
    assert any(p["name"] == "X-Graphbrain-Namespace" for p in retrieve["parameters"])
