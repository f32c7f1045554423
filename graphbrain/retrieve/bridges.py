"""A turn inherits part of the score of the turns it shares a specific thing with: the chain to the answer.

"Who is on call if the checkout flow breaks?" matches the turn that says the checkout flow calls the
pricing engine; the answer is in another turn, weeks later, that says who carries the pricing engine's
pager — it shares no word with the question, only the *pricing engine* with the turn that matched. So
after fusion, each of the ``BRIDGE_POOL`` best message candidates passes ``BRIDGE_SHARE`` of its fused
score to every other message that mentions one of its entities, split evenly among them (an entity
mentioned in two turns ties them fully; one in twenty spreads the same share twenty ways, so hubs — the
speakers, "I", 我们 — carry next to nothing), and that gain travels on the same way for ``BRIDGE_HOPS``
hops in all (a three-turn chain is two hops; a message passes on its own fused score plus what it
inherited). Entities in more than ``BRIDGE_MAX_TURNS`` turns are no bridge at all, nor is an entity the
question names: the lists already lift every turn that names it, and a chain is what the question does
not say. The chains start from the fused scores, as the neighbour spread does, so neither spread
compounds the other (``reach_bridges`` reads, ``add_bridges`` applies). A message no list found joins
the pool as a relational hit whose ``path`` is the chain (``[that turn, MENTIONS, entity:pricing engine,
MENTIONS, this turn]``); every gain is in ``signals["bridge_score"]``. One query per hop
(``retrieve/bridge_turns``); the executor does this for plans with a relational query, as it spreads to
conversational neighbours (``retrieve.neighbours``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphbrain.contracts import Mode
from graphbrain.nlp.entities import known_names
from graphbrain.retrieve.candidate import Candidate
from graphbrain.retrieve.snippets import turn_evidence_id
from graphbrain.store.base import Tx, collected

# Measured on the relational set and LoCoMo dev (graphbrain bench relational / locomo): 0.5 gave
# multi-hop recall@10 0.90 en / 0.85 zh and LoCoMo 0.82; 0.75 gives 0.96 / 0.91 and 0.79; 0.8 no more.
# Bridging from neighbour-boosted scores held LoCoMo retrieve R@10 at 0.76; from the fused scores it is
# 0.80, but alone it dropped the Chinese three-hop chains on Neo4j to 0.89. Not bridging through what the
# question names gave them back (0.91–0.93) and LoCoMo lost nothing. A pool of 3–5, a cap on bridged
# turns, a share split per source turn, max instead of sum, or a stricter entity specificity all lost more.
BRIDGE_SHARE = 0.75
BRIDGE_HOPS = 2
BRIDGE_POOL = 20  # message candidates whose entities are followed (the rest could not lift anything high)
BRIDGE_MAX_TURNS = 8  # past this a share is split so thin (1/7 and less) that it moves nothing


@dataclass
class Reach:
    gain: float
    source: Candidate  # the candidate the chain started from
    path: list[str]
    turn_id: str | None
    session_id: str | None


def _label(session_id: str | None, turn_id: str | None) -> str:
    return f"turn:{session_id}/{turn_id}"


def _asked(entities: set[str], question: str, question_entities: Sequence[str]) -> set[str]:
    """The entities the question names: said in it ("Atlas"), or holding a name it says ("天穹项目" for 天穹)."""
    asked = {c.canonical for c in known_names(question, {e: ("", e) for e in entities})}
    names = {n: ("", n) for n in [*question_entities, *asked]}
    return asked | {e for e in entities - asked if names and known_names(e, names)}


def reach_bridges(
    tx: Tx,
    namespace: str,
    fused: Sequence[Candidate],
    *,
    question: str = "",
    question_entities: Sequence[str] = (),
    share: float = BRIDGE_SHARE,
    hops: int = BRIDGE_HOPS,
    pool: int = BRIDGE_POOL,
    max_turns: int = BRIDGE_MAX_TURNS,
) -> dict[str, Reach]:
    """Message node id → the best chain that reaches it from the fused candidates, and its gain.

    Reads the candidates' scores and changes nothing, so the neighbour spread can start from the same
    fused scores (``add_bridges`` applies the gains afterwards), and a retried read transaction can run
    it again. ``tx``: an open read transaction, or the store itself (a transaction per query).
    """
    by_node: dict[str, Candidate] = {
        str(c.metadata["node_id"]): c for c in fused if c.side == "turn" and c.metadata.get("node_id")
    }
    frontier: dict[str, tuple[float, list[str], Candidate]] = {}
    for c in [c for c in fused if c.side == "turn"][:pool]:
        node = str(c.metadata["node_id"])
        frontier[node] = (c.score, [_label(c.session_id, c.turn_id)], c)
    reached: dict[str, Reach] = {}
    for _ in range(hops):
        if not frontier:
            break
        rows = collected(
            tx.run(
                "retrieve/bridge_turns",
                {"namespace": namespace, "ids": sorted(frontier), "max_turns": max_turns},
            )
        )
        if question:
            # An entity the question names already lifts, through the lists, every turn that names it;
            # bridging through it again counts the same match twice. A chain goes through what it does not name.
            asked = _asked({str(r["entity"]) for r in rows}, question, question_entities)
            rows = [r for r in rows if str(r["entity"]) not in asked]
        fan: dict[tuple[str, str], int] = {}
        for r in rows:
            key = (str(r["src"]), str(r["entity"]))
            fan[key] = fan.get(key, 0) + 1
        nxt: dict[str, tuple[float, list[str], Candidate]] = {}
        for r in sorted(rows, key=lambda r: (str(r["src"]), str(r["entity"]), str(r["dst"]))):
            src, dst, entity = str(r["src"]), str(r["dst"]), str(r["entity"])
            score, path, source = frontier[src]
            gain = share * score / fan[(src, entity)]
            # A chain never returns to where it started; otherwise the best way to each message wins.
            if dst == str(source.metadata.get("node_id")) or gain <= (reached[dst].gain if dst in reached else 0.0):
                continue
            chain = [*path, "MENTIONS", f"entity:{entity}", "MENTIONS", _label(r.get("session_id"), r.get("turn_id"))]
            reached[dst] = Reach(gain, source, chain, r.get("turn_id"), r.get("session_id"))
            if gain > nxt.get(dst, (0.0, [], source))[0]:
                nxt[dst] = (gain, chain, source)
        # The next hop passes on what each message now holds: its own fused score (when a list found it)
        # plus what it inherited, so a chain's middle turn that also matched the question carries further.
        frontier = dict(
            sorted(
                (
                    (node, ((by_node[node].score if node in by_node else 0.0) + gain, chain, source))
                    for node, (gain, chain, source) in nxt.items()
                ),
                key=lambda kv: (-kv[1][0], kv[0]),
            )[:pool]
        )
    return reached


def add_bridges(candidates: Sequence[Candidate], reached: Mapping[str, Reach]) -> list[Candidate]:
    """The candidates with their bridge gains added, plus the messages the chains reached, best first."""
    by_node: dict[str, Candidate] = {
        str(c.metadata["node_id"]): c for c in candidates if c.side == "turn" and c.metadata.get("node_id")
    }
    out = list(candidates)
    for node, reach in reached.items():
        known = by_node.get(node)
        if known is not None:
            known.score += reach.gain
            known.signals["bridge_score"] = round(reach.gain, 6)
            known.path = known.path or reach.path
            continue
        joined = Candidate(
            id=turn_evidence_id(node),
            side="turn",
            text="",
            mode=Mode.relational,
            query_index=reach.source.query_index,
            query_text=reach.source.query_text,
            weight=reach.source.weight,
            turn_id=reach.turn_id,
            session_id=reach.session_id,
            message_id=node,
            metadata={"node_id": node},
            signals={"bridge_score": round(reach.gain, 6)},
            score=reach.gain,
            path=reach.path,
        )
        out.append(joined)
    return sorted(out, key=lambda c: (-c.score, c.id))
