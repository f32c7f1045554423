"""Refs from a committed turn into the resource library, by policy.

    outcomes = ingest_turn_refs(ingestor, rec.refs, namespace=ns,
                                policy=config.policies.retention.ingest_refs)

Every ref is already recorded as a ``Ref`` node by the commit; this decides which are also ingested:

* ``off``: none.
* ``local_files``: ``file`` refs whose path is a regular file on this machine (absolute, ``file://`` or
  relative to the working directory).
* ``all``: those files, and ``url`` refs fetched through ``resources.fetch`` (timeout, size cap,
  content-type check).

Artifacts and directories are never ingested from a ref (a directory could be a whole disk). Nothing here
raises for a ref: a missing file, a fetch failure or a parse error becomes that ref's ``reason``. Each
ingested (or already current) document is linked ``(Ref)-[:INGESTED_AS]->(Document)``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from graphbrain.errors import GraphbrainError
from graphbrain.resources.ingest import Ingestor

__all__ = ["RefPolicy", "ingest_turn_refs"]

log = logging.getLogger(__name__)

RefPolicy = Literal["off", "local_files", "all"]


def _local_path(uri: str) -> Path:
    if uri.startswith("file://"):
        return Path(unquote(urlsplit(uri).path))
    return Path(uri).expanduser()


def ingest_turn_refs(
    ingestor: Ingestor,
    refs: Sequence[Mapping[str, Any]],
    *,
    namespace: str,
    policy: RefPolicy | str,
) -> list[dict[str, Any]]:
    """One outcome per distinct ref, in order: ``{ref_id, type, uri, ingested, status, document_id,
    linked, reason}``.

    ``ingested`` is True when this call wrote the document (created or updated); an already current
    document reports ``ingested: False, reason: "unchanged"`` and is still linked to the ref.
    ``status`` is created / updated / unchanged / skipped / failed.
    """
    outcomes: list[dict[str, Any]] = []
    seen: set[str] = set()
    for ref in refs:
        kind = str(ref.get("type") or "")
        uri = str(ref.get("uri") or "").strip()
        ref_id = ref.get("id")
        dedup = str(ref_id or f"{kind}|{uri}")
        if dedup in seen:
            continue
        seen.add(dedup)
        out: dict[str, Any] = {
            "ref_id": ref_id,
            "type": kind,
            "uri": uri,
            "ingested": False,
            "status": "skipped",
            "document_id": None,
            "linked": False,
            "reason": "",
        }
        outcomes.append(out)
        reason = _skip_reason(kind, uri, policy)
        if reason:
            out["reason"] = reason
            continue
        source = str(_local_path(uri)) if kind == "file" else uri
        try:
            result = ingestor.ingest(source, namespace=namespace)
        except GraphbrainError as e:  # fetch, parse, embed or store failure: a reason, never a crash
            out.update(status="failed", reason=str(e))
            continue
        except OSError as e:
            out.update(status="failed", reason=f"{uri}: {e}")
            continue
        doc = result.documents[0] if result.documents else None
        if doc is None or doc.status == "failed":
            out.update(status="failed", reason=(doc.error if doc else None) or "not ingested")
            continue
        out.update(
            status=doc.status,
            document_id=doc.document_id,
            ingested=doc.status in ("created", "updated"),
            reason="unchanged" if doc.status == "unchanged" else "ingested",
        )

    links = [
        {"ref_id": o["ref_id"], "document_id": o["document_id"]} for o in outcomes if o["ref_id"] and o["document_id"]
    ]
    if links:
        try:
            rows = ingestor.store.run("resources/link_refs", {"links": links}, write=True)
        except GraphbrainError as e:
            log.warning("linking refs to documents failed: %s", e)
            for o in outcomes:
                if o["document_id"]:
                    o["reason"] += f" (not linked to its ref: {e})"
        else:
            linked = {(r["ref_id"], r["document_id"]) for r in rows}
            for o in outcomes:
                o["linked"] = (o["ref_id"], o["document_id"]) in linked
    return outcomes


def _skip_reason(kind: str, uri: str, policy: str) -> str:
    """Why a ref is not ingested under ``policy``, or "" when it should be."""
    if policy == "off":
        return "policy off"
    if policy not in ("local_files", "all"):
        return f"unknown policy {policy!r} (off / local_files / all)"
    if not uri:
        return "empty uri"
    if kind == "url" or uri.lower().startswith(("http://", "https://")):
        if policy != "all":
            return "not a local file (policy local_files)"
        if not uri.lower().startswith(("http://", "https://")):
            return "only http(s) URLs are fetched"
        return ""
    if kind != "file":
        return f"{kind or 'unknown'} refs are not ingested"
    try:
        path = _local_path(uri)
        if uri.startswith(("file://", "/", "~")) or not urlsplit(uri).scheme:
            if path.is_dir():
                return "a directory, not a file"
            if not path.is_file():
                return "file not found"
            return ""
    except (OSError, ValueError, RuntimeError) as e:  # a name too long, "~nobody/", a bad file:// URI
        return f"not a readable path ({type(e).__name__})"
    return "not a local file"
