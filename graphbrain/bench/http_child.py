"""A ``graphbrain serve`` child process on a free loopback port, for the benches that drive the HTTP API
beside in-process callers (chaos, load)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from graphbrain.errors import GraphbrainError


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(base: Path | None, path: Path, settings: dict[str, Any]) -> None:
    """A brain.yml for the child: the base file with the bench's settings (dotted keys) on top."""
    data: dict[str, Any] = {}
    if base is not None and base.is_file():
        data = yaml.safe_load(base.read_text(encoding="utf-8")) or {}
    for dotted, value in settings.items():
        node = data
        *parents, leaf = dotted.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    path.chmod(0o600)


class HttpChild:
    def __init__(self, config: Path, port: int, log: Path) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.log = open(log, "wb")  # noqa: SIM115 (kept for the child's life)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHBRAIN_"))}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "graphbrain.interfaces.cli", "serve", "--config", str(config), "--port", str(port)],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, client: Any, timeout_s: float = 180.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise GraphbrainError(f"the HTTP child exited ({self.proc.returncode}); see {self.log.name}")
            try:
                if client.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return
            except Exception:  # not listening yet
                pass
            time.sleep(0.5)
        raise GraphbrainError(f"the HTTP child was not ready within {timeout_s:.0f}s; see {self.log.name}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        self.log.close()
