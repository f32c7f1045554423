"""Canonical forms: one spelling per URL (``normalize_url``) and per entity name (``canonicalize``)."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["canonicalize", "normalize_url"]

# Query parameters that only track where a click came from; they never change what a URL points to.
_TRACKING_PARAMS = ("utm_",)
_TRACKING_EXACT = frozenset({"fbclid", "gclid", "mc_cid", "mc_eid"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ftp": 21}


def normalize_url(url: str) -> str:
    """One spelling per URL, the only one in graphbrain: a Ref's uri, a fetched Document's source_uri and a
    URL Entity's canonical name are all this, so the three agree.

    Lowercase scheme and host, no default port, no credentials, no fragment, no tracking parameters
    (utm_*, fbclid, gclid), no trailing slash; "www.x.com/a" gets https://. Text that is no absolute URL
    (no scheme or host, or one that cannot be taken apart, "http://[::1") is returned stripped.
    """
    url = url.strip()
    if url.lower().startswith("www."):
        url = "https://" + url
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:  # "http://[::1", "http://x:99999": not a URL that can be taken apart
        return url
    if not parts.scheme or not host:
        return url
    scheme = parts.scheme.lower()
    netloc = f"[{host}]" if ":" in host else host  # an IPv6 address keeps its brackets
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc = f"{netloc}:{port}"
    query = urlencode(
        [
            (k, v)
            for k, v in parse_qsl(parts.query, keep_blank_values=True)
            if not k.lower().startswith(_TRACKING_PARAMS) and k.lower() not in _TRACKING_EXACT
        ]
    )
    path = parts.path.rstrip("/")
    return urlunsplit((scheme, netloc, path, query, ""))


def _canonical_path(path: str) -> str:
    p = path.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    p = re.sub(r"/{2,}", "/", p).rstrip("/")
    # Case-folded: the same file is far more often re-typed with other capitals than two files differ
    # only in case, and macOS / Windows file systems treat them as one anyway.
    return p.casefold()


def _canonical_repo(name: str) -> str:
    n = name.strip().casefold()
    n = re.sub(
        r"^(?:https?://)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|gitee\.com|codeberg\.org)/",
        "",
        n,
    )
    n = n.removesuffix(".git").strip("/")
    return "/".join(n.split("/")[:2])


_LEADING_ARTICLE_RE = re.compile(r"^(?:the|a|an)\s+")
_KEEP_INNER = ".+#_-"


def canonicalize(name: str, kind: str) -> str:
    """The one canonical form of an entity name, so one real thing gets one key.

    url: ``normalize_url``; repo: "owner/name" lowercase, host and ".git" dropped; file: forward
    slashes, no leading "./", case-folded; everything else: NFKC, case-folded, possessive "'s" and
    a leading English article dropped, punctuation removed (. + # _ - kept inside words, so "Node.js",
    "C++", "C#" survive), whitespace collapsed.
    """
    if kind == "url":
        return normalize_url(name)
    if kind == "repo":
        return _canonical_repo(name)
    if kind == "file":
        return _canonical_path(name)
    s = unicodedata.normalize("NFKC", name).casefold().strip()
    s = re.sub(r"['’]s\b", "", s)
    s = "".join(ch if (ch.isalnum() or ch.isspace() or ch in _KEEP_INNER) else " " for ch in s)
    words = [w.strip(".#_-") if not w.endswith(("++", "#")) else w.lstrip(".#_-") for w in s.split()]
    s = " ".join(w for w in words if w)
    return _LEADING_ARTICLE_RE.sub("", s)
