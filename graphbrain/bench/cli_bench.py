"""Wall time of everyday CLI commands on the embedded backend, as a shell runs them.

    report = run_cli_bench(config_path=None, runs=3)
    print(format_cli_bench(report))

Each command runs as its own process (``python -m graphbrain.interfaces.cli …``: what the ``graphbrain``
script runs), twice in a row after the server was stopped: the first call starts the embedded server,
the second is "the second call in a shell". Both lives of the server are measured side by side in one
run: ``idle_stop_s: 0`` (stopped by its last user, as every command did before servers outlived it) and
``idle_stop_s`` as configured (kept up for the next command). The data is a scratch data dir holding the
demo session; it is deleted afterwards. Figures are medians over ``runs`` in seconds.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from graphbrain.bench.report import table
from graphbrain.config import load_config
from graphbrain.demo import seeds_dir
from graphbrain.store.embedded_server import EmbeddedServer, EmbeddedSettings

__all__ = ["COMMANDS", "format_cli_bench", "run_cli_bench"]

QUESTION = "What did we decide for the memory store?"
COMMANDS: dict[str, list[str]] = {
    "init": ["init"],
    "memory list": ["memory", "list"],
    "entity Neo4j": ["entity", "Neo4j"],
    "context": ["context", "demo-graphbrain", QUESTION],
}
# What the issue asked of the second call in a shell (seconds).
GOALS = {"memory list": 1.0, "context": 3.0}


def _env(data_dir: Path, idle_stop_s: float) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_URI"}
    env.update(
        GRAPHBRAIN_STORAGE_BACKEND="embedded",
        GRAPHBRAIN_DATA_DIR=str(data_dir),
        GRAPHBRAIN_EMBEDDED_IDLE_STOP_S=str(idle_stop_s),
        GRAPHBRAIN_NAMESPACE="bench-cli",
    )
    return env


def _run(args: list[str], env: dict[str, str], config_path: str | None) -> float:
    cmd = [sys.executable, "-m", "graphbrain.interfaces.cli", *args]
    if config_path:
        cmd += ["--config", config_path]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
    took = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(f"`graphbrain {' '.join(args)}` failed ({out.returncode}): {out.stderr[-2000:]}")
    return took


def run_cli_bench(config_path: str | None = None, runs: int = 3) -> dict[str, Any]:
    configured = load_config(config_path).storage.embedded.idle_stop_s or 600.0
    scratch = Path(tempfile.mkdtemp(prefix="graphbrain-bench-cli-"))
    data_dir = scratch / "data"
    server = EmbeddedServer(EmbeddedSettings(data_dir=data_dir.resolve()))
    lives = {"stopped by its last user (idle_stop_s 0)": 0.0, f"kept up (idle_stop_s {configured:g})": configured}
    try:
        session = scratch / "session.json"
        shutil.copy(seeds_dir() / "sessions" / "demo-graphbrain.json", session)
        _run(["commit", str(session)], _env(data_dir, 0), config_path)
        figures: dict[str, dict[str, dict[str, float]]] = {}
        for life, idle in lives.items():
            env = _env(data_dir, idle)
            for name, args in COMMANDS.items():
                first, second = [], []
                for _ in range(runs):
                    server.stop()
                    first.append(_run(args, env, config_path))
                    second.append(_run(args, env, config_path))
                figures.setdefault(name, {})[life] = {
                    "first": statistics.median(first),
                    "second": statistics.median(second),
                }
        return {
            "runs": runs,
            "lives": list(lives),
            "commands": figures,
            "goals_s": GOALS,
            "python": sys.executable,
        }
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def format_cli_bench(report: dict[str, Any]) -> str:
    lives = report["lives"]
    headers = ["command"] + [f"{life}: {call}" for life in lives for call in ("first", "second")] + ["goal (2nd)"]
    rows = []
    for name, by_life in report["commands"].items():
        row: list[Any] = [name]
        for life in lives:
            row += [by_life[life]["first"], by_life[life]["second"]]
        goal = report["goals_s"].get(name)
        row.append(f"<= {goal:g}" if goal else "-")
        rows.append(row)
    return (
        f"wall seconds per command (median of {report['runs']} runs; each a new process, "
        "the server stopped before the first call)\n" + table(headers, rows, digits=2)
    )


def main_cli_bench(config_path: str | None, runs: int, as_json: bool) -> dict[str, Any]:
    report = run_cli_bench(config_path, runs)
    print(json.dumps(report, indent=2) if as_json else format_cli_bench(report))
    return report
