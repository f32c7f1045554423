"""relational: graph traversal from what the query names, ranked by personalised PageRank.

1. **Seeds** (``retrieve/relational_seeds``): the entities the query names — by canonical name
   (``query_names``: entity candidates, keywords, tokens and token pairs of the text, canonicalised as
   ``graphbrain.nlp`` does at commit time), and through the ``entity_names`` full-text index, which also
   finds an entity by one of its aliases or a ref's entity by its title (``exact_name_match``) and what an
   exact name cannot catch (Chinese phrases, partial names); memory items whose key the query spells
   out; refs by URI; active tasks and decisions matched by text (``memory_text``; on Neo4j its active
   items' own index, ``memory_active_text``); and the query's best exact and semantic hits
   (``PRIOR_SEEDS`` messages and memory items, read by id in the same query). Every lookup is by an
   index, so seeding costs the same in a small namespace as in a large one. Name, alias, key and ref
   matches weigh 1.0; full-text hits ``FTS_SEED_WEIGHT × score / best score`` (the best few only,
   from ``retrieve/relational_fts_*``, whose raw k widens like the exact retriever's: the indexes are
   global, and another tenant's hits must not crowd this namespace's out).
2. **Neighbourhood** (``retrieve/relational_expand``, one query per hop, in the same read transaction
   as the seeds, the side filters and the path names: ids, labels and turn counts only; what names a
   node is read once, for all the hits' paths):
   breadth-first over MENTIONS / RELATED_TO / DERIVED_FROM / SUPERSEDES / VERSION_OF / REFERENCES /
   HAS_MESSAGE in either direction, ``policies.retrieval.relational_hops`` hops (``hints.hops`` per
   query), every node checked to be in the namespace — a path never crosses into another tenant, even
   through a same-named entity or a stray edge. Hubs are capped at ``FANOUT`` neighbours, the subgraph at
   ``MAX_NODES``.
3. **Rank**: personalised PageRank (``alpha`` 0.85, power iteration on a scipy matrix) runs on the
   subgraph with the seeds' weights as the teleport distribution, so what sits close to several strongly
   named seeds wins.
   RELATED_TO edges weigh ``1 + ln(weight)`` (co-mention count), the rest 1.
4. **Hits**: memory items (entities only when the ``types`` filter asks for them: otherwise they are the
   connective tissue, not the evidence), messages and chunks, filtered by the plan's filters
   (``retrieve/relational_<side>``), best first. Each carries ``Candidate.path``, the breadth-first path
   from its seed, readable: ``["entity:project falcon", "RELATED_TO", "entity:neo4j", "MENTIONS",
   "decision:graphbrain:storage"]``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from graphbrain.config import NlpConfig
from graphbrain.contracts import Mode
from graphbrain.nlp import canonicalize, entity_candidates, has_cjk, keywords, tokenize
from graphbrain.retrieve.base import SIDE_FILE, SIDES, QueryJob, Retriever, lucene_query
from graphbrain.retrieve.candidate import Side
from graphbrain.retrieve.fuse import RankedList
from graphbrain.store.base import Row, Tx, collected

PPR_ALPHA = 0.85
PPR_TOL = 1e-10  # per node, L1 (networkx's criterion)
PPR_MAX_ITER = 200
FANOUT = 30  # neighbours per node and hop at most
MAX_FRONTIER = 100  # nodes expanded per hop at most: the ones the walk's mass reached most
# An entity more turns than this mention (a speaker, "I", 我们) is walked into, never out of: its tie to
# any one turn is weak (specificity 1 / ln(2 + turns)) and expanding it reads hundreds of rows.
HUB_TURNS = 100
MAX_NODES = 4000  # subgraph size at most
MAX_SEEDS = 20
NEXT_WEIGHT = 0.5
# The best hits of the query's exact and semantic lists seed the walk too: the turn that matched the
# question is where a chain starts when the question names nothing the graph knows.
PRIOR_SEEDS = 5
PRIOR_SEED_WEIGHT = 0.5
FTS_SEEDS = 5  # full-text seeds kept per index
FTS_NAME_CANDIDATES = 20  # entity hits read for exact alias / ref-title matches (see exact_name_match)
REF_KINDS = frozenset({"url", "file"})  # a ref's entity (commit_turn names it by the ref's title)
FTS_SEED_WEIGHT = 0.5  # a full-text seed weighs at most half an exact name match
FTS_MIN_SHARE = 0.3  # ... and is kept only when it scores at least this share of the best hit
MAX_WHOLE_QUERY_NAME = 80  # a short query may itself be a name ("Project Falcon")
MAX_HOPS = 4

# A memory key written out in the query: "task:graphbrain:schema" (CONTRACTS.md §2 prefixes).
_KEY_RE = re.compile(r"\b(?:profile|pref|goal|task|decision|entity|event|case|pattern):[^\s,;，。；、]+")
_FTS_VIAS = ("entity_names", "memory_text")
FTS_SEED_QUERIES = ("retrieve/relational_fts_entities", "retrieve/relational_fts_memory")


# ---------------------------------------------------------------------------------------- seeds
@dataclass(frozen=True)
class SeedSpec:
    """What to look for: canonical names, memory keys, URIs, and the escaped full-text query."""

    names: list[str]
    keys: list[str]
    uris: list[str]
    fts: str | None


def query_names(text: str, extra: Sequence[str] = (), nlp: NlpConfig | None = None) -> SeedSpec:
    """The names a query may be naming, in the canonical forms the commit pipeline stores.

    Entity candidates (their canonical form and their name canonicalised as a topic), keywords, word
    tokens and adjacent token pairs ("project falcon"; Chinese pairs joined: "猎鹰项目"), the whole
    query when short, and ``extra`` names (``hints.entities``). Matching is by equality, so extra
    candidates cost nothing but a longer ``IN`` list.
    """
    names: set[str] = set()
    uris: set[str] = set()
    for cand in entity_candidates(text, cfg=nlp):
        names.add(cand.canonical)
        names.add(canonicalize(cand.name, "topic"))
        if cand.kind == "url":
            uris.add(cand.canonical)
    for kw in keywords(text, cfg=nlp):
        names.add(canonicalize(kw, "topic"))
    return _with_tokens(text, names, uris, extra)


def _with_tokens(text: str, names: set[str], uris: set[str], extra: Sequence[str]) -> SeedSpec:
    """The rule-based part of ``query_names`` (no spaCy): tokens, pairs, the whole query, extras, keys."""
    tokens = tokenize(text)
    names.update(tokens)
    for a, b in zip(tokens, tokens[1:], strict=False):
        names.add(a + b if has_cjk(a) and has_cjk(b) else f"{a} {b}")
    whole = canonicalize(text, "topic")
    if len(whole) <= MAX_WHOLE_QUERY_NAME:
        names.add(whole)
    for name in extra:
        names.add(canonicalize(name, "topic"))
        names.add(name.strip().casefold())
    keys = sorted({m.group().rstrip(".:") for m in _KEY_RE.finditer(text)})
    return SeedSpec(
        names=sorted(n for n in names if n),
        keys=keys,
        uris=sorted(uris),
        fts=lucene_query(text),
    )


def exact_name_match(row: Row, names: Collection[str]) -> str | None:
    """How a full-text entity hit is named exactly by the query: ``alias`` (one of its aliases is one of the
    query's names) or ``ref`` (a ref's entity, by its title), else None. Exact names are found by index in
    ``relational_seeds``; aliases and titles come through the full-text index, which holds them."""
    if not names:
        return None
    if any(isinstance(a, str) and a.casefold() in names for a in row.get("aliases") or []):
        return "alias"
    name = row.get("name")
    if row.get("kind") in REF_KINDS and isinstance(name, str) and name.casefold() in names:
        return "ref"
    return None


def select_seeds(rows: Sequence[Row], names: Collection[str] = ()) -> dict[str, tuple[float, Row]]:
    """Seed element id -> (weight, row): the strongest way each node was named, ``MAX_SEEDS`` at most.

    ``names``: the query's names (``SeedSpec.names``); a full-text entity hit one of whose aliases, or a
    ref entity whose title, is one of them counts as named (weight 1.0)."""
    best: dict[str, tuple[float, Row]] = {}
    wanted = set(names)

    def offer(eid: str, weight: float, row: Row) -> None:
        if eid not in best or weight > best[eid][0]:
            best[eid] = (weight, row)

    for row in rows:
        if row["via"] not in _FTS_VIAS:
            offer(row["eid"], float(row["weight"]), row)
        elif (via := exact_name_match(row, wanted)) is not None:
            offer(row["eid"], 1.0, {**row, "via": via})
    for via in _FTS_VIAS:
        hits = sorted((r for r in rows if r["via"] == via), key=lambda r: (-float(r["weight"]), str(r["id"])))[
            :FTS_SEEDS
        ]
        top = float(hits[0]["weight"]) if hits else 0.0
        for r in hits:
            # All-zero scores still matched: RediSearch's TF-IDF gives 0 to a term every document has.
            share = float(r["weight"]) / top if top > 0 else 1.0
            if share >= FTS_MIN_SHARE:
                offer(r["eid"], FTS_SEED_WEIGHT * share, r)
    ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], str(kv[1][1]["id"])))[:MAX_SEEDS]
    return dict(ranked)


# ---------------------------------------------------------------------------------------- subgraph
@dataclass
class Node:
    eid: str
    row: Row  # id, labels and the few properties that name the node
    depth: int
    parent: str | None = None  # element id of the node it was reached from (breadth-first tree)
    rel: str | None = None  # the relationship type it was reached by
    named: bool = True  # whether ``row`` holds what names it (a node reached by a hop: not until a path shows it)

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def labels(self) -> list[str]:
        return list(self.row.get("labels") or [])


@dataclass
class Subgraph:
    seeds: dict[str, float] = field(default_factory=dict)  # element id -> teleport weight
    nodes: dict[str, Node] = field(default_factory=dict)
    # (element id, element id, relationship type), the pair sorted -> edge weight
    edges: dict[tuple[str, str, str], float] = field(default_factory=dict)


def specificity(row: Mapping[str, Any]) -> float:
    """How specific an entity is: ``1 / ln(2 + turns that mention it)``; 1.0 for anything else.

    A name in two turns ties those turns strongly; a hub — a speaker, "I", 我们 — mentioned in hundreds
    ties everything to everything, weakly.
    """
    if "Entity" not in set(row.get("labels") or []):
        return 1.0
    turns = row.get("turn_count")
    return 1.0 / math.log(2.0 + float(turns or 0))


def _is_hub(row: Mapping[str, Any]) -> bool:
    return "Entity" in set(row.get("labels") or []) and int(row.get("turn_count") or 0) > HUB_TURNS


def edge_weight(rel: str, weight: float, damping: float = 1.0) -> float:
    """An edge's weight in the walk; ``damping`` is the specificity of the entity it touches.

    MENTIONS: the entity's specificity; RELATED_TO counts co-mentioned turns, a stronger but sub-linear
    tie (damped as MENTIONS); NEXT, a turn's conversational neighbour, half a mention's weight.
    """
    if rel == "RELATED_TO":
        return (1.0 + math.log(max(1.0, weight))) * damping
    if rel == "MENTIONS":
        return damping
    if rel == "NEXT":
        return NEXT_WEIGHT
    return 1.0


def node_label(row: Mapping[str, Any]) -> str:
    """A readable name for a path step: ``entity:<canonical>``, a memory key, ``turn:<session>/<turn>``..."""
    labels = set(row.get("labels") or [])
    if "Entity" in labels:
        return f"entity:{row.get('canonical') or row.get('name') or row['id']}"
    if "Memory" in labels:
        return str(row.get("key") or f"memory:{row['id']}")
    if "Turn" in labels:
        return f"turn:{row.get('session_id')}/{row.get('turn_id')}"
    if "Message" in labels:
        return f"message:{row.get('turn_id')}/{row.get('message_id')}"
    if "Chunk" in labels:
        return f"chunk:{row.get('document_id')}:{row.get('section_id')}:{row.get('chunk_index')}"
    if "Ref" in labels:
        return f"ref:{row.get('uri')}"
    return f"node:{row['id']}"


def explain_path(graph: Subgraph, eid: str) -> list[str]:
    """The breadth-first path from the node's seed to the node, as alternating node / relationship names."""
    steps: list[str] = []
    node: Node | None = graph.nodes[eid]
    if node is not None and node.parent is None and "Message" in node.labels:
        # A message that is itself a seed (one of the best exact or semantic hits) is explained by the
        # thing the question named that it mentions, when there is one: "entity:docker → MENTIONS → it".
        # (A memory key or a ref the query spells out is its own explanation.)
        named = _named_neighbour(graph, eid)
        if named is not None:
            return [node_label(graph.nodes[named[0]].row), named[1], node_label(node.row)]
    while node is not None:
        steps.append(node_label(node.row))
        if node.parent is None:
            break
        steps.append(str(node.rel))
        node = graph.nodes.get(node.parent)
    return list(reversed(steps))


def name_path_nodes(tx: Tx, graph: Subgraph, eids: Sequence[str]) -> None:
    """Read what names the nodes on these nodes' paths (``node_label``), in one query: the walk reads
    only ids, labels and turn counts for the thousands of nodes it touches."""
    wanted: set[str] = set()
    for eid in eids:
        named = _named_neighbour(graph, eid) if graph.nodes[eid].parent is None else None
        if named is not None:
            wanted.add(named[0])
        node: Node | None = graph.nodes[eid]
        while node is not None:
            wanted.add(node.eid)
            node = graph.nodes.get(node.parent) if node.parent is not None else None
    missing = sorted(e for e in wanted if not graph.nodes[e].named)
    for row in collected(tx.run("retrieve/relational_names", {"eids": missing})) if missing else []:
        node = graph.nodes[str(row["eid"])]
        node.row = {**node.row, **{k: v for k, v in row.items() if k != "eid"}}
        node.named = True


def _named_neighbour(graph: Subgraph, eid: str) -> tuple[str, str] | None:
    """The heaviest entity seed next to ``eid`` (element id, relationship type), or None."""
    best: tuple[tuple[float, str], str, str] | None = None
    for (a, b, rel), _ in graph.edges.items():
        if eid not in (a, b):
            continue
        other = b if a == eid else a
        near = graph.nodes.get(other)
        if near is None or other not in graph.seeds or near.parent is not None or "Entity" not in near.labels:
            continue
        rank = (-graph.seeds[other], other)
        if best is None or rank < best[0]:
            best = (rank, other, rel)
    return None if best is None else (best[1], best[2])


def personalised_pagerank(graph: Subgraph) -> dict[str, float]:
    """PageRank with the seeds as the teleport set; element id -> score (sums to 1).

    networkx's power iteration (``pagerank``: alpha ``PPR_ALPHA``, dangling mass teleported, L1 tolerance
    ``n × 1e-10``), run on a scipy matrix built straight from the edges: the same floats, without the
    graph object and ``x @ A``'s transpose on every step, which cost 3–4 ms of a relational query.
    Nodes by id and edges sorted, so equal inputs give equal floats. Should the iteration not converge, a
    plain decay by hop count (``0.5^depth``) ranks instead.
    """
    order = sorted(graph.nodes, key=lambda e: graph.nodes[e].id)
    index = {e: i for i, e in enumerate(order)}
    n = len(order)
    pair_weight: dict[tuple[str, str], float] = {}
    for (u, v, _), w in sorted(graph.edges.items()):
        pair_weight[(u, v)] = pair_weight.get((u, v), 0.0) + w
    rows: list[int] = []
    cols: list[int] = []
    weights: list[float] = []
    for (u, v), w in sorted(pair_weight.items()):
        i, j = index[u], index[v]
        pairs = ((i, j),) if i == j else ((i, j), (j, i))  # undirected: both ways, a self-loop once
        for r, c in pairs:
            rows.append(r)
            cols.append(c)
            weights.append(w)
    coords = (np.array(rows, dtype=int), np.array(cols, dtype=int))
    adjacency = sp.csr_array((np.array(weights, dtype=float), coords), shape=(n, n))
    out_weight = np.asarray(adjacency.sum(axis=1)).ravel()
    inverse = np.zeros(n)
    inverse[out_weight != 0] = 1.0 / out_weight[out_weight != 0]
    step = sp.csr_array(adjacency.multiply(inverse[:, None]).T)  # x @ P, as P^T @ x
    teleport = np.array([graph.seeds.get(e, 0.0) for e in order], dtype=float)
    teleport /= teleport.sum()
    dangling = np.flatnonzero(out_weight == 0)
    x = np.full(n, 1.0 / n)
    for _ in range(PPR_MAX_ITER):
        last = x
        x = PPR_ALPHA * (step @ x + x[dangling].sum() * teleport) + (1 - PPR_ALPHA) * teleport
        if np.abs(x - last).sum() < n * PPR_TOL:
            return dict(zip(order, x.tolist(), strict=True))
    return {e: 0.5 ** graph.nodes[e].depth for e in graph.nodes}


def side_of(node: Node, *, entities: bool) -> Side | None:
    labels = set(node.labels)
    if "Message" in labels:
        return "turn"
    if "Chunk" in labels:
        return "resource"
    if "Memory" in labels and ("Entity" not in labels or entities):
        return "memory"
    return None


# ---------------------------------------------------------------------------------------- retriever
class RelationalRetriever(Retriever):
    mode = Mode.relational

    def search(self, job: QueryJob) -> list[RankedList]:
        extra = job.hints.get("entities")
        names = [str(e) for e in extra] if isinstance(extra, list) else []
        try:
            spec = query_names(job.text, names, self.ctx.nlp)
        except Exception as e:  # a missing spaCy model must not take relational search down with it
            self.ctx.warnings.append(
                f"queries[{job.index}] (relational): entity detection failed ({type(e).__name__}: {e}); "
                "seeded from the query's words only"
            )
            spec = _with_tokens(job.text, set(), set(), names)
        prior = self.prior_seeds(job)
        memory_types = job.params.get("memory", {}).get("types") or []
        warning = (
            f"queries[{job.index}] (relational): the query names no entity, task, decision or ref "
            "of this namespace; there was nothing to traverse from"
        )

        def walk(tx: Tx) -> list[RankedList] | None:
            # One read transaction, a query per step: seeds, full-text seeds, a hop each, a filter per
            # side, and the hits' path names once for all sides.
            graph = self.traverse(tx, spec, self.hops(job), prior)
            if not graph.seeds:
                return None
            scores = personalised_pagerank(graph)
            wanted: dict[Side, list[Node]] = {side: [] for side in SIDES}
            for node in graph.nodes.values():
                side = side_of(node, entities="entities" in memory_types)
                if side in job.sides:
                    wanted[side].append(node)
            by_id = {node.id: node for node in graph.nodes.values()}
            hits: dict[Side, list[Row]] = {}
            for side in job.sides:
                nodes = sorted(wanted[side], key=lambda n: (-scores[n.eid], n.id))
                params = {**job.params[side], "ids": [n.id for n in nodes]}
                rows = collected(tx.run(f"retrieve/relational_{SIDE_FILE[side]}", params)) if nodes else []
                hits[side] = sorted(
                    ({**r, "score": scores[by_id[str(r["id"])].eid]} for r in rows),
                    key=lambda r: (-float(r["score"]), str(r["id"])),
                )[: job.limit]
            name_path_nodes(tx, graph, [by_id[str(r["id"])].eid for side in job.sides for r in hits[side]])
            out = []
            for side in job.sides:
                paths = {str(r["id"]): explain_path(graph, by_id[str(r["id"])].eid) for r in hits[side]}
                out.append(self.ranked_list(job, side, hits[side], paths=paths))
            return out

        lists = self.ctx.store.read(walk)
        if lists is None:
            self.ctx.warnings.append(warning)
            return [self.ranked_list(job, side, []) for side in job.sides]
        return lists

    def hops(self, job: QueryJob) -> int:
        hinted = job.hints.get("hops")
        if isinstance(hinted, int) and not isinstance(hinted, bool):
            return max(1, min(MAX_HOPS, hinted))
        return self.ctx.config.relational_hops

    def prior_seeds(self, job: QueryJob) -> dict[Side, dict[str, float]]:
        """The best exact and semantic hits of this query's text (side → node id → weight)."""
        out: dict[Side, dict[str, float]] = {"turn": {}, "memory": {}}
        for lst in self.ctx.found:
            if lst.query_text != job.text or lst.mode not in (Mode.exact, Mode.semantic, Mode.hybrid):
                continue
            top = lst.candidates[:PRIOR_SEEDS]
            best = max((c.raw_score for c in top), default=0.0)
            for c in top:
                if c.side not in out or best <= 0:
                    continue
                node = str(c.metadata["node_id"])
                weight = PRIOR_SEED_WEIGHT * c.raw_score / best
                out[c.side][node] = max(out[c.side].get(node, 0.0), weight)
        return out

    def traverse(
        self, tx: Tx, spec: SeedSpec, hops: int, prior: Mapping[Side, Mapping[str, float]] | None = None
    ) -> Subgraph:
        """Seeds, then ``hops`` hops, in one transaction (element ids stay valid in it).

        Each hop expands the ``MAX_FRONTIER`` nodes the walk's mass reached most (a push-style
        approximation of the PageRank that ranks them afterwards): a node passes its mass on, split
        over its edges by weight, so hubs spread thin and specific links carry.
        """
        graph = Subgraph()
        prior = prior or {}
        rows = tx.run(
            "retrieve/relational_seeds",
            {
                "namespace": self.ctx.namespace,
                "names": spec.names,
                "keys": spec.keys,
                "uris": spec.uris,
                "messages": sorted(prior.get("turn", {})),
                "memories": sorted(prior.get("memory", {})),
            },
        )
        found = [r for r in rows if r["via"] == "prior"]
        rows = [r for r in rows if r["via"] != "prior"]
        if spec.fts is not None:
            # The full-text indexes are global: widen k per index until this namespace's best hits are in.
            # More entity hits than seeds are read: an alias or a ref title said exactly is a seed of its own.
            for name, limit in zip(FTS_SEED_QUERIES, (FTS_NAME_CANDIDATES, FTS_SEEDS), strict=True):
                rows += self.index_search(tx, name, {"namespace": self.ctx.namespace, "fts": spec.fts}, limit)
        for eid, (weight, row) in select_seeds(rows, spec.names).items():
            graph.seeds[eid] = weight * specificity(row)
            graph.nodes[eid] = Node(eid=eid, row=row, depth=0)
        for row in found:
            side: Side = "turn" if "Message" in (row.get("labels") or []) else "memory"
            weight = prior.get(side, {}).get(str(row["id"]), 0.0)
            eid = row["eid"]
            if weight > graph.seeds.get(eid, 0.0):
                graph.seeds[eid] = weight
            graph.nodes.setdefault(eid, Node(eid=eid, row=row, depth=0))
        mass = dict(graph.seeds)
        frontier = sorted(
            (e for e in graph.seeds if not _is_hub(graph.nodes[e].row)), key=lambda e: (-mass[e], graph.nodes[e].id)
        )[:MAX_FRONTIER]
        for hop in range(1, hops + 1):
            if not frontier:
                break
            expanded = collected(
                tx.run(
                    "retrieve/relational_expand",
                    {"namespace": self.ctx.namespace, "frontier": frontier, "fanout": FANOUT},
                )
            )
            position = {eid: i for i, eid in enumerate(frontier)}
            expanded.sort(key=lambda r: (position[r["src"]], r["rel"], str(r["id"])))
            weights: dict[str, list[tuple[str, str, float]]] = {}
            for r in expanded:
                src, dst, rel = r["src"], r["dst"], r["rel"]
                if dst not in graph.nodes:
                    if len(graph.nodes) >= MAX_NODES:
                        continue
                    graph.nodes[dst] = Node(eid=dst, row=r, depth=hop, parent=src, rel=rel, named=False)
                damping = min(specificity(graph.nodes[src].row), specificity(r))
                w = edge_weight(rel, float(r["weight"]), damping)
                u, v = sorted((src, dst))
                graph.edges[(u, v, rel)] = w
                weights.setdefault(src, []).append((dst, rel, w))
            pushed: dict[str, float] = {}
            for src, out in weights.items():
                total = sum(w for _, _, w in out)
                for dst, _, w in out:
                    pushed[dst] = pushed.get(dst, 0.0) + mass.get(src, 0.0) * PPR_ALPHA * w / total
            for eid, m in pushed.items():
                mass[eid] = mass.get(eid, 0.0) + m
            reached = [e for e in pushed if graph.nodes[e].depth == hop and not _is_hub(graph.nodes[e].row)]
            frontier = sorted(reached, key=lambda e: (-mass[e], graph.nodes[e].id))[:MAX_FRONTIER]
        return graph
