"""Every error graphbrain raises, under one root.

    GraphbrainError
    ├── ConfigError            brain.yml (or the environment) is invalid: file, dotted key, reason
    ├── InputError             a caller's input failed validation: field and reason (keeps .errors)
    │   └── PlanError          a RetrievalPlan was rejected
    ├── QueryNotFoundError     a named .cypher file does not exist
    ├── SchemaError            the database schema is missing or behind: says what to run
    ├── StoreError             the database failed (wrapped once, inside store/)
    │   ├── StoreUnavailable   the server cannot be reached (transient)
    │   │   └── StoreFull      the database's disk is full: nothing of the write kept (transient)
    │   ├── ReadOnlyViolation  a write was attempted in a read-only transaction
    │   └── StoreStateError    the database answered with a state graphbrain never writes: names it
    └── EmbeddingError         the embedding model could not be loaded or failed

Misuse errors (Config/Input/Plan) are the caller's to fix; Store/Embedding errors are the environment's.
"""

from __future__ import annotations

from typing import Any


class GraphbrainError(Exception):
    """Root of every graphbrain error."""


class ConfigError(GraphbrainError):
    """The configuration is invalid; the message names the file, the dotted key and the reason."""

    def __init__(self, message: str, *, file: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.key = key


class InputError(GraphbrainError):
    """A caller's input failed validation; ``errors`` lists each field and reason."""

    def __init__(self, message: str, errors: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.errors = errors or []


class PlanError(InputError):
    """A RetrievalPlan was rejected (no query, unknown mode, negative budget, bad time range...)."""


class QueryNotFoundError(GraphbrainError):
    """A named Cypher query has no file under cypher/."""


class SchemaError(GraphbrainError):
    """The schema is missing or older than this code expects; the message says what to run."""


class StoreError(GraphbrainError):
    """The database reported an error."""


class StoreUnavailable(StoreError):
    """The database could not be reached (after retries)."""


class StoreFull(StoreUnavailable):
    """The database's disk is full (the embedded data dir): the write was refused whole. Transient, as an
    unreachable server is: a journaled turn stays pending and is written once space is freed."""


class ReadOnlyViolation(StoreError):
    """A write was attempted where only reads are allowed."""


class StoreStateError(StoreError):
    """A query answered with a state graphbrain never writes (a missing row or property); the message
    names the query, the node and what was missing."""


class ConstraintViolation(StoreError):
    """A write broke a uniqueness constraint (another writer created the same node first)."""


class EmbeddingError(GraphbrainError):
    """The embedding model could not be loaded or failed on a batch."""


def format_validation_errors(exc: Any, prefix: str = "") -> tuple[str, list[dict[str, Any]]]:
    """Turn a pydantic ValidationError into one readable message plus its structured errors."""
    errors: list[dict[str, Any]] = []
    lines: list[str] = []
    for err in exc.errors():
        loc = ".".join(_printable(p) for p in err.get("loc", ()))
        field = f"{prefix}.{loc}" if prefix and loc else (prefix or loc)
        reason = _printable(err.get("msg", "invalid"))
        errors.append({"field": field, "reason": reason, "type": err.get("type")})
        lines.append(f"{field}: {reason}")
    return "; ".join(lines), errors


def _printable(value: Any) -> str:
    """Text that always encodes: a dict key in a location may hold a lone surrogate the caller sent."""
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")
