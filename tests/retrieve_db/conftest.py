"""Fixtures of the retrieval tests: the seeded graph and an executor to run plans on it."""

from __future__ import annotations

from typing import Any

import pytest
from seed_graph import Run, SeededGraph, seed_graph

from graphbrain import Brain
from graphbrain.contracts import EvidencePack
from graphbrain.retrieve import Executor


@pytest.fixture()
def g(brain: Brain) -> SeededGraph:
    return seed_graph(brain)


@pytest.fixture()
def run(brain: Brain) -> Run:
    """Run a plan in the test's namespace (or ``namespace``); other keywords go to ``Executor.retrieve``."""
    ex = Executor(brain.config, brain.store, lambda: brain.embedder)

    def go(p: dict[str, Any], namespace: str | None = None, **kw: Any) -> EvidencePack:
        return ex.retrieve(p, namespace=namespace or brain.namespace, **kw)

    return go
