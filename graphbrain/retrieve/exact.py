"""exact: keyword and phrase search with BM25 over Neo4j's full-text indexes (Lucene, cjk analyzer).

One query per side searched: ``memory_text`` (Memory.text), ``message_text`` (Message.content) and
``chunk_text`` (Chunk.text, Chunk.section_title), all post-filtered in Cypher (``retrieve/exact_*``). The
cjk analyzer indexes Chinese as character bigrams and Latin words as lowercase tokens, so Chinese,
English and mixed queries work alike. User text is escaped (``lucene_query``) and goes in as a parameter.
"""

from __future__ import annotations

from graphbrain.contracts import Mode
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

        def work(tx: Tx) -> list[RankedList]:
            out = []
            for side in job.sides:
                params = {**job.params[side], "query": query}
                rows = self.index_search(tx, f"retrieve/exact_{SIDE_FILE[side]}", params, job.limit)
                out.append(self.ranked_list(job, side, rows, mode=as_mode, backend="fts"))
            return out

        return self.ctx.store.read(work)
