"""/docs and /ui in a real headless Chromium (Debian's), driven by Playwright, against a live server.

The browser may reach only the server on 127.0.0.1: every other request is refused and recorded, so a
page that needs a CDN shows blank and fails here. Each page is screenshotted and the picture decoded
and checked for what must be drawn (kept at $GRAPHBRAIN_UI_SCREENSHOT_DIR when set).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from iface_support import TOKEN_A, Png, decode_png, seed, tenant_settings, turn

from graphbrain import Brain
from graphbrain.interfaces.http import create_app

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="needs Debian's chromium (apt-get install -y chromium)"
)
# The flags that work on these machines (no sandbox as root; no background calls to the network).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
EXPLAINED = bytes.fromhex("f97316")
SWAGGER_POST = bytes.fromhex("49cc90")


@pytest.fixture()
def page(tmp_path: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = browser.new_context(viewport={"width": 1200, "height": 800})
        outside: list[str] = []

        def only_loopback(route: Any) -> None:
            if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost"):
                route.continue_()
            else:
                outside.append(route.request.url)
                route.abort()

        context.route("**/*", only_loopback)
        pg = context.new_page()
        pg.outside = outside  # type: ignore[attr-defined]
        yield pg
        browser.close()


def _shot(page: Any, tmp_path: Path, name: str) -> Png:
    where = Path(os.environ.get("GRAPHBRAIN_UI_SCREENSHOT_DIR") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"\nscreenshot: {path}")
    return decode_png(path.read_bytes())


def test_docs_page_renders_offline(brain: Brain, live_server: Callable[[Any], str], page: Any, tmp_path: Path) -> None:
    base = live_server(create_app(brain, tenant_settings(brain.namespace, "other"), environ={}))
    page.goto(f"{base}/docs")
    page.wait_for_selector(".opblock-summary-path", timeout=30_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/v1/commit_turn" in paths and "/v1/compose_context" in paths
    assert page.locator(".title").first.inner_text().startswith("graphbrain")
    assert page.outside == [], f"the docs page asked for outside resources: {page.outside}"
    image = _shot(page, tmp_path, "docs")
    assert len(image.colours(0, 0, image.width, image.height)) > 50
    assert SWAGGER_POST in image.colours(0, 0, image.width, image.height), "no POST operation drawn"


def _node(page: Any, selector: str) -> dict[str, Any]:
    """A node's data and its position on the page (for a real mouse)."""
    found = page.evaluate(
        """(sel) => {
            const cy = window.graphbrainGraph; const n = cy.nodes(sel)[0];
            if (!n) return null;
            const box = document.getElementById('graph').getBoundingClientRect();
            const p = n.renderedPosition();
            return {id: n.id(), kind: n.data('kind'), label: n.data('label'), x: box.left + p.x, y: box.top + p.y};
        }""",
        selector,
    )
    assert found is not None, f"no node {selector}"
    return dict(found)


def _count(page: Any, what: str) -> int:
    return int(page.evaluate(f"() => window.graphbrainGraph.{what}().length"))


def test_graph_page_token_expand_hover_and_explained_paths(
    brain: Brain, live_server: Callable[[Any], str], page: Any, tmp_path: Path
) -> None:
    ns = brain.namespace
    seed(brain, ns)
    # Neo4j — Docker (one hop); the s3 turns name Docker but never Neo4j (two hops from Neo4j).
    brain.commit_turn("s2", turn("d0", "Neo4j runs in Docker next to FastAPI. Neo4j 在 Docker 里运行。"))
    brain.commit_turn("s2", turn("d1", "Docker and Neo4j need the bolt port open; FastAPI talks to Neo4j."))
    brain.commit_turn("s3", turn("k0", "Docker images are deployed on Kubernetes. Kubernetes 调度 Docker 容器。"))
    brain.commit_turn("s3", turn("k1", "Kubernetes restarts Docker containers that fail."))
    package = brain.compose_context("s2", "How is Neo4j related to Docker? Neo4j 和 Docker 有什么关系？")
    paths = [e.provenance.path for e in package.evidence if e.provenance.path]
    assert paths, "the setup needs a context with relational evidence"

    # Auth on: the token comes in the fragment, as a headless caller passes it.
    base = live_server(create_app(brain, tenant_settings(ns, "other"), environ={}))
    page.goto(f"{base}/ui#token={TOKEN_A}&entity=Neo4j&ns={ns}")
    page.wait_for_function("() => window.graphbrainGraph && window.graphbrainGraph.nodes().length > 1")
    assert "401" not in page.inner_text("#status") and "unauthorized" not in page.inner_text("#status")
    assert TOKEN_A not in page.url, "the token must leave the address bar"
    assert page.evaluate("() => sessionStorage.getItem('graphbrain.token')") == TOKEN_A

    # Click a neighbour: its own neighbours join the graph (the s3 turns are two hops from Neo4j).
    two_hops = "() => window.graphbrainGraph.nodes().some(n => String(n.data('label')).startsWith('s3 #'))"
    before = _count(page, "nodes")
    assert not page.evaluate(two_hops)
    docker = _node(page, "node[label = 'Docker']")
    page.mouse.click(docker["x"], docker["y"])
    page.wait_for_function(two_hops)
    assert _count(page, "nodes") > before
    assert page.evaluate("() => window.graphbrainGraph.$('node.expanded').length") == 2
    assert _node(page, "node[label = 'Docker']")["kind"] == "related"

    # Hover a turn: its text shows.
    turn_node = _node(page, "node[kind = 'turn']")
    page.mouse.move(turn_node["x"], turn_node["y"])
    page.wait_for_selector("#hover:not([hidden])")
    hover_text = page.inner_text("#hover")
    assert "Neo4j" in hover_text or "Docker" in hover_text, hover_text

    # A context with relational evidence: its paths are listed and drawn highlighted.
    page.mouse.move(5, 5)
    page.fill("#context-id", package.context_id)
    page.click("#trace-form button")
    page.wait_for_selector("ul.paths li")
    listed = page.locator("ul.paths li").all_inner_texts()
    assert any(" → MENTIONS → " in item or "RELATED_TO" in item for item in listed), listed
    assert page.evaluate("() => window.graphbrainGraph.$('edge.explained').length") >= 1
    image = _shot(page, tmp_path, "graph")
    graph_box = page.evaluate(
        "() => { const b = document.getElementById('graph').getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom].map(Math.round); }"
    )
    x0, y0, x1, y1 = graph_box
    colours = image.colours(x0, y0, x1, y1)
    assert EXPLAINED in colours, "no highlighted path drawn in the graph"
    node_colours = {bytes.fromhex(c) for c in ("2f6fed", "7c4dff", "64748b")}
    assert len(node_colours & colours) >= 2, "the graph lacks its coloured nodes"
    assert page.outside == [], page.outside
    assert json.loads(page.evaluate("() => JSON.stringify(sessionStorage.getItem('graphbrain.namespace'))")) == ns
