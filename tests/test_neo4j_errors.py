"""How the Neo4j store names the driver's errors: a transient one (a deadlock the driver's retries did
not outlast, a database still starting after a restart) is "unavailable", so a journaled turn stays
pending and is replayed; a client error is a StoreError, kept as failed."""

from __future__ import annotations

import neo4j.exceptions as nx

from graphbrain.errors import StoreError, StoreUnavailable
from graphbrain.store.neo4j_store import _map_error


def _server_error(code: str) -> nx.Neo4jError:
    # The driver builds its server errors from the code the server sends (the class follows the code).
    return nx.Neo4jError._hydrate_neo4j(code=code, message="from the server")


def test_transient_server_errors_are_unavailable_not_failed() -> None:
    for code in ("Neo.TransientError.Transaction.DeadlockDetected", "Neo.TransientError.General.DatabaseUnavailable"):
        err = _server_error(code)
        assert isinstance(err, nx.TransientError)
        assert isinstance(_map_error(err), StoreUnavailable), code


def test_client_errors_stay_store_errors() -> None:
    mapped = _map_error(_server_error("Neo.ClientError.Statement.SyntaxError"))
    assert isinstance(mapped, StoreError) and not isinstance(mapped, StoreUnavailable)
