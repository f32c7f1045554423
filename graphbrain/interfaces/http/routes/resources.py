"""/v1/ingest: raw text, a URL (public addresses only, unless admin) or a server-side path (admin)."""

from __future__ import annotations

import ipaddress
import socket
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter
from pydantic import Field, model_validator

from graphbrain.contracts import MAX_MESSAGE_CHARS
from graphbrain.errors import InputError
from graphbrain.interfaces.http.auth import require_admin
from graphbrain.interfaces.http.deps import BrainDep, ScopeDep, SettingsDep
from graphbrain.interfaces.http.errors import ERRORS, ApiError
from graphbrain.interfaces.http.settings import StrictModel
from graphbrain.resources.results import IngestResult

router = APIRouter(tags=["resources"], responses=ERRORS)


class IngestRequest(StrictModel):
    """Exactly one of ``text``, ``url`` and ``path`` (``path``: admin tokens only, a file on the server)."""

    text: str | None = Field(None, min_length=1, max_length=MAX_MESSAGE_CHARS * 5)
    url: str | None = Field(None, min_length=1, max_length=4096, pattern=r"^https?://")
    path: str | None = Field(None, min_length=1, max_length=4096)
    title: str | None = Field(None, max_length=1024)
    source_uri: str | None = Field(None, max_length=4096)
    format: Literal["markdown", "text", "html"] | None = None
    tags: list[Annotated[str, Field(max_length=256)]] = Field(default_factory=list, max_length=64)
    topics: list[Annotated[str, Field(max_length=256)]] = Field(default_factory=list, max_length=64)
    language: str | None = Field(None, max_length=16)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_source(self) -> IngestRequest:
        given = [name for name in ("text", "url", "path") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of text, url and path")
        if self.format is not None and self.text is None:
            raise ValueError("format applies to text only")
        return self


@router.post(
    "/v1/ingest",
    response_model=IngestResult,
    summary="Add raw text, a URL or (admin) a server-side path to the resource library",
)
def ingest(body: IngestRequest, scope: ScopeDep, brain: BrainDep, settings: SettingsDep) -> Any:
    options: dict[str, Any] = {
        "namespace": scope.namespace,
        "title": body.title,
        "tags": body.tags,
        "topics": body.topics,
        "language": body.language,
        "metadata": body.metadata or None,
    }
    if body.text is not None:
        source: Any = {"text": body.text, "title": body.title, "format": body.format or "markdown"}
        options["source_type"] = "manual"
        options["source_uri"] = body.source_uri
    elif body.url is not None:
        if not scope.principal.admin and not settings.allow_private_urls:
            check_public_url(body.url)
        source = body.url
    else:
        require_admin(scope, "ingesting a server-side path")
        source = body.path
    try:
        return brain.ingest(source, **options)
    except InputError as e:
        # The Ingestor calls what it was given "source"; this body calls it text, url or path.
        given = "text" if body.text is not None else ("url" if body.url is not None else "path")
        e.errors = [{**f, "field": given} if f.get("field") == "source" else f for f in e.errors]
        raise


def check_public_url(url: str) -> None:
    """Refuse URLs whose host resolves to a loopback, private, link-local or reserved address."""
    try:
        host = urlsplit(url).hostname
    except ValueError as e:  # "http://[::1": an unbalanced IPv6 bracket
        raise ApiError(422, "validation_error", f"url: {e}", [{"field": "url", "reason": str(e)}]) from None
    if not host:
        raise ApiError(422, "validation_error", "url: no host", [{"field": "url", "reason": "no host"}])
    try:
        infos = socket.getaddrinfo(host, None)
    except UnicodeError as e:  # the IDNA codec refuses the host (a label over 63, a bidi control...)
        reason = f"not a valid host name ({e})"
        raise ApiError(422, "validation_error", f"url: {reason}", [{"field": "url", "reason": reason}]) from None
    except OSError:
        return  # unresolvable: the fetch fails with its own clear error
    for info in infos:
        addr = ipaddress.ip_address(info[4][0])
        if not addr.is_global:
            raise ApiError(
                403,
                "forbidden",
                f"url: {host} is a non-public address; only admin tokens may ingest from it",
                [{"field": "url", "reason": "non-public address"}],
            )
