"""The benchmark scorer on hand-made data: known evidence, known recall.

The pure part needs nothing; the end-to-end part runs ``run_locomo`` on a 6-turn conversation written
here, against the real Neo4j (in a namespace of its own, never wiping the graph), and checks the BM25
baseline's figures against values computed by hand below.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from graphbrain.bench.baselines import BM25Baseline, rrf
from graphbrain.bench.scoring import (
    QuestionScore,
    aggregate,
    normalise_dia_ids,
    normalise_evidence,
    percentile,
    ratio,
    recall_at_k,
    recall_by_k,
    summarise_latencies,
)


# =================================================================================== pure scoring
def test_recall_at_k_counts_items_not_distinct_ids() -> None:
    retrieved = ["D1:1", None, "D1:1", "D2:3", "D1:4"]
    assert recall_at_k(retrieved, ["D1:1", "D2:3"], 1) == 0.5
    assert recall_at_k(retrieved, ["D1:1", "D2:3"], 3) == 0.5  # the repeat and the unmapped item take places
    assert recall_at_k(retrieved, ["D1:1", "D2:3"], 4) == 1.0
    assert recall_at_k(retrieved, ["D9:9"], 5) == 0.0
    assert recall_at_k([], ["D1:1"], 5) == 0.0
    assert recall_at_k(retrieved, [], 5) is None  # no evidence: no recall
    assert recall_at_k(retrieved, ["D1:1", "D1:1"], 1) == 1.0  # evidence is a set
    with pytest.raises(ValueError):
        recall_at_k(retrieved, ["D1:1"], 0)


def test_recall_by_k() -> None:
    assert recall_by_k(["D1:2", "D1:3", "D1:1"], ["D1:1", "D1:3"], [1, 2, 3]) == {1: 0.0, 2: 0.5, 3: 1.0}
    assert recall_by_k(["D1:2"], [], [1]) is None


def test_normalise_dia_ids_repairs_malformed_ids() -> None:
    assert normalise_dia_ids("D1:3") == ["D1:3"]
    assert normalise_dia_ids("D8:6; D9:17") == ["D8:6", "D9:17"]
    assert normalise_dia_ids(" D:11:26 ") == ["D11:26"]
    assert normalise_dia_ids("D10:05") == ["D10:5"]
    assert normalise_dia_ids("d2 : 7") == ["D2:7"]
    assert normalise_dia_ids("nonsense") == []


def test_normalise_evidence_against_the_conversation() -> None:
    known = {"D1:1", "D1:2", "D8:6", "D9:17"}
    valid, dropped = normalise_evidence(["D8:6; D9:17", "D1:1", "D1:01", "D7:7", "??"], known)
    assert valid == ["D8:6", "D9:17", "D1:1"]  # D1:01 is D1:1 again
    assert dropped == ["D7:7", "??"]
    assert normalise_evidence(["D7:7"]) == (["D7:7"], [])  # no conversation given: only the syntax counts


def test_aggregate_by_category_and_overall() -> None:
    scores = [
        QuestionScore(1, {1: 0.5, 3: 1.0}),
        QuestionScore(1, {1: 0.0, 3: 0.5}),
        QuestionScore(4, {1: 1.0, 3: 1.0}),
        QuestionScore(4, None),  # no evidence: in no row
        QuestionScore(5, {1: 0.0, 3: 0.0}),  # adversarial: its own row, not overall
    ]
    agg = aggregate(scores, [1, 3])
    assert agg["1"] == {"n": 2, "r@1": 0.25, "r@3": 0.75}
    assert agg["4"] == {"n": 1, "r@1": 1.0, "r@3": 1.0}
    assert agg["5"] == {"n": 1, "r@1": 0.0, "r@3": 0.0}
    assert agg["overall"] == {"n": 3, "r@1": 0.5, "r@3": pytest.approx(2.5 / 3)}
    assert aggregate([], [1])["overall"] == {"n": 0, "r@1": None}


def test_percentiles_and_ratio() -> None:
    assert percentile([], 50) is None
    assert percentile([7.0], 95) == 7.0
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile(range(1, 101), 95) == pytest.approx(95.05)
    assert summarise_latencies([10.0, 20.0, 30.0]) == {"n": 3, "mean": 20.0, "p50": 20.0, "p95": 29.0}
    assert ratio(0.3, 0.6) == 0.5
    assert ratio(0.3, 0.0) is None
    assert ratio(None, 0.5) is None


def test_rrf_and_bm25_tie_breaks() -> None:
    # a: 1/61; b: 1/62 + 1/61; c: 1/62
    assert rrf([["a", "b"], ["b", "c"]], k=60) == ["b", "a", "c"]
    assert rrf([["a"], ["b"]]) == ["a", "b"]  # a tie goes to the id seen first
    assert rrf([]) == []
    docs = [
        ("x", "red apples"),
        ("y", "green pears"),
        ("z", "red apples with more words here"),  # tokens: red apples words
        ("w", "blue sky"),
        ("v", "yellow sun"),
    ]
    bm25 = BM25Baseline(docs)
    assert bm25.rank("pears") == ["y"]  # only matching turns
    assert bm25.rank("the of") == []  # stop words only
    assert bm25.rank("red apples") == ["x", "z"]  # same terms, the shorter turn first
    assert BM25Baseline([]).rank("anything") == []


# =================================================================================== end to end
# Six dialog turns in two sessions, in LoCoMo's format. BM25 tokens (graphbrain.nlp.tokenize: lowercase,
# stop words out, no stemming) of each turn, as the expected figures below rely on them:
#   D1:1  hi bob adopted puppy named biscuit last weekend                        (8 tokens)
#   D1:2  congrats started learning cello january                                 (5)
#   D1:3  biscuit loves beach near lisbon image photo dog sand                    (9, with the caption)
#   D2:1  cello teacher says improved lot                                         (5)
#   D2:2  moved porto new job bakery                                              (5)
#   D2:3  porto beautiful visited 2019                                            (4)
CONVERSATION: dict[str, Any] = {
    "speaker_a": "Ana",
    "speaker_b": "Bob",
    "session_1_date_time": "10:00 am on 1 March, 2023",
    "session_1": [
        {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Bob! I adopted a puppy named Biscuit last weekend."},
        {"speaker": "Bob", "dia_id": "D1:2", "text": "Congrats! I started learning the cello in January."},
        {
            "speaker": "Ana",
            "dia_id": "D1:3",
            "text": "Biscuit loves the beach near Lisbon.",
            "img_url": ["https://example.org/dog.jpg"],
            "blip_caption": "a photo of a dog on the sand",
            "query": "never read: an annotation",
        },
    ],
    "session_2_date_time": "4:30 pm on 15 April, 2023",
    "session_2": [
        {"speaker": "Bob", "dia_id": "D2:1", "text": "My cello teacher says I improved a lot."},
        {"speaker": "Ana", "dia_id": "D2:2", "text": "I moved to Porto for a new job at a bakery."},
        {"speaker": "Bob", "dia_id": "D2:3", "text": "Porto is beautiful; I visited it in 2019."},
    ],
    # Annotations: never fed into memory (their words appear in no question's expected hits).
    "events_session_1": {"Ana": ["Ana adopts a dog"], "Bob": []},
    "qa": [
        # "name puppy": only D1:1 matches → rank 1.                         r@1 1.0, r@3 1.0
        {"question": "What is the name of the puppy?", "answer": "Biscuit", "evidence": ["D1:1"], "category": 4},
        # "cello teacher say": D2:1 has cello + teacher, D1:2 cello only; one malformed evidence string.
        #                                                                    r@1 0.5, r@3 1.0
        {
            "question": "What did the cello teacher say?",
            "answer": "improved",
            "evidence": ["D1:2; D2:1"],
            "category": 1,
        },
        # "pet": in no turn, but the baselines index "[date] speaker: text", so "Ana" finds her three turns;
        # D1:1 is the shortest of the equal scores → first.                  r@1 1.0, r@3 1.0
        {"question": "Which pet does Ana have?", "answer": "a dog", "evidence": ["D1:1"], "category": 4},
        # "ana porto": D2:3 (porto) scores above D2:2 (ana, porto) — "ana" is in half the turns and D2:3 is
        # shorter — then D2:2.                                               r@1 0.0, r@3 1.0
        {"question": "When did Ana move to Porto?", "answer": "April 2023", "evidence": ["D2:2"], "category": 2},
        # "biscuit swimming": D1:1 (8 tokens) before D1:3 (9); adversarial.  r@1 0.0, r@3 1.0
        {
            "question": "Where does Biscuit go swimming?",
            "adversarial_answer": "the lake",
            "evidence": ["D1:3"],
            "category": 5,
        },
        # Evidence that names no turn: not scored.
        {"question": "What is Bob's job?", "answer": "n/a", "evidence": ["D7:7"], "category": 4},
    ],
}
# Hand-computed from the comments above: per category and overall (categories 1-4).
EXPECTED_BM25 = {
    "1": {"n": 1, "r@1": 0.5, "r@3": 1.0},
    "2": {"n": 1, "r@1": 0.0, "r@3": 1.0},
    "4": {"n": 2, "r@1": 1.0, "r@3": 1.0},
    "5": {"n": 1, "r@1": 0.0, "r@3": 1.0},
    "overall": {"n": 4, "r@1": (1.0 + 0.5 + 1.0 + 0.0) / 4, "r@3": (1.0 + 1.0 + 1.0 + 1.0) / 4},
}


@pytest.fixture()
def conversation_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    return path


def test_loader_reads_only_the_dialog(conversation_file: Path) -> None:
    from graphbrain.bench.locomo_data import load_conversation

    conv = load_conversation(conversation_file)
    assert conv.sample_id == "tiny"
    assert [t.dia_id for t in conv.turns] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2", "D2:3"]
    assert conv.turns[2].content == "Biscuit loves the beach near Lisbon. [image: a photo of a dog on the sand]"
    assert all("annotation" not in t.content and "adopts" not in t.content for t in conv.turns)
    assert conv.turns[3].at.isoformat() == "2023-04-15T16:30:00+00:00"
    assert conv.question_time.isoformat() == "2023-04-16T16:30:00+00:00"
    assert conv.questions[1].evidence == ("D1:2", "D2:1")
    assert conv.questions[5].evidence == () and conv.questions[5].dropped_evidence == ("D7:7",)


def _figures(report: dict[str, Any], system: str) -> dict[str, Any]:
    return report["systems"][system]["recall"]


def test_run_locomo_end_to_end(neo4j_uri: str, schema_ready: None, conversation_file: Path, tmp_path: Path) -> None:
    from graphbrain import Brain
    from graphbrain.bench.locomo import run_locomo
    from graphbrain.config import load_config
    from graphbrain.store.neo4j_store import Neo4jStore

    root = Path(__file__).resolve().parents[2]
    prefix = f"t{uuid.uuid4().hex[:8]}"
    # A data dir of its own: the commit journal of this test is nobody else's.
    config = load_config(
        root / "brain.yml",
        overrides={"storage.neo4j.uri": neo4j_uri, "storage.data_dir": str(tmp_path / "data")},
    )

    def factory() -> Brain:
        return Brain(config, Neo4jStore(config.storage.neo4j))

    first = run_locomo(factory, [conversation_file], ks=(1, 3), namespace_prefix=prefix)
    second = run_locomo(factory, [conversation_file], ks=(1, 3), namespace_prefix=prefix)

    bm25 = _figures(first, "bm25")
    for row, expected in EXPECTED_BM25.items():
        assert bm25[row]["n"] == expected["n"], row
        for col in ("r@1", "r@3"):
            assert bm25[row][col] == pytest.approx(expected[col]), (row, col)
    assert first["conversations"][0]["unscored"] == [5]
    assert first["conversations"][0]["dropped_evidence"] == [{"index": 5, "raw": ["D7:7"]}]

    for system in ("graphbrain-compose", "graphbrain-retrieve", "dense", "dense-english", "hybrid-rrf"):
        figures = _figures(first, system)
        for row in figures.values():
            for col in ("r@1", "r@3"):
                assert row[col] is None or 0.0 <= row[col] <= 1.0
        assert figures == _figures(second, system), system  # same input, same figures
        ids_first = [q["systems"][system]["ids"] for q in first["questions"]]
        ids_second = [q["systems"][system]["ids"] for q in second["questions"]]
        assert ids_first == ids_second, system

    # The namespace is removed afterwards (keep=False): nothing of the run stays in the graph.
    with factory() as brain:
        from graphbrain.bench.harness import namespace_counts

        ns = first["conversations"][0]["namespace"]
        assert ns.startswith(f"{prefix}-tiny-")
        assert all(v == 0 for v in namespace_counts(brain.store, ns).values())


# =================================================================================== the scale data
def test_generator_is_seeded_and_keeps_one_active_item_per_key() -> None:
    from graphbrain.bench.scale import parse_sizes
    from graphbrain.bench.synth import SessionGenerator

    assert parse_sizes("10000, 2000,2000") == [2000, 10000]
    with pytest.raises(ValueError):
        parse_sizes("0")

    def stream(seed: int) -> list[tuple[str, str, list[str]]]:
        gen = SessionGenerator("ns", seed)
        turns = [gen.next_turn() for _ in range(400)]
        return [(t.turn_node_id, t.messages[0].content, [i.key for i in t.items]) for t in turns]

    assert stream(7) == stream(7)
    assert stream(7) != stream(8)
    gen = SessionGenerator("ns", 7)
    items = [it for _ in range(600) for it in gen.next_turn().items]
    active = [it for it in items if it.superseded_at is None]
    assert len({it.key for it in active}) == len(active)  # one active item per key
    assert {it.key for it in items} == {it.key for it in active}
    assert any(it.edge == "SUPERSEDES" for it in items) and any(it.edge == "VERSION_OF" for it in items)
    langs = {("zh" if any("\u4e00" <= ch <= "\u9fff" for ch in it.text) else "en") for it in items}
    assert langs == {"en", "zh"}


def test_bulk_loader_writes_commit_turn_shapes(neo4j_uri: str, schema_ready: None, tmp_path: Path) -> None:
    from graphbrain import Brain
    from graphbrain.bench.bulk import bulk_load
    from graphbrain.bench.harness import delete_namespace, namespace_counts
    from graphbrain.bench.synth import SessionGenerator
    from graphbrain.bench.synth_vocab import LIVE_PROJECTS_EN, LIVE_PROJECTS_ZH
    from graphbrain.config import load_config
    from graphbrain.store.neo4j_store import Neo4jStore

    root = Path(__file__).resolve().parents[2]
    config = load_config(
        root / "brain.yml",
        overrides={"storage.neo4j.uri": neo4j_uri, "storage.data_dir": str(tmp_path / "data")},
    )
    ns = f"t{uuid.uuid4().hex[:10]}"
    with Brain(config, Neo4jStore(config.storage.neo4j)) as brain:
        try:
            gen = SessionGenerator(ns, 3)
            bulk_load(brain, gen, 150, batch_turns=40)
            live = SessionGenerator(ns, 4, session_prefix="live", projects=(LIVE_PROJECTS_EN, LIVE_PROJECTS_ZH))
            for _ in range(3):  # the real path on top of bulk data
                turn = live.next_turn()
                events = {
                    "turn_id": turn.turn_id,
                    "at": turn.at,
                    "namespace": ns,
                    "messages": [
                        {"message_id": m.message_id, "role": m.role, "content": m.content} for m in turn.messages
                    ],
                }
                assert brain.commit_turn(turn.session_id, events).status == "committed"
            bulk_load(brain, gen, 300, batch_turns=40)
            counts = namespace_counts(brain.store, ns)
            assert counts["memory_items"] >= 300 and counts["entities"] > 0
            assert counts["messages"] == 2 * counts["turns"]
            # Every key has exactly one active item, and every item came from a turn and a message.
            store = brain.store
            rows = store.cypher(
                "MATCH (m:Memory) WHERE m.namespace = $ns AND NOT m:Entity "
                "RETURN m.key AS key, sum(CASE WHEN m.status = 'active' THEN 1 ELSE 0 END) AS active, "
                "min(COUNT { (m)-[:DERIVED_FROM]->(:Turn) }) AS turns, "
                "min(COUNT { (m)-[:DERIVED_FROM]->(:Message) }) AS msgs, "
                "min(size(m.embedding)) AS dim",
                {"ns": ns},
                row_cap=100000,
            ).rows
            assert rows and all(r["active"] == 1 for r in rows)
            assert all(r["turns"] == 1 and r["msgs"] == 1 and r["dim"] == config.embedding.dimension for r in rows)
            # Retrieval finds bulk data in both languages through the ordinary path.
            for question in ("What did we decide for the cache layer?", "缓存层用什么？"):
                pack = brain.retrieve(
                    {"version": "0.1", "queries": [{"text": question, "mode": "hybrid"}], "budget": {"top_k": 5}},
                    namespace=ns,
                )
                assert pack.evidences
        finally:
            delete_namespace(brain.store, ns)
