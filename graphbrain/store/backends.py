"""The storage backends a user can pick by name (--from, --to, --backend, --backends), in one place."""

from __future__ import annotations

# Neo4j first: the product's primary backend (and the default of the benches that start a database).
BACKENDS: tuple[str, ...] = ("neo4j", "embedded")


def parse_backends(text: str) -> list[str]:
    """A comma-separated list of backend names ("neo4j,embedded"), blanks dropped; ValueError names a wrong one."""
    chosen = [b.strip() for b in text.split(",") if b.strip()]
    for b in chosen:
        if b not in BACKENDS:
            raise ValueError(f"unknown backend {b!r}: use {' and/or '.join(BACKENDS)}")
    return chosen
