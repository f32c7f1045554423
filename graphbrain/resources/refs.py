"""Ref URIs: one normal form so the same file or URL is one Ref node."""

from __future__ import annotations

from pathlib import PurePosixPath

from graphbrain.nlp.canonical import normalize_url


def normalise_url(uri: str) -> str:
    """``graphbrain.nlp.normalize_url``: a Ref, the Document fetched for it and the URL Entity named by it
    share one spelling (and so one key)."""
    return normalize_url(uri)


def normalise_ref_uri(kind: str, uri: str) -> str:
    uri = uri.strip()
    if kind == "url" or uri.startswith(("http://", "https://")):
        return normalise_url(uri)
    if kind == "file":
        if uri.startswith("file://"):
            return uri
        path = str(PurePosixPath(uri))
        # Absolute paths become file:// URIs; a relative path stays as given (it has no host part).
        return "file://" + path if path.startswith("/") else path
    return uri
