"""associative: an expansion query (alias, sub-topic, keyword) run as exact + semantic, or exact alone.

The plan builder (compose_context) writes the expansion queries; the executor only runs them. Each one
is searched like a hybrid query but reported as mode ``associative`` and weighed by its own query
weight, which for an expansion is below 1.0 so that the original question keeps the upper hand in
fusion. A query that leaves ``weight`` out gets ``policies.retrieval.query_expansion.max_weight`` (0.8)
rather than the protocol's 1.0 (the executor decides this when it builds the job).

The strategy (seed-retrieval_plan §3.1: "按策略调用 exact/semantic"): a short expansion — a keyword or two
(``SHORT_WORDS`` words, ``SHORT_CJK`` Chinese characters) — runs as exact only. A sentence embedding of one
word says little that its full-text match does not, and each vector search costs a model call and an
index query per side and model.
"""

from __future__ import annotations

from graphbrain.contracts import Mode
from graphbrain.nlp.chars import is_cjk
from graphbrain.retrieve.base import QueryJob, Retriever
from graphbrain.retrieve.exact import ExactRetriever
from graphbrain.retrieve.fuse import RankedList
from graphbrain.retrieve.semantic import SemanticRetriever

SHORT_WORDS = 2
SHORT_CJK = 4


def is_short(text: str) -> bool:
    """A keyword or two: at most ``SHORT_WORDS`` Latin words and ``SHORT_CJK`` Chinese characters."""
    return len(text.split()) <= SHORT_WORDS and sum(1 for ch in text if is_cjk(ch)) <= SHORT_CJK


class AssociativeRetriever(Retriever):
    mode = Mode.associative
    needs_vector = True

    @classmethod
    def wants_vector(cls, text: str) -> bool:
        return not is_short(text)

    def search(self, job: QueryJob) -> list[RankedList]:
        exact = ExactRetriever(self.ctx).lists(job, self.mode)
        if not self.wants_vector(job.text):
            return exact
        return exact + SemanticRetriever(self.ctx).lists(job, self.mode)
