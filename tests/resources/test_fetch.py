"""The URL fetcher against a local HTTP server that the test starts on 127.0.0.1 (no other network)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from graphbrain.errors import InputError
from graphbrain.resources import fetch_url, parse_bytes

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "docs"
HTML = (SEEDS / "release-notes.html").read_bytes()


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass  # keep the test output clean

    def _send(self, body: bytes, content_type: str, *, length: bool = True, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path
        if path == "/release-notes.html":
            self._send(HTML, "text/html; charset=utf-8")
        elif path == "/notes.md":
            self._send(b"# Notes\n\nHello from markdown.", "text/markdown")
        elif path == "/guide.pdf":
            self._send((SEEDS / "api-guide.pdf").read_bytes(), "application/pdf")
        elif path == "/big-declared":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(10_000_000))
            self.end_headers()  # and no body: the client must refuse before reading
        elif path == "/big-streamed":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()  # no Content-Length: the cap must be enforced while reading
            try:
                for _ in range(64):  # 64 x 64 KiB = 4 MiB at most, then the server stops by itself
                    self.wfile.write(b"x" * 65536)
            except OSError:
                pass  # the client hung up, as it should
            self.close_connection = True
        elif path == "/image.png":
            self._send(b"\x89PNG\r\n\x1a\n", "image/png")
        elif path == "/no-type":
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"hi")
        elif path == "/slow-headers":
            time.sleep(1.5)
            self._send(b"late", "text/plain")
        elif path == "/drip":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            try:
                for _ in range(15):  # 15 bytes over ~3 s: each read is fast, the whole is too slow
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/release-notes.html")
            self.end_headers()
        elif path in ("/redirect-file", "/redirect-ftp"):
            self.send_response(302)
            target = "file:///etc/passwd" if path.endswith("file") else "ftp://127.0.0.1/x"
            self.send_header("Location", target)
            self.end_headers()
        else:
            self._send(b"not found", "text/plain", status=404)


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a handler still sleeping must not hold up shutdown

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # broken pipes from clients that gave up on purpose


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    server = _Server(("127.0.0.1", 0), _Handler)  # port 0: a free port chosen by the OS
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_html_page_is_fetched_and_parses(base_url: str) -> None:
    data, content_type, final_url = fetch_url(f"{base_url}/release-notes.html")
    assert data == HTML
    assert content_type == "text/html; charset=utf-8"
    assert final_url == f"{base_url}/release-notes.html"
    doc = parse_bytes(data, content_type, final_url)
    assert doc.source_type == "url" and doc.source_uri == final_url
    assert [s.title for s in doc.sections[1:]] == ["New features", "Changes", "Fixes", "Upgrading"]


def test_markdown_and_pdf_are_allowed(base_url: str) -> None:
    md = fetch_url(f"{base_url}/notes.md")
    assert parse_bytes(md.data, md.content_type, md.final_url).title == "Notes"
    pdf = fetch_url(f"{base_url}/guide.pdf")
    assert pdf.content_type == "application/pdf"
    assert [s.page for s in parse_bytes(*pdf).sections] == [1, 2, 3]


def test_redirects_are_followed_and_reported(base_url: str) -> None:
    result = fetch_url(f"{base_url}/redirect")
    assert result.final_url == f"{base_url}/release-notes.html"
    assert result.data == HTML


@pytest.mark.parametrize("path", ["/redirect-file", "/redirect-ftp"])
def test_redirect_to_another_scheme_is_refused(base_url: str, path: str) -> None:
    with pytest.raises(InputError, match="(?i)redirect"):
        fetch_url(f"{base_url}{path}")


def test_oversize_declared_is_refused_before_reading(base_url: str) -> None:
    with pytest.raises(InputError, match="over the 5242880-byte limit") as info:
        fetch_url(f"{base_url}/big-declared")
    assert info.value.errors[0]["field"] == "url"


def test_oversize_streamed_is_abandoned(base_url: str) -> None:
    started = time.monotonic()
    with pytest.raises(InputError, match="over the 100000-byte limit"):
        fetch_url(f"{base_url}/big-streamed", max_bytes=100_000)
    assert time.monotonic() - started < 5


def test_bad_content_type_is_refused(base_url: str) -> None:
    with pytest.raises(InputError, match="content type 'image/png' is not one of"):
        fetch_url(f"{base_url}/image.png")
    with pytest.raises(InputError, match="no Content-Type"):
        fetch_url(f"{base_url}/no-type")


def test_timeout_waiting_for_the_response(base_url: str) -> None:
    started = time.monotonic()
    with pytest.raises(InputError, match="timed out after 0.5 s"):
        fetch_url(f"{base_url}/slow-headers", timeout=0.5)
    assert time.monotonic() - started < 1.4


def test_timeout_bounds_the_whole_transfer(base_url: str) -> None:
    started = time.monotonic()
    with pytest.raises(InputError, match="timed out after 1 s"):
        fetch_url(f"{base_url}/drip", timeout=1.0)
    assert time.monotonic() - started < 2.5


def test_http_errors(base_url: str) -> None:
    with pytest.raises(InputError, match="HTTP 404"):
        fetch_url(f"{base_url}/missing")


def test_connection_refused() -> None:
    # A port that was free a moment ago: nothing listens there.
    probe = _Server(("127.0.0.1", 0), _Handler)
    port = probe.server_address[1]
    probe.server_close()
    with pytest.raises(InputError, match="cannot connect"):
        fetch_url(f"http://127.0.0.1:{port}/", timeout=2)


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "ftp://127.0.0.1/x", "/relative/path", "javascript:alert(1)", "http:///nohost"],
)
def test_only_http_and_https_with_a_host(url: str) -> None:
    with pytest.raises(InputError):
        fetch_url(url)
