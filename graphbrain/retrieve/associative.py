"""associative: an expansion query (alias, sub-topic, keyword) run as exact + semantic.

The plan builder (compose_context) writes the expansion queries; the executor only runs them. Each one
is searched like a hybrid query but reported as mode ``associative`` and weighed by its own query
weight, which for an expansion is below 1.0 so that the original question keeps the upper hand in
fusion. A query that leaves ``weight`` out gets ``policies.retrieval.query_expansion.max_weight`` (0.8)
rather than the protocol's 1.0 (the executor decides this when it builds the job).
"""

from __future__ import annotations

from graphbrain.contracts import Mode
from graphbrain.retrieve.base import QueryJob, Retriever
from graphbrain.retrieve.exact import ExactRetriever
from graphbrain.retrieve.fuse import RankedList
from graphbrain.retrieve.semantic import SemanticRetriever


class AssociativeRetriever(Retriever):
    mode = Mode.associative
    needs_vector = True

    def search(self, job: QueryJob) -> list[RankedList]:
        exact = ExactRetriever(self.ctx).lists(job, self.mode)
        semantic = SemanticRetriever(self.ctx).lists(job, self.mode)
        return exact + semantic
