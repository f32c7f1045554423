"""A RetrievalPlan executor that asks a remote SmartRAG-compatible HTTP endpoint instead of this graph.

    pack = RemoteExecutor("http://rag.internal:8080/retrieve", timeout_s=5).retrieve(plan)

The plan goes out as JSON in a ``POST`` (``Authorization: Bearer <token>`` when a token is set); the
answer must be an EvidencePack as JSON (or an object holding one under ``evidence_pack``). The remote
side may fail in any way (refused connection, timeout, HTTP error, redirect, a body that is not JSON or
not a pack, a body over the size cap): every failure becomes a pack with no evidence and the reason in
``warnings``, so compose_context degrades to memory-only instead of crashing. A pack that is mostly
valid keeps its valid evidence; invalid items and unknown fields are dropped, each noted in ``warnings``.

Only an invalid *plan* (the caller's bug, not the remote's) raises PlanError, as the local executor does.
Standard library only (``urllib``).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError

from graphbrain.contracts import Evidence, EvidencePack, PackExplain, PackStats, RetrievalPlan
from graphbrain.redirects import NoRedirects

__all__ = ["DEFAULT_MAX_RESPONSE_BYTES", "RemoteExecutor"]

DEFAULT_MAX_RESPONSE_BYTES = 20 * 1024 * 1024
USER_AGENT = "graphbrain-remote-executor/0.1"
_READ_SIZE = 64 * 1024
_MAX_ITEM_WARNINGS = 5  # say which items were dropped, up to this many; then just how many


class _RemoteFailure(Exception):
    """Internal: the reason the remote pack could not be had."""


class RemoteExecutor:
    def __init__(
        self,
        url: str,
        timeout_s: float = 10,
        token: str | None = None,
        *,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise ValueError(f"remote executor url must be an http(s) URL with a host, not {url!r}")
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self.url = url
        self.timeout_s = float(timeout_s)
        self.token = token
        self.max_response_bytes = max_response_bytes
        self._opener = urllib.request.build_opener(NoRedirects())

    @classmethod
    def from_settings(cls, url: str, timeout_s: float = 10, token_env: str | None = None) -> RemoteExecutor:
        """From config values: the token is read from the environment variable ``token_env`` (if set),
        so it never sits in brain.yml."""
        token = os.environ.get(token_env) if token_env else None
        return cls(url, timeout_s=timeout_s, token=token or None)

    def __repr__(self) -> str:
        token = "set" if self.token else None  # never the token itself
        return f"RemoteExecutor(url={self.url!r}, timeout_s={self.timeout_s:g}, token={token})"

    # ------------------------------------------------------------------ public
    def retrieve(self, plan: RetrievalPlan | dict[str, Any] | str, *, namespace: str | None = None) -> EvidencePack:
        """The remote's EvidencePack for ``plan``; on any remote failure an empty pack with a warning."""
        parsed = RetrievalPlan.parse(plan)
        if namespace:
            parsed = parsed.model_copy(update={"namespace": namespace})
        body = parsed.model_dump(mode="json", by_alias=True, exclude_none=True)
        t0 = time.perf_counter()
        try:
            data = self._post(body)
            pack, notes = self._pack_from(data, body, parsed)
        except _RemoteFailure as e:
            return self._failed(body, parsed, str(e), t0)
        pack.warnings.extend(notes)
        if not pack.stats.took_ms:
            pack.stats.took_ms = round((time.perf_counter() - t0) * 1000, 2)
        return pack

    # ------------------------------------------------------------------ transport
    def _post(self, body: dict[str, Any]) -> Any:
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        }
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url, data=payload, headers=headers, method="POST")
        deadline = time.monotonic() + self.timeout_s
        try:
            with self._opener.open(request, timeout=self.timeout_s) as resp:
                raw = self._read(resp, deadline)
                charset = resp.headers.get_content_charset() or "utf-8"
        except _RemoteFailure:
            raise
        except urllib.error.HTTPError as e:
            detail = _snippet(e)
            raise _RemoteFailure(f"HTTP {e.code} {e.reason}{detail}") from e
        except urllib.error.URLError as e:
            if isinstance(e.reason, (TimeoutError, socket.timeout)):
                raise _RemoteFailure(f"timed out after {self.timeout_s:g} s") from e
            raise _RemoteFailure(f"cannot connect ({e.reason})") from e
        except TimeoutError as e:
            raise _RemoteFailure(f"timed out after {self.timeout_s:g} s") from e
        except (OSError, ValueError, http.client.HTTPException) as e:  # resets, bad status lines, short reads
            raise _RemoteFailure(f"the request failed ({type(e).__name__}: {e})") from e
        try:
            return json.loads(raw.decode(charset, errors="strict"))
        except (UnicodeDecodeError, LookupError, ValueError) as e:
            preview = raw[:80].decode("utf-8", errors="replace")
            raise _RemoteFailure(f"the response is not JSON ({e}; starts with {preview!r})") from e

    def _read(self, resp: Any, deadline: float) -> bytes:
        length = resp.headers.get("Content-Length")
        if length and length.isdigit() and int(length) > self.max_response_bytes:
            raise _RemoteFailure(f"the response is {length} bytes, over the {self.max_response_bytes}-byte cap")
        pieces: list[bytes] = []
        total = 0
        while True:
            # The socket timeout bounds each read; the deadline bounds a server that trickles bytes.
            if time.monotonic() > deadline:
                raise _RemoteFailure(f"timed out after {self.timeout_s:g} s (response too slow)")
            piece = resp.read1(_READ_SIZE)
            if not piece:
                return b"".join(pieces)
            total += len(piece)
            if total > self.max_response_bytes:
                raise _RemoteFailure(f"the response is over the {self.max_response_bytes}-byte cap")
            pieces.append(piece)

    # ------------------------------------------------------------------ the pack
    def _pack_from(self, data: Any, body: dict[str, Any], plan: RetrievalPlan) -> tuple[EvidencePack, list[str]]:
        if isinstance(data, dict) and isinstance(data.get("evidence_pack"), dict):
            data = data["evidence_pack"]
        if not isinstance(data, dict):
            raise _RemoteFailure(f"the response is JSON but not an EvidencePack object ({type(data).__name__})")
        notes: list[str] = []
        try:
            return EvidencePack.model_validate(data), notes
        except ValidationError:
            pass  # salvage below: keep what is valid, say what was dropped
        known = set(EvidencePack.model_fields)
        unknown = sorted(set(data) - known)
        if unknown:
            notes.append(f"remote executor {self.url}: ignored unknown pack fields {', '.join(unknown)}")
        items = data.get("evidences")
        if items is not None and not isinstance(items, list):
            raise _RemoteFailure("the response's 'evidences' is not a list")
        evidences: list[Evidence] = []
        dropped: list[str] = []
        for i, item in enumerate(items or []):
            try:
                evidences.append(Evidence.model_validate(item))
            except ValidationError as e:
                first = e.errors()[0]
                where = ".".join(str(p) for p in first.get("loc", ()))
                dropped.append(f"evidences[{i}] ({where}: {first.get('msg')})")
        if dropped:
            shown = ", ".join(dropped[:_MAX_ITEM_WARNINGS])
            more = f" and {len(dropped) - _MAX_ITEM_WARNINGS} more" if len(dropped) > _MAX_ITEM_WARNINGS else ""
            notes.append(f"remote executor {self.url}: dropped {len(dropped)} invalid evidence item(s): {shown}{more}")
        fields: dict[str, Any] = {
            "plan": data.get("plan") if isinstance(data.get("plan"), dict) else body,
            "plan_id": str(data.get("plan_id") or _plan_id(body)),
            "request_id": data.get("request_id") if isinstance(data.get("request_id"), str) else plan.request_id,
            "generated_at": data.get("generated_at") or datetime.now(UTC),
            "evidences": evidences,
        }
        for name, model in (("stats", PackStats), ("explain", PackExplain)):
            try:
                fields[name] = model.model_validate(data.get(name) or {})
            except ValidationError:
                notes.append(f"remote executor {self.url}: ignored an invalid '{name}'")
        if isinstance(data.get("version"), str):
            fields["version"] = data["version"]
        remote_warnings = data.get("warnings")
        if isinstance(remote_warnings, list):
            fields["warnings"] = [str(w) for w in remote_warnings]
        try:
            return EvidencePack.model_validate(fields), notes
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise _RemoteFailure(f"the response is not a valid EvidencePack ({where}: {first.get('msg')})") from e

    def _failed(self, body: dict[str, Any], plan: RetrievalPlan, reason: str, t0: float) -> EvidencePack:
        return EvidencePack(
            plan=body,
            plan_id=_plan_id(body),
            request_id=plan.request_id,
            generated_at=datetime.now(UTC),
            evidences=[],
            stats=PackStats(took_ms=round((time.perf_counter() - t0) * 1000, 2)),
            warnings=[f"remote executor {self.url}: {reason}; no evidence from it"],
        )


def _plan_id(body: dict[str, Any]) -> str:
    # Same plan, same id: a hash of its canonical JSON.
    blob = json.dumps(body, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return "plan_" + hashlib.sha1(blob).hexdigest()[:24]


def _snippet(e: urllib.error.HTTPError) -> str:
    try:
        text = e.read(200).decode("utf-8", errors="replace").strip()
    except Exception:  # the error body is a nicety; failing to read it changes nothing
        return ""
    return f": {text[:200]}" if text else ""
