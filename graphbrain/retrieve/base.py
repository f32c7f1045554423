"""What every mode shares: the per-plan context, the per-query job, the base ``Retriever``, index search.

The executor builds one ``RetrievalContext`` per plan and one ``QueryJob`` per query (filters merged and
resolved per side), then calls ``Retriever.retrieve(job)`` on the retriever of the query's mode. Each
retriever writes only its ``search`` hook and returns one ``RankedList`` per side it searched (memory
items, turns = ``Message`` nodes, resources = ``Chunk`` nodes), best first.

Candidates leave a retriever with their identity only (ids, the backend score and rank); the executor
hydrates the fused candidates it can use afterwards, in one query per side (``retrieve/hydrate_*``), so
an item found by several queries and modes is read once, and the long tail of the pool not at all.

Index search (full-text and vector alike) goes through ``Retriever.index_search``: Neo4j's indexes are
global, so hits are post-filtered by namespace and filters in Cypher, and the raw ``k`` asked of the index
starts at ``OVERSAMPLE × limit`` (``MIN_INDEX_K`` at least) and is widened (``next_k``: to what the share
that survived says is enough) while fewer than ``limit`` hits survive and the index still had more to give,
up to ``MAX_INDEX_K``.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from graphbrain.config import NlpConfig, RetrievalConfig
from graphbrain.contracts import Filters, Mode, Query, RetrievalPlan
from graphbrain.embedding import Embedder
from graphbrain.nlp import detect_language
from graphbrain.retrieve.candidate import Candidate, Side
from graphbrain.retrieve.fuse import Backend, RankedList
from graphbrain.retrieve.snippets import (
    boundary_cut,
    memory_evidence_id,
    resource_evidence_id,
    turn_evidence_id,
)
from graphbrain.store.base import Row, Store, Tx

# The sides in their fixed order (lists come back in this order, which keeps fusion input stable).
SIDES: tuple[Side, ...] = ("memory", "turn", "resource")
# Query-file suffix per side: cypher/retrieve/<mode>_<suffix>.cypher.
SIDE_FILE: dict[Side, str] = {"memory": "memory", "turn": "turns", "resource": "resources"}

OVERSAMPLE = 2  # first raw k = OVERSAMPLE × limit: most namespaces and filters keep half the hits
# ... and at least this many: a short list behind a selective filter (the relational walk's five active tasks
# and decisions by text) would otherwise climb from k = 10, a query per rung; an index gives 100 hits as
# cheaply as 10.
MIN_INDEX_K = 100
WIDEN = 4  # then k grows to what the share that survived asks for (next_k), 16-fold when none did ...
MAX_INDEX_K = 4096  # ... up to this many raw hits per index call (HNSW and Lucene stay fast below it)
# Hits kept per supplementary list: an expansion query's, or a search at a fraction of its query's weight
# (the main model's index for an English question). Fusion uses the head of such a list; its long tail costs
# index work (a vector search's cost grows with its k) and moves no result.
SUPPLEMENT_LIMIT = 50

# Lucene's BooleanQuery takes at most 1024 clauses and the cjk analyzer makes about one per character
# of Chinese, so the full-text query keeps the first MAX_FTS_CHARS characters of the text.
MAX_FTS_CHARS = 512
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_LUCENE_OPERATOR = re.compile(r"\b(AND|OR|NOT|TO)\b")
_HAS_WORD = re.compile(r"\w")


def lucene_query(text: str, max_chars: int = MAX_FTS_CHARS) -> str | None:
    """User text as a Lucene query that matches its words and nothing else, or None when it has none.

    Every special character is backslash-escaped and the operators AND / OR / NOT / TO are lowercased
    (the analyzer lowercases anyway), so no user text can change the query's structure. The result is
    only ever passed as a parameter.
    """
    cut = boundary_cut(text.strip(), max_chars)
    if not _HAS_WORD.search(cut):
        return None
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", cut)
    return _LUCENE_OPERATOR.sub(lambda m: m.group().lower(), escaped)


def query_language(text: str) -> str:
    """The language of a query (``detect_language``), which decides the vector indexes it searches."""
    return detect_language(text)


def index_search(
    tx: Tx,
    name: str,
    params: Mapping[str, Any],
    limit: int,
    max_k: int = MAX_INDEX_K,
    shares: dict[str, float] | None = None,
    answered: dict[str, tuple[int, list[Row]]] | None = None,
) -> list[Row]:
    """Rows of one post-filtered index query, widening the raw ``k`` while that can still help.

    The query returns one row: ``raw`` (hits the index gave), ``floor`` (the last hit's score) and
    ``rows`` (the survivors, best first, at most ``limit``). Widening stops when enough survived,
    when the index had no more (``raw < k``), when the last raw hit already scored below
    ``params["min_score"]`` (vector search: further hits can only be weaker), or at ``max_k``.

    ``shares`` (one plan's): the share of its hits that the last search of the same query file and
    filters kept. When that share says the first ``k`` will not be enough, the search starts at the rung
    the widening would climb to next: in a namespace of many superseded versions, 2 % of a memory vector
    search's hits may survive the status filter, and each query of the plan paid for the first rung again.
    Searches within a plan run in order, so the same plan on the same data asks the same ``k``.

    ``answered`` (one plan's): the rows of each search already run, by query file, parameters and
    ``max_k``. The same search again for as many rows or fewer is answered from them, not re-run: an
    expansion whose terms are the question's ("last Juniper meeting happened") searches the messages
    exactly as the question did. Its rows are the head of the earlier ones, which widened at least as far
    as this search would have.
    """
    answer_key = f"{name}|{max_k}|{sorted(params.items())!r}" if answered is not None else ""
    if answered is not None and answer_key in answered and answered[answer_key][0] >= limit:
        return answered[answer_key][1][:limit]
    rows = _widening_search(tx, name, params, limit, max_k, shares)
    if answered is not None:
        answered[answer_key] = (limit, rows)
    return rows


def _widening_search(
    tx: Tx, name: str, params: Mapping[str, Any], limit: int, max_k: int, shares: dict[str, float] | None
) -> list[Row]:
    max_k = min(max_k, MAX_INDEX_K)
    k = min(max_k, max(limit * OVERSAMPLE, MIN_INDEX_K))
    key = _share_key(name, params) if shares is not None else ""
    share = shares.get(key) if shares is not None else None
    if share is not None and share * k < limit:
        k = min(max_k, next_k(k, math.floor(share * k), limit))
    min_score = params.get("min_score")
    while True:
        out = tx.run(name, {**params, "k": k, "limit": limit})
        result = out[0] if out else {"raw": 0, "floor": None, "rows": []}
        rows: list[Row] = list(result["rows"])
        raw = int(result["raw"])
        exhausted = raw < k
        below = min_score is not None and result["floor"] is not None and result["floor"] < min_score
        if shares is not None and raw:
            shares[key] = len(rows) / raw
        if len(rows) >= limit or exhausted or below or k >= max_k:
            return rows
        k = min(max_k, next_k(k, len(rows), limit))


# What varies per query rather than per filter set: left out of a share's key.
_PER_QUERY = frozenset({"vector", "query", "terms", "fts", "k", "limit"})


def _share_key(name: str, params: Mapping[str, Any]) -> str:
    return name + repr(sorted((k, v) for k, v in params.items() if k not in _PER_QUERY))


def next_k(k: int, survived: int, limit: int) -> int:
    """The raw ``k`` to ask next when ``survived`` of ``k`` hits passed the filters and ``limit`` are wanted:
    enough for ``limit`` at the share that survived (and a fifth more), ``WIDEN``² times ``k`` when none
    did. One wider search instead of a ladder of them: a vector search costs by its ``k``, so the
    rungs below the last were paid for nothing."""
    if survived <= 0:
        return k * WIDEN * WIDEN
    return max(2 * k, math.ceil(k * limit / survived * 1.2))


# ---------------------------------------------------------------------------------------- the context
@dataclass
class QueryVectors:
    """Query text → vector, per model, shared by the plans of one request (compose_context's memory and
    resource sides embed the question once)."""

    main: dict[str, list[float]] = field(default_factory=dict)
    english: dict[str, list[float]] = field(default_factory=dict)

    def embed(self, texts: Sequence[str], main: Callable[[], Embedder], english: Callable[[], Embedder | None]) -> None:
        """Embed every text not seen yet, in one call per model (a model is loaded only if needed).

        Every text gets the main model's vector; English and mixed texts also the English model's.
        """
        todo = sorted({t for t in texts if t not in self.main})
        if todo:
            self.main.update(zip(todo, main().embed(todo), strict=True))
        todo_en = sorted({t for t in texts if t not in self.english and query_language(t) in ("en", "mixed")})
        if todo_en:
            model = english()
            if model is not None:
                self.english.update(zip(todo_en, model.embed(todo_en), strict=True))


@dataclass
class RetrievalContext:
    """Everything a retriever may use for one plan; built by the executor, never shared across plans."""

    store: Store
    namespace: str  # always the caller's, never the plan's
    embedder_factory: Callable[[], Embedder]
    config: RetrievalConfig
    plan: RetrievalPlan
    now: datetime
    nlp: NlpConfig | None = None
    # the English model (embedding.english): None when it is off
    english_factory: Callable[[], Embedder | None] = lambda: None  # noqa: E731
    # query text -> its vector, per model; filled by ``embed`` (shared between plans when the caller passes one)
    vectors: QueryVectors = field(default_factory=QueryVectors)
    warnings: list[str] = field(default_factory=list)
    # query file and filters -> the share of index hits their last search kept (``index_search``)
    shares: dict[str, float] = field(default_factory=dict)
    # query file and parameters -> (limit, rows) of each index search run so far (``index_search``)
    answered: dict[str, tuple[int, list[Row]]] = field(default_factory=dict)
    # every list searched so far, in order: the relational walk (run last) seeds from their best hits
    found: list[RankedList] = field(default_factory=list)

    def embed(self, texts: Sequence[str]) -> None:
        """Embed every text not seen yet (``QueryVectors.embed``)."""
        self.vectors.embed(texts, self.embedder_factory, self.english_factory)

    def vector(self, text: str) -> list[float] | None:
        """The vector of ``text``: None when embedding failed for this plan (a warning says so)."""
        return self.vectors.main.get(text)

    def vector_en(self, text: str) -> list[float] | None:
        """The English model's vector of ``text``: None for Chinese text or with the model off."""
        return self.vectors.english.get(text)


@dataclass
class QueryJob:
    """One plan query, ready to run: its filters merged and resolved into Cypher parameters per side."""

    index: int
    query: Query
    mode: Mode  # the mode that runs (the query's own)
    weight: float  # the effective query weight
    sides: tuple[Side, ...]  # the sides to search, in SIDES order
    params: dict[Side, dict[str, Any]]  # filter parameters per side (all keys present, None = off)
    limit: int  # hits kept per list
    hints: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.query.text

    @property
    def filters(self) -> Filters:
        return self.query.filters or Filters()


# ---------------------------------------------------------------------------------------- the base
class Retriever(ABC):
    """One mode. ``retrieve`` is the verb; a mode writes only ``search`` (STYLE: one base, one verb)."""

    mode: ClassVar[Mode]
    # Whether ``search`` needs the query text's vector (the executor embeds all such texts at once).
    needs_vector: ClassVar[bool] = False

    def __init__(self, ctx: RetrievalContext) -> None:
        self.ctx = ctx

    @classmethod
    def wants_vector(cls, text: str) -> bool:
        """Whether a query of this text needs its vector (``needs_vector``, unless a mode decides per text)."""
        return cls.needs_vector

    def retrieve(self, job: QueryJob) -> list[RankedList]:
        """The job's ranked lists, one per side searched; nothing when no side is left to search."""
        if not job.sides or job.limit <= 0:
            return []
        return self.search(job)

    @abstractmethod
    def search(self, job: QueryJob) -> list[RankedList]:
        """Run the mode for one query; candidates best first, ties by id."""

    # ----------------------------------------------------------------------------- shared helpers
    def index_search(
        self, tx: Tx, name: str, params: Mapping[str, Any], limit: int, max_k: int = MAX_INDEX_K
    ) -> list[Row]:
        """``index_search`` (module level): one post-filtered index query, ``k`` widened as needed."""
        return index_search(tx, name, params, limit, max_k, self.ctx.shares, self.ctx.answered)

    def ranked_list(
        self,
        job: QueryJob,
        side: Side,
        rows: Sequence[Row],
        *,
        mode: Mode | None = None,
        backend: Backend | None = None,
        paths: Mapping[str, list[str]] | None = None,
    ) -> RankedList:
        """Rows (``id``, ``score`` and the side's identity fields) as a RankedList, best first, ties by id."""
        as_mode = mode or self.mode
        ordered = sorted(rows, key=lambda r: (-float(r["score"]), str(r["id"])))
        cands = []
        for rank, row in enumerate(ordered, start=1):
            cand = identity_candidate(side, row, job, as_mode)
            cand.rank = rank
            if paths is not None:
                cand.path = paths.get(str(row["id"]))
            cands.append(cand)
        return RankedList(
            mode=as_mode,
            query_index=job.index,
            weight=job.weight,
            candidates=cands,
            query_text=job.text,
            backend=backend,
        )


def identity_candidate(side: Side, row: Row, job: QueryJob, mode: Mode) -> Candidate:
    """A Candidate that knows who it is (ids, backend score); ``hydrate`` fills in the rest.

    Ids follow the evidence contract: ``memory:<id>``, ``turn:<message node id>``, and
    ``<document_id>:<section_id>:<chunk_index>`` for resources. ``metadata["node_id"]`` is the graph node to
    hydrate from. What diversity needs is known already (document, section, source URI; a turn's URI, unique
    per message anyway, waits for hydration), so the unhydrated tail can be capped too. For turns,
    ``message_id`` holds the message node id, which keeps the dedup key (turn + message) unique even when
    callers reuse message ids across turns.
    """
    node_id = str(row["id"])
    common: dict[str, Any] = {
        "side": side,
        "text": "",
        "mode": mode,
        "query_index": job.index,
        "query_text": job.text,
        "weight": job.weight,
        "raw_score": float(row["score"]),
        "metadata": {"node_id": node_id},
    }
    if side == "memory":
        return Candidate(
            id=memory_evidence_id(node_id),
            memory_item_id=node_id,
            source_uri=f"graphbrain://memory/{node_id}",
            **common,
        )
    if side == "turn":
        return Candidate(
            id=turn_evidence_id(node_id),
            turn_id=row.get("turn_id"),
            session_id=row.get("session_id"),
            message_id=node_id,
            **common,
        )
    document_id = str(row["document_id"])
    section_id = row.get("section_id")
    chunk_index = row.get("chunk_index")
    return Candidate(
        id=resource_evidence_id(document_id, section_id, chunk_index),
        document_id=document_id,
        section_id=section_id,
        chunk_index=chunk_index,
        source_uri=row.get("source_uri") or "",
        **common,
    )
