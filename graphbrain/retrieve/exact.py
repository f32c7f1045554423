"""exact: keyword and phrase search with BM25 over Neo4j's full-text indexes (Lucene, cjk analyzer).

One query per side searched: ``memory_text`` (Memory.text) and ``chunk_text`` (Chunk.text,
Chunk.section_title) with the cjk analyzer, which indexes Chinese as character bigrams and Latin words as
lowercase tokens (user text escaped by ``lucene_query``); ``message_search`` (Message.search_text) holds
each message's analyzed terms (``graphbrain.nlp.analysis``: stemmed English, jieba's Chinese words), and
the query is analyzed the same way (``query_terms``). All post-filtered in Cypher (``retrieve/exact_*``),
user text only ever as a parameter.
"""

from __future__ import annotations

from graphbrain.contracts import Mode
from graphbrain.nlp.analysis import query_terms
from graphbrain.retrieve.base import SIDE_FILE, QueryJob, Retriever, lucene_query
from graphbrain.retrieve.fuse import RankedList
from graphbrain.store.base import Tx


class ExactRetriever(Retriever):
    mode = Mode.exact

    def search(self, job: QueryJob) -> list[RankedList]:
        return self.lists(job, self.mode)

    def lists(self, job: QueryJob, as_mode: Mode) -> list[RankedList]:
        """The BM25 lists of ``job``, reported as ``as_mode`` (hybrid and associative reuse them)."""
        query = lucene_query(job.text)
        if query is None:  # only punctuation: there is no word to look for
            return []

        # In one order: an expansion with the question's words ("last Juniper meeting happened") is then the
        # same search as the question's, answered once (``index_search``); BM25 sums over terms in any order.
        terms = sorted(query_terms(job.text))

        def work(tx: Tx) -> list[RankedList]:
            out = []
            for side in job.sides:
                # Turns are indexed as analyzed terms (graphbrain.nlp.analysis) and searched by them alone;
                # the other sides by the query text.
                if side == "turn" and not terms:
                    continue
                params = {**job.params[side], **({"terms": terms} if side == "turn" else {"query": query})}
                rows = self.index_search(tx, f"retrieve/exact_{SIDE_FILE[side]}", params, job.limit)
                out.append(self.ranked_list(job, side, rows, mode=as_mode, backend="fts"))
            return out

        return self.ctx.store.read(work)
