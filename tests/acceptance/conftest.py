"""Fixtures for the seed's v0.1 acceptance suite (seed-policies.md §7), on the real Neo4j."""

from __future__ import annotations

import pytest
from acceptance_seed import Demo, seed_demo

from graphbrain import Brain


@pytest.fixture()
def demo(brain: Brain) -> Demo:
    """The demo session and seeds/docs in the test's clean namespace."""
    return seed_demo(brain)
