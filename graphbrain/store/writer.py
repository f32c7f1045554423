"""The base of what writes embedded things into the store: the config, the store and the embedding models."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the store package imports no model code
    from graphbrain.config import BrainConfig
    from graphbrain.embedding import Embedder
    from graphbrain.store.base import Store


class EmbeddingWriter:
    """Holds the config, the store and the two model factories (``english_factory`` gives None when the English
    model is off). The commit pipeline and the resources' DocumentWriter (so the Ingestor) start from it."""

    def __init__(
        self,
        config: BrainConfig,
        store: Store,
        embedder_factory: Callable[[], Embedder],
        english_factory: Callable[[], Embedder | None] | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self._embedder_factory = embedder_factory
        self._english_factory = english_factory or (lambda: None)
