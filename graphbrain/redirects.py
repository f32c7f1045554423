"""The one urllib redirect handler: follow at most a few redirects, only to http(s), or none at all."""

from __future__ import annotations

import http.client
import urllib.request
from typing import IO
from urllib.parse import urlsplit

from graphbrain.errors import InputError

__all__ = ["HttpRedirects", "NoRedirects"]


class HttpRedirects(urllib.request.HTTPRedirectHandler):
    """Follow at most ``max_redirections`` redirects, and only to http(s): never to file:// or ftp://.

    A redirect to another scheme is an ``InputError``; with ``max_redirections = 0`` (``NoRedirects``)
    every redirect is refused and the 3xx itself becomes the ``HTTPError``.
    """

    max_redirections = 5

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        if self.max_redirections <= 0:
            return None
        if urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise InputError(f"{req.full_url}: redirected to a non-http(s) URL {newurl!r}")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class NoRedirects(HttpRedirects):
    """A redirect is a failure: re-sending a POST (and its token) to another place is not ours to decide."""

    max_redirections = 0
