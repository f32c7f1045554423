"""semantic: nearest neighbours over the vector indexes (HNSW, cosine), one model per language family.

Every text has a vector of the main model (``embedding``: multilingual, so Chinese and cross-language
queries work); English and mixed text also one of the English model (``embedding.english``, stronger on
English). A query searches, per side (``retrieve/semantic_*``, post-filtered in Cypher with
oversampling, see ``base.index_search``):

- **English** query: the English model's index, and the main model's for what the English model cannot
  read — on the turn side the messages that are not English (Chinese answers to an English question,
  at ``CROSS_LANGUAGE_WEIGHT``: fused by min-max, the best of a few Chinese messages would otherwise count
  as much as the best English match), elsewhere everything, at ``MAIN_WEIGHT_FOR_ENGLISH`` of the
  query's weight (the English model ranks English text better, so the main model only adds);
- **Chinese** query: the main model's index (Chinese and English text alike: the model is cross-lingual);
- **mixed** query: both, each at full weight.

A nearest neighbour exists for any query, however unrelated, so hits below a similarity floor are
dropped: cosine ``DEFAULT_MIN_SIMILARITY`` (0.2) unless the query's ``hints.min_similarity`` says
otherwise. For the default multilingual model, unrelated sentences score about 0.0–0.15, paraphrases
and translations (Chinese ↔ English) about 0.25–0.6.
"""

from __future__ import annotations

from typing import Any

from graphbrain.contracts import Mode
from graphbrain.retrieve.base import OVERSAMPLE, SIDE_FILE, SUPPLEMENT_LIMIT, QueryJob, Retriever, query_language
from graphbrain.retrieve.candidate import Side
from graphbrain.retrieve.fuse import RankedList
from graphbrain.store.base import Tx

DEFAULT_MIN_SIMILARITY = 0.2
MAIN_WEIGHT_FOR_ENGLISH = 0.25
CROSS_LANGUAGE_WEIGHT = 0.5
NOT_ENGLISH = ["zh", "mixed", "other"]


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

    def searches(self, job: QueryJob, side: Side) -> list[tuple[str, list[float], dict[str, Any], float]]:
        """(model, vector, extra parameters, weight factor) of each index search for ``side``."""
        main, english = self.ctx.vector(job.text), self.ctx.vector_en(job.text)
        out: list[tuple[str, list[float], dict[str, Any], float]] = []
        if english is not None:
            out.append(("english", english, {}, 1.0))
        if main is not None:
            if english is not None and query_language(job.text) == "en":
                if side == "turn" and job.params[side].get("languages") is None:
                    out.append(("main", main, {"languages": NOT_ENGLISH}, CROSS_LANGUAGE_WEIGHT))
                elif side != "turn":
                    out.append(("main", main, {}, MAIN_WEIGHT_FOR_ENGLISH))
            else:
                out.append(("main", main, {}, 1.0))
        return out

    def lists(self, job: QueryJob, as_mode: Mode) -> list[RankedList]:
        """The vector lists of ``job``, reported as ``as_mode`` (hybrid and associative reuse them)."""
        # Neo4j's cosine score is (1 + cos) / 2 (the FalkorDB queries return the same).
        min_score = (1.0 + min_similarity(job)) / 2.0

        def work(tx: Tx) -> list[RankedList]:
            out = []
            for side in job.sides:
                for model, vector, extra, factor in self.searches(job, side):
                    params = {**job.params[side], **extra, "vector": vector, "min_score": min_score, "model": model}
                    name = f"retrieve/semantic_{SIDE_FILE[side]}"
                    if factor >= 1.0:
                        rows = self.index_search(tx, name, params, job.limit)
                    else:
                        # A search at a fraction of the query's weight supplements the main one: its head is
                        # what fusion uses, and it gets no more index work than the main search's first k
                        # (the non-English messages among the nearest, not all the way down the index).
                        limit = min(job.limit, SUPPLEMENT_LIMIT)
                        rows = self.index_search(tx, name, params, limit, max_k=OVERSAMPLE * job.limit)
                    lst = self.ranked_list(job, side, rows, mode=as_mode, backend="vector")
                    lst.weight = job.weight * factor
                    out.append(lst)
            return out

        return self.ctx.store.read(work)
