"""Administration and exploration: what the CLI, HTTP and MCP surfaces offer besides commit and compose.

Each service takes the store and the namespace on every call (no state, no tenant held between calls):

* ``memory``: list items, show one with its history and provenance, forget an item / session / namespace
* ``entity``: an entity with its aliases, neighbourhood and timeline
* ``export``: the namespace's memory graph as GraphML or node-link JSON (networkx)
* ``traces``: commit and context traces by id, pruning old ones
* ``cypher_console``: a user's own Cypher, read-only unless asked

``Brain`` wraps each of them (``brain.list_memory(...)``, ``brain.forget(...)`` ...) with the namespace
defaulting to the config's.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphbrain.admin.cypher_console import run_cypher
    from graphbrain.admin.entity import entity_view, resolve_entity
    from graphbrain.admin.export import build_graph, export_graph
    from graphbrain.admin.memory import NotFoundError, forget, list_memory, show_memory
    from graphbrain.admin.traces import get_commit_trace, get_context_trace, prune_traces

# Imported on first use, so a command that needs one service (memory list) does not pay for the others'
# imports (entity pulls in retrieval, export networkx).
_WHERE = {
    "NotFoundError": "memory",
    "build_graph": "export",
    "entity_view": "entity",
    "export_graph": "export",
    "forget": "memory",
    "get_commit_trace": "traces",
    "get_context_trace": "traces",
    "list_memory": "memory",
    "prune_traces": "traces",
    "resolve_entity": "entity",
    "run_cypher": "cypher_console",
    "show_memory": "memory",
}
__all__ = [
    "NotFoundError",
    "build_graph",
    "entity_view",
    "export_graph",
    "forget",
    "get_commit_trace",
    "get_context_trace",
    "list_memory",
    "prune_traces",
    "resolve_entity",
    "run_cypher",
    "show_memory",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'graphbrain.admin' has no attribute {name!r}")
    return getattr(importlib.import_module(f"graphbrain.admin.{module}"), name)
