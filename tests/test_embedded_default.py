"""A fresh Brain.from_config() with no server configured runs on the embedded backend under its data
dir — schema created on first use — and what it stored is there after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphbrain import Brain


def test_fresh_brain_is_embedded_persistent_and_needs_no_init(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.delenv("GRAPHBRAIN_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)  # no brain.yml here: the defaults
    with Brain.from_config() as brain:
        assert brain.store.backend == "embedded"
        r = brain.commit_turn("s1", {"messages": [{"role": "user", "content": "我们决定用 FalkorDB。TODO: test it."}]})
        assert r.status == "committed" and r.memory_written
    assert (tmp_path / ".graphbrain" / "falkordb").is_dir()
    with Brain.from_config() as again:  # a restart: the same data dir, the same memory
        pkg = again.compose_context("s1", "我们决定用什么？")
        assert any("FalkorDB" in ev.snippet for ev in pkg.evidence)
        assert again.commit_turn("s1", {"messages": [{"role": "user", "content": "ok"}]}).seq == 2
