"""`graphbrain reindex`: fill the embeddings an embedding failure left out (the rows were still stored)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphbrain.embedding import Embedder
from graphbrain.store import Store

MAX_EMBED_CHARS = 2000


def reindex_missing(
    store: Store,
    embedder: Embedder,
    namespace: str,
    *,
    batch: int = 256,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    filled: dict[str, int] = {"Memory": 0, "Message": 0, "Chunk": 0}
    while True:
        rows = store.run("reindex/missing", {"namespace": namespace, "limit": batch})
        if not rows:
            break
        vectors = embedder.embed([str(r["text"])[:MAX_EMBED_CHARS] for r in rows])
        store.run(
            "reindex/set_embeddings",
            {
                "rows": [
                    {"id": r["id"], "label": r["label"], "embedding": v} for r, v in zip(rows, vectors, strict=True)
                ]
            },
            write=True,
        )
        for r in rows:
            filled[r["label"]] += 1
        if progress:
            progress(sum(filled.values()))
    return {"namespace": namespace, "filled": filled, "total": sum(filled.values())}
