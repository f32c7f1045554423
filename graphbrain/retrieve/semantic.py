"""semantic: nearest neighbours over Neo4j's vector indexes (HNSW, cosine).

One query per side searched: ``memory_embedding``, ``message_embedding`` and ``chunk_embedding``, all
post-filtered in Cypher (``retrieve/semantic_*``) with oversampling (see ``base.index_search``). The
query's vector comes from the context, where the executor embedded every query text of the plan in
one embedder call.

A nearest neighbour exists for any query, however unrelated, so hits below a similarity floor are
dropped: cosine ``DEFAULT_MIN_SIMILARITY`` (0.2) unless the query's ``hints.min_similarity`` says
otherwise. For the default multilingual model, unrelated sentences score about 0.0–0.15, paraphrases
and translations (Chinese ↔ English) about 0.25–0.6.
"""

from __future__ import annotations

from graphbrain.contracts import Mode
from graphbrain.retrieve.base import SIDE_FILE, QueryJob, Retriever
from graphbrain.retrieve.fuse import RankedList
from graphbrain.store.base import Tx

DEFAULT_MIN_SIMILARITY = 0.2


def min_similarity(job: QueryJob) -> float:
    """The cosine floor for this query: ``hints.min_similarity`` (clamped to [-1, 1]) or the default."""
    hinted = job.hints.get("min_similarity")
    if isinstance(hinted, (int, float)) and not isinstance(hinted, bool):
        return max(-1.0, min(1.0, float(hinted)))
    return DEFAULT_MIN_SIMILARITY


class SemanticRetriever(Retriever):
    mode = Mode.semantic
    needs_vector = True

    def search(self, job: QueryJob) -> list[RankedList]:
        return self.lists(job, self.mode)

    def lists(self, job: QueryJob, as_mode: Mode) -> list[RankedList]:
        """The vector lists of ``job``, reported as ``as_mode`` (hybrid and associative reuse them)."""
        vector = self.ctx.vector(job.text)
        if vector is None:  # embedding failed for this plan; the executor already warned
            return []
        # Neo4j's cosine score is (1 + cos) / 2.
        min_score = (1.0 + min_similarity(job)) / 2.0

        def work(tx: Tx) -> list[RankedList]:
            out = []
            for side in job.sides:
                params = {**job.params[side], "vector": vector, "min_score": min_score}
                rows = self.index_search(tx, f"retrieve/semantic_{SIDE_FILE[side]}", params, job.limit)
                out.append(self.ranked_list(job, side, rows, mode=as_mode, backend="vector"))
            return out

        return self.ctx.store.read(work)
