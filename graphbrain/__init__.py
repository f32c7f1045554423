"""graphbrain: a Neo4j-backed knowledge memory for LLM agents.

The public surface is small: ``Brain`` plus the wire contracts and the error tree.
"""

from graphbrain.brain import Brain
from graphbrain.config import BrainConfig, load_config
from graphbrain.errors import (
    ConfigError,
    EmbeddingError,
    GraphbrainError,
    InputError,
    PlanError,
    SchemaError,
    StoreError,
    StoreUnavailable,
)

__version__ = "0.1.0"

__all__ = [
    "Brain",
    "BrainConfig",
    "ConfigError",
    "EmbeddingError",
    "GraphbrainError",
    "InputError",
    "PlanError",
    "SchemaError",
    "StoreError",
    "StoreUnavailable",
    "__version__",
    "load_config",
]
