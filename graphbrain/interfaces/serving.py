"""The Brain an interface serves: given, or made on first use; shared by the HTTP service and the MCP server."""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Callable

from graphbrain.brain import Brain

BrainSource = Brain | Callable[[], Brain]


class LazyBrain:
    """One Brain: given, or made on first use (so a server starts, and says why, while Neo4j is down)."""

    def __init__(self, source: BrainSource) -> None:
        self._brain = source if isinstance(source, Brain) else None
        self._factory = None if isinstance(source, Brain) else source
        self._lock = threading.Lock()

    def get(self) -> Brain:
        if self._brain is None:
            with self._lock:
                if self._brain is None:
                    assert self._factory is not None
                    self._brain = self._factory()
        return self._brain

    def close(self) -> None:
        # Only a Brain made here is ours to close; a given one belongs to the caller.
        if self._factory is not None and self._brain is not None:
            self._brain.close()
            self._brain = None


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (a server bound there needs no token)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
