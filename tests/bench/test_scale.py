"""The scale bench: its generator's long tail, its vector cache, the node shapes of its bulk loader against
real commits, and a tiny run on each backend (report structure, node shapes; never timings).

The database-backed tests take ``brain_factory``, so they run on every backend of
``GRAPHBRAIN_TEST_BACKENDS``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from graphbrain import Brain
from graphbrain.bench.bulk import Embeddings, LoadStats, bulk_load
from graphbrain.bench.harness import delete_namespace, namespace_shapes
from graphbrain.bench.report import format_scale
from graphbrain.bench.scale import (
    CRITERIA,
    FIGURE_LABELS,
    PART_LABELS,
    floor_namespace,
    run_scale,
    scale_criteria,
)
from graphbrain.bench.synth import SPECIFIC_RANKS, SessionGenerator, specific_name, zipf_rank
from graphbrain.bench.synth_vocab import LIVE_PROJECTS_EN, LIVE_PROJECTS_ZH
from graphbrain.nlp import canonicalize

BrainFactory = Callable[..., Brain]


# =================================================================================== pure
def test_specific_names_are_distinct_and_the_entities_grow_with_the_data() -> None:
    rng = random.Random(3)
    ranks = [zipf_rank(rng) for _ in range(20_000)]
    assert all(1 <= r <= SPECIFIC_RANKS for r in ranks)
    assert ranks.count(1) > ranks.count(2) > ranks.count(10) > 0  # a Zipf head ...
    assert len(set(ranks)) > 3_000  # ... and a long tail
    sample = random.Random(4).sample(range(1, SPECIFIC_RANKS + 1), 3_000)
    for kind, entity_kind in (("ticket", "other"), ("file", "file"), ("person", "person"), ("customer", "org")):
        names = [specific_name(kind, r) for r in sample]
        assert len({canonicalize(n, entity_kind) for n in names}) == len(names), kind
    zh = [specific_name("person", r, zh=True) for r in sample]
    assert len(set(zh)) == len(zh)

    gen = SessionGenerator("ns", 11)
    seen = []
    for turns in (2_000, 8_000):
        while gen.turns_made < turns:
            gen.next_turn()
        seen.append(len(gen.entities))
    assert seen[1] > 2.5 * seen[0]  # a fixed cast would barely grow
    again = SessionGenerator("ns", 11)
    while again.turns_made < 2_000:
        again.next_turn()
    assert again.specific_mentions == gen.specific_mentions[: len(again.specific_mentions)]
    assert any("PAY-" in q or "INC-" in q or "/" in q for q in gen.questions(60))


class _CountingEmbedder:
    name = "counting:test-model"
    dim = 4

    def __init__(self) -> None:
        self.texts = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts += len(texts)
        return [[float(len(t)), 1.0, 0.0, 0.5] for t in texts]

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0]


def test_vector_cache_outlives_the_loader(tmp_path: Path) -> None:
    main, english = _CountingEmbedder(), _CountingEmbedder()
    english.name = "counting:english"
    first = Embeddings(main, english, LoadStats(), tmp_path)  # type: ignore[arg-type]
    texts = ["Got it.", "TODO: fix the login page.", "Got it.", "", "好的，谢谢"]
    out = first.strings(texts)
    assert out[0] == out[2] and out[3] is None and out[0] != out[1]
    assert main.texts == 3  # each distinct text once
    assert first.strings(["Got it."], english=True)[0] is not None and english.texts == 1
    first.flush()

    stats = LoadStats()
    second = Embeddings(main, english, stats, tmp_path)  # type: ignore[arg-type]
    assert second.strings(texts) == out
    assert main.texts == 3 and stats.embedded == 0 and stats.cached == 3  # nothing embedded again
    assert second.strings(["Got it."], english=True)[0] is not None and english.texts == 1
    assert Embeddings(main, None, LoadStats(), tmp_path).strings(["x"], english=True) == [None]  # type: ignore[arg-type]


def test_criteria_from_two_sizes() -> None:
    def size(compose: tuple[float, float], floor95: float, relational95: float, commit50: float) -> dict[str, Any]:
        return {
            "figures": {
                "compose_context": {
                    "p50": compose[0],
                    "p95": compose[1],
                    "floor": {"p95": floor95},
                    "x_p95": compose[1] / floor95,
                },
                "retrieve:relational": {"p95": relational95, "floor": {"p95": 10.0}, "x_p95": relational95 / 10.0},
                "commit_turn": {"p50": commit50, "floor": {"p50": 40.0}, "x_p50": commit50 / 40.0},
            },
            "ingest": {"chunks_per_s": 30.0, "model_texts_per_s": 200.0, "share_of_model": 0.15},
        }

    crit = {c["criterion"]: c for c in scale_criteria([size((50, 100), 40, 20, 60), size((60, 200), 50, 40, 200)])}
    assert [c[0] for c in CRITERIA] == list(crit)
    assert crit["compose_p95_x_floor"]["ok"] is False and crit["compose_p95_x_floor"]["value"] == 4.0
    assert crit["compose_p95_growth"]["value"] == 2.0 and crit["compose_p95_growth"]["ok"] is False
    assert crit["relational_p95_x_floor"]["ok"] is False
    assert crit["commit_p50_x_floor"]["ok"] is False and crit["commit_p50_x_floor"]["value"] == 5.0
    assert crit["ingest_share_of_model"]["ok"] is False
    one = {c["criterion"]: c for c in scale_criteria([size((50, 100), 40, 20, 60)])}
    assert one["compose_p95_growth"]["ok"] is None and one["commit_p50_x_floor"]["ok"] is True


# =================================================================================== the database
def _events(turn: Any, namespace: str) -> dict[str, Any]:
    return {
        "turn_id": turn.turn_id,
        "at": turn.at,
        "namespace": namespace,
        "messages": [{"message_id": m.message_id, "role": m.role, "content": m.content} for m in turn.messages],
        "refs": turn.refs,
        "metadata": {"project": turn.project},
    }


# What the loader does not generate (summaries and traces) and what only they leave on a node.
NOT_GENERATED = {"Summary", "CommitTrace", "HAS_SUMMARY", "FOR_TURN"}
ONLY_WITH_A_SUMMARY = {"Session": {"summary_id"}}
CORE_LABELS = {"Session", "Turn", "Message", "Memory", "Entity", "MemoryKey"}
CORE_EDGES = {"HAS_TURN", "NEXT", "HAS_MESSAGE", "DERIVED_FROM", "MENTIONS", "RELATED_TO"}


def test_bulk_loader_writes_the_node_shapes_of_commit_turn(brain_factory: BrainFactory, tmp_path: Path) -> None:
    brain = brain_factory()
    real, bulk = f"{brain.config.namespace}-real", f"{brain.config.namespace}-bulk"
    try:
        gen = SessionGenerator(real, 5)
        for _ in range(14):
            turn = gen.next_turn()
            assert brain.commit_turn(turn.session_id, _events(turn, real)).status == "committed"
        bulk_load(brain, SessionGenerator(bulk, 5), 40, batch_turns=15, cache_dir=tmp_path / "cache")
        want, got = namespace_shapes(brain.store, real), namespace_shapes(brain.store, bulk)

        for kind, core in (("nodes", CORE_LABELS), ("edges", CORE_EDGES)):
            assert core <= set(want[kind]) & set(got[kind]), kind
            # Everything the loader writes, commit_turn writes too (a type label a few real turns did not
            # produce aside), and with the same properties.
            for name in set(want[kind]) & set(got[kind]):
                expected = set(want[kind][name]) - ONLY_WITH_A_SUMMARY.get(name, set())
                assert set(got[kind][name]) == expected, (kind, name)
            missing = set(want[kind]) - set(got[kind]) - NOT_GENERATED
            assert not missing - {
                "Profile",
                "Preference",
                "Goal",
                "Task",
                "Decision",
                "Event",
                "SUPERSEDES",
                "VERSION_OF",
                "REFERENCES",
                "Ref",
            }, missing

        rows = brain.store.cypher(
            "MATCH (t:Turn)-[:MENTIONS]->(e:Entity) WHERE e.namespace = $ns "
            "RETURN e.id AS id, e.turn_count AS turn_count, count(t) AS turns",
            {"ns": bulk},
            row_cap=10_000,
        ).rows
        assert rows and all(r["turn_count"] == r["turns"] for r in rows)  # one per turn that mentions it
        _assert_english_vectors(brain, bulk)
    finally:
        delete_namespace(brain.store, real)
        delete_namespace(brain.store, bulk)


def _assert_english_vectors(brain: Brain, namespace: str) -> None:
    """Every English or mixed message and memory item has the English model's vector, no other has."""
    for label in ("Message", "Memory"):
        rows = brain.store.cypher(
            f"MATCH (n:{label}) WHERE n.namespace = $ns AND NOT n:Entity AND n.language IS NOT NULL "
            "RETURN n.language AS language, n.embedding_en IS NOT NULL AS english, count(*) AS n",
            {"ns": namespace},
        ).rows
        assert any(r["english"] for r in rows), label
        for r in rows:
            assert r["english"] == (r["language"] in ("en", "mixed")), (label, r)


def test_tiny_scale_run(brain_factory: BrainFactory, tmp_path: Path) -> None:
    first = brain_factory()
    ns = f"{first.config.namespace}-scale"
    report = run_scale(
        lambda: first,
        [200],
        samples=2,
        namespace=ns,
        keep=True,
        ingest_path=None,
        cache_dir=tmp_path / "cache",
    )
    brain = brain_factory()
    try:
        (size,) = report["sizes"]
        assert size["target_items"] == 200 and size["graph"]["memory_items"] >= 200
        assert set(size["figures"]) == set(FIGURE_LABELS) and set(size["parts"]) <= set(PART_LABELS)
        for key, fig in size["figures"].items():
            assert fig["n"] == 2 and fig["p50"] is not None and fig["p95"] is not None, key
            assert fig["floor"]["p50"] is not None and fig["x_p50"] is not None and fig["x_p95"] is not None, key
        assert size["parts"]["write"]["n"] == 2 and size["parts"]["write"]["p50"] > 0
        assert size["load"]["embedded"] > 0 and size["ingest"] == {}
        assert [c["criterion"] for c in report["criteria"]] == [c[0] for c in CRITERIA]
        crit = {c["criterion"]: c for c in report["criteria"]}
        assert crit["compose_p95_growth"]["ok"] is None and crit["ingest_share_of_model"]["ok"] is None
        assert all(crit[k]["ok"] in (True, False) for k in ("compose_p95_x_floor", "relational_p95_x_floor"))
        text = format_scale(report)
        verdicts = [line.split()[0] for line in text.splitlines()[-len(CRITERIA) :]]
        assert all(v in ("PASS", "FAIL", "n/a") for v in verdicts), text
        assert any(p.name.endswith(".keys.npy") for p in (tmp_path / "cache").rglob("*"))

        # The shapes: bulk data and the measured commits in one namespace, as commit_turn writes them.
        shapes = namespace_shapes(brain.store, ns)
        assert set(shapes["nodes"]) >= CORE_LABELS and set(shapes["edges"]) >= CORE_EDGES
        assert {"turn_count", "mention_count", "last_seen"} <= set(shapes["nodes"]["Entity"])
        assert {"search_text", "filler", "language", "embedding", "embedding_en"} <= set(shapes["nodes"]["Message"])
        _assert_english_vectors(brain, ns)
        nulls = brain.store.cypher(
            "MATCH (e:Entity) WHERE e.namespace = $ns AND e.turn_count IS NULL RETURN count(e) AS n", {"ns": ns}
        ).rows
        assert nulls[0]["n"] == 0
        # The floor's copies are gone.
        assert namespace_shapes(brain.store, floor_namespace(ns)) == {"nodes": {}, "edges": {}}
    finally:
        delete_namespace(brain.store, ns)


def test_live_projects_stay_apart_from_the_loaders() -> None:
    gen = SessionGenerator("ns", 1)
    live = SessionGenerator("ns", 2, session_prefix="live", projects=(LIVE_PROJECTS_EN, LIVE_PROJECTS_ZH))
    bulk_keys = {it.key for _ in range(300) for it in gen.next_turn().items if it.type.value != "preferences"}
    live_keys = {it.key for _ in range(300) for it in live.next_turn().items if it.type.value != "preferences"}
    assert not bulk_keys & live_keys
