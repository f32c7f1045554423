"""Whether a store's schema is the one this graphbrain speaks, and creating it where graphbrain may."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from graphbrain.errors import SchemaError
from graphbrain.store.base import SCHEMA_VERSION

if TYPE_CHECKING:
    from graphbrain.store.base import Store


def creates_own_schema(store: Store) -> bool:
    """The embedded database is graphbrain's own, in data_dir: a first use may create its schema, so
    ``pip install`` and a script are enough. A server (Neo4j) is someone's database: only ``graphbrain
    init`` writes a schema there."""
    return store.backend == "embedded" and not store.holds_data()


def check_schema(store: Store, create: Callable[[], object]) -> None:
    """Raise SchemaError unless ``store`` holds this graphbrain's schema version.

    ``create`` runs instead (it is ``Brain.init_schema``, which needs the models for its upgrade steps)
    when the store has no schema yet and :func:`creates_own_schema` allows it.
    """
    from graphbrain.store.upgrade import behind_message

    version = store.schema_version()
    if version is None and creates_own_schema(store):
        create()
        return
    if version is None:
        raise SchemaError("the database has no graphbrain schema: run `graphbrain init`")
    if version < SCHEMA_VERSION:
        raise SchemaError(behind_message(version, SCHEMA_VERSION))
    if version > SCHEMA_VERSION:
        raise SchemaError(
            f"the database schema is version {version}, newer than this graphbrain's {SCHEMA_VERSION}: "
            "upgrade graphbrain"
        )
