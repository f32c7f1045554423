"""hybrid: exact + semantic for the same query, fused by the plan's fusion method.

Both backends' lists are reported as mode ``hybrid`` (their ``backend`` says fts or vector, so the
signals stay apart) and go into the executor's one fusion with every other list of the plan. Fusing
them there rather than here is the same RRF arithmetic — each list adds ``w / (k + rank)`` — and lets an
item that several queries find add up across all of them. ``fusion.weights`` may weigh ``hybrid`` as a
whole or its ``exact`` / ``semantic`` parts.
"""

from __future__ import annotations

from graphbrain.contracts import Mode
from graphbrain.retrieve.base import QueryJob, Retriever
from graphbrain.retrieve.exact import ExactRetriever
from graphbrain.retrieve.fuse import RankedList
from graphbrain.retrieve.semantic import SemanticRetriever


class HybridRetriever(Retriever):
    mode = Mode.hybrid
    needs_vector = True

    def search(self, job: QueryJob) -> list[RankedList]:
        exact = ExactRetriever(self.ctx).lists(job, self.mode)
        semantic = SemanticRetriever(self.ctx).lists(job, self.mode)
        return exact + semantic
