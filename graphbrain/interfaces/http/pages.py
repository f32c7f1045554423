"""The pages the service serves besides its API: Swagger UI at /docs and the graph browser at /ui."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["STATIC_DIR", "add_docs", "add_ui"]

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
# The page loads only its own files: a token typed into it can go nowhere but this API.
UI_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


def add_docs(app: FastAPI) -> None:
    """Swagger UI at /docs from the swagger-ui-bundle-v2 package's files: it works offline."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from swagger_ui_bundle import swagger_ui_path

    @app.get("/docs", include_in_schema=False)
    def docs() -> Any:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title="graphbrain · API",
            swagger_js_url="/docs/static/swagger-ui-bundle.js",
            swagger_css_url="/docs/static/swagger-ui.css",
            swagger_favicon_url="/docs/static/favicon-32x32.png",
            swagger_ui_parameters={"persistAuthorization": False},
        )

    app.mount("/docs/static", StaticFiles(directory=str(swagger_ui_path)), name="docs-static")


def add_ui(app: FastAPI) -> None:
    headers = {"Content-Security-Policy": UI_CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}

    @app.get("/ui", include_in_schema=False)
    def ui() -> FileResponse:
        return FileResponse(STATIC_DIR / "ui.html", media_type="text/html", headers=headers)

    app.mount("/ui/static", StaticFiles(directory=STATIC_DIR), name="ui-static")
