"""The graph page in a real headless Chromium (Debian's ``chromium``): it renders an entity's neighbourhood
and a ContextPackage from the live API.

No browser driver is needed: Chromium's own ``--dump-dom`` shows what the page's script built, and
``--screenshot`` is decoded (stdlib zlib) to check the graph canvas is really drawn. The screenshot is
kept at ``$GRAPHBRAIN_UI_SCREENSHOT`` when that is set (else in the test's tmp dir) and its path printed.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from iface_support import decode_png, seed, turn

from graphbrain import Brain
from graphbrain.interfaces.http import ServerSettings, create_app

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="needs Debian's chromium (apt-get install -y chromium)"
)


def _chromium(url: str, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--window-size=1200,800",
            "--virtual-time-budget=8000",
            *extra,
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_graph_page_renders_entity_and_context(brain: Brain, live_server: Callable[[Any], str], tmp_path: Path) -> None:
    seed(brain, brain.namespace)
    for i, text in enumerate(
        ["Neo4j runs in Docker next to FastAPI.", "Docker and Neo4j need the bolt port open; FastAPI talks to Neo4j."]
    ):
        brain.commit_turn("s2", turn(f"d{i}", text))
    brain.ingest({"text": "# Ops\n\nNeo4j backups run nightly. Docker restarts Neo4j.", "title": "ops"})
    package = brain.compose_context("s1", "What did we decide about Neo4j?")
    # Auth may be off on loopback when configured; the page then needs no token.
    base = live_server(create_app(brain, ServerSettings(auth=False), environ={}))
    url = f"{base}/ui#entity=Neo4j&context={package.context_id}&ns={brain.namespace}"

    dom = _chromium(url, tmp_path / "profile-dom", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    html = dom.stdout
    assert "<canvas" in html, "cytoscape drew no canvas"
    assert "not_found" not in html and "cytoscape failed" not in html, html[:3000]
    # The entity summary line: Neo4j's related entities are Docker and the memory store (a component).
    assert "2 related, " in html and "1 documents" in html
    assert f"Context {package.context_id}" in html and "Evidence (" in html and "Token budget" in html

    png = Path(os.environ.get("GRAPHBRAIN_UI_SCREENSHOT") or tmp_path / "ui.png")
    png.parent.mkdir(parents=True, exist_ok=True)
    shot = _chromium(url, tmp_path / "profile-shot", f"--screenshot={png}")
    assert shot.returncode == 0 and png.is_file(), shot.stderr[-2000:]
    print(f"\ngraph page screenshot: {png}")
    image = decode_png(png.read_bytes())
    assert (image.width, image.height) == (1200, 800)
    # Not blank: the page has many colours, and the graph box holds the node colours (entity, related,
    # decision, turn, document), which only cytoscape's drawing puts there.
    assert len(image.colours(0, 0, image.width, image.height)) > 50
    graph = image.colours(30, 150, 680, 700)
    node_colours = {bytes.fromhex(c) for c in ("2f6fed", "7c4dff", "10b981", "64748b", "ef4444")}
    assert len(node_colours & graph) >= 3, "the graph lacks its coloured nodes"
