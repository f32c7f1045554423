"""One small URL fetcher for the resource library: timeout, size cap, content-type check.

Standard library only (``urllib.request``), so fetching adds no dependency. Every failure (a bad scheme,
an HTTP error, a timeout, a body over the cap, a content type we cannot parse) is an ``InputError``
whose message names the URL and the reason, so ingest can report it and move on.
"""

from __future__ import annotations

import http.client
import time
import urllib.error
import urllib.request
from collections.abc import Collection
from typing import NamedTuple
from urllib.parse import urlsplit

from graphbrain.errors import InputError
from graphbrain.redirects import HttpRedirects

__all__ = ["ALLOWED_CONTENT_TYPES", "DEFAULT_MAX_BYTES", "DEFAULT_TIMEOUT", "Fetched", "fetch_url"]

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 5 * 1024 * 1024
# What parsers.parse_bytes can read.
ALLOWED_CONTENT_TYPES = frozenset(
    {
        "text/html",
        "application/xhtml+xml",
        "text/plain",
        "text/markdown",
        "text/x-markdown",
        "application/pdf",
        "application/json",
    }
)
_READ_SIZE = 64 * 1024
USER_AGENT = "graphbrain-fetch/0.1"


class Fetched(NamedTuple):
    data: bytes
    content_type: str  # the full header value, parameters included ("text/html; charset=utf-8")
    final_url: str  # after redirects


def _fail(url: str, reason: str) -> InputError:
    return InputError(f"{url}: {reason}", [{"field": "url", "reason": reason, "url": url}])


def fetch_url(
    url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    allowed_types: Collection[str] = ALLOWED_CONTENT_TYPES,
) -> Fetched:
    """GET ``url`` and return its body, Content-Type and final URL.

    ``timeout`` bounds the connection and each read, and the whole transfer too (checked between
    reads). The body is read in pieces and the transfer is abandoned as soon as it passes ``max_bytes``
    (or at once if Content-Length already says so). The content type is checked from the headers,
    before the body is read.
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as e:  # "http://[::1": an unbalanced IPv6 bracket, a bad port
        raise _fail(url, f"not a valid URL ({e})") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise _fail(url, f"only http and https URLs can be fetched, not {parts.scheme or 'a bare path'!r}")
    if not host:
        raise _fail(url, "the URL has no host")
    deadline = time.monotonic() + timeout
    opener = urllib.request.build_opener(HttpRedirects())
    request = urllib.request.Request(
        url, headers={"User-Agent": USER_AGENT, "Accept": ", ".join(sorted(allowed_types)) + ", */*;q=0.1"}
    )
    try:
        with opener.open(request, timeout=timeout) as resp:
            final_url = resp.geturl()
            content_type = resp.headers.get("Content-Type", "").strip()
            mime = content_type.split(";", 1)[0].strip().lower()
            if not mime:
                raise _fail(url, "the response has no Content-Type")
            if mime not in allowed_types:
                raise _fail(url, f"content type {mime!r} is not one of {', '.join(sorted(allowed_types))}")
            length = resp.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > max_bytes:
                raise _fail(url, f"the body is {int(length)} bytes, over the {max_bytes}-byte limit")
            data = _read_capped(resp, url, max_bytes, deadline, timeout)
    except InputError:
        raise
    except urllib.error.HTTPError as e:
        raise _fail(url, f"HTTP {e.code} {e.reason}") from e
    except urllib.error.URLError as e:
        if isinstance(e.reason, TimeoutError):
            raise _fail(url, f"timed out after {timeout:g} s") from e
        raise _fail(url, f"cannot connect ({e.reason})") from e
    except TimeoutError as e:
        raise _fail(url, f"timed out after {timeout:g} s") from e
    except (http.client.HTTPException, OSError, ValueError) as e:
        raise _fail(url, f"the transfer failed ({type(e).__name__}: {e})") from e
    return Fetched(data, content_type, final_url)


def _read_capped(resp: http.client.HTTPResponse, url: str, max_bytes: int, deadline: float, timeout: float) -> bytes:
    pieces: list[bytes] = []
    total = 0
    while True:
        if time.monotonic() > deadline:
            raise _fail(url, f"timed out after {timeout:g} s")
        # read1 returns what has arrived instead of waiting for a full buffer, so the deadline and the
        # cap are checked often even on a slow connection.
        piece = resp.read1(_READ_SIZE)
        if not piece:
            return b"".join(pieces)
        total += len(piece)
        if total > max_bytes:
            raise _fail(url, f"the body is over the {max_bytes}-byte limit (transfer abandoned)")
        pieces.append(piece)
