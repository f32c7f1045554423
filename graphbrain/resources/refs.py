"""Ref URIs: one normal form so the same file or URL is one Ref node."""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def normalise_url(uri: str) -> str:
    """Lowercase scheme and host, drop the fragment, utm_* parameters and a trailing slash."""
    try:
        parts = urlsplit(uri.strip())
    except ValueError:  # "http://[::1": not a URL that can be taken apart; kept as given
        return uri.strip()
    if not parts.scheme or not parts.netloc:
        return uri.strip()
    query = urlencode(
        [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not k.lower().startswith("utm_")]
    )
    path = parts.path.rstrip("/") if parts.path not in ("", "/") else ""
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, query, ""))


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
