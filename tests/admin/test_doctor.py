"""`graphbrain doctor` on each backend (the right checks, a stale document named), and `bench scale`, which
runs on the embedded backend too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphbrain import Brain
from graphbrain.doctor import run_checks
from graphbrain.interfaces.cli import main
from graphbrain.store.falkordb_store import EmbeddedServer, EmbeddedSettings

ROOT = Path(__file__).resolve().parents[2]


def _config(tmp_path: Path, backend: str) -> Path:
    text = (ROOT / "brain.yml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^(\s*)data_dir:.*$", rf"\g<1>data_dir: {tmp_path / 'data'}", text, count=1)
    text = re.sub(r"(?m)^(\s*)backend:.*$", rf"\g<1>backend: {backend}", text, count=1)
    path = tmp_path / "brain.yml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture()
def embedded_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A brain.yml on the embedded backend in a data dir of its own; its server is stopped afterwards."""
    monkeypatch.delenv("NEO4J_URI", raising=False)
    yield _config(tmp_path, "embedded")
    EmbeddedServer(EmbeddedSettings(data_dir=tmp_path / "data"))._shutdown()


def _checks(config: Path) -> dict[str, tuple[bool, str]]:
    return {r["check"]: (r["ok"], r["detail"]) for r in run_checks(str(config), None)}


def test_doctor_on_a_fresh_embedded_data_dir(embedded_config: Path) -> None:
    config = embedded_config
    first = _checks(config)
    assert first["embedded"][0] and "FalkorDB" in first["embedded"][1]
    assert first["schema"] == (True, "none yet: created on first use (or by `graphbrain init`)")
    assert "neo4j" not in first

    brain = Brain.from_config(config, overrides={"namespace": "doc"})  # creates the schema
    brain.ingest({"text": "Baobab trees store water.", "title": "Baobabs"})
    after = _checks(config)
    assert all(ok for ok, _ in after.values()), after
    assert after["indexes"][0] and after["documents"] == (True, "none stale")

    # What undo/ingest leaves after a failed re-ingest: doctor names it.
    brain.store.cypher("MATCH (d:Document {namespace: 'doc'}) SET d.content_hash = null", write=True)
    ok, detail = _checks(config)["documents"]
    assert not ok and "ingest them again" in detail and "(doc)" in detail
    brain.close()


def test_doctor_on_neo4j(tmp_path: Path, neo4j_uri: str, schema_ready: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", neo4j_uri)
    checks = _checks(_config(tmp_path, "auto"))
    assert checks["neo4j"][0] and " 5." in checks["neo4j"][1]
    assert checks["schema"][0] and checks["indexes"][0]
    assert "documents" in checks and "embedded" not in checks


def test_bench_scale_runs_on_embedded(embedded_config: Path, tmp_path: Path) -> None:
    """bench scale measures the embedded backend against its own floor and ends with the criteria."""
    r = CliRunner().invoke(main, ["bench", "scale", "--items", "40", "--backends", "neo4j,nope"])
    assert r.exit_code == 2 and "unknown backend 'nope'" in r.output
    args = ["bench", "scale", "--items", "60", "--samples", "1", "--no-ingest", "--cache", str(tmp_path / "cache")]
    r = CliRunner().invoke(main, [*args, "--config", str(embedded_config)])
    assert r.exit_code == 0, r.output
    assert "graphbrain at scale on embedded" in r.output
    verdicts = [line.split()[0] for line in r.output.splitlines() if "<=" in line or ">=" in line]
    assert len(verdicts) == 5 and set(verdicts) <= {"PASS", "FAIL", "n/a"}, r.output
