"""graphbrain backup / restore on the real databases: a namespace round-trips line for line on each backend
and across them, a rename keeps it working, a namespace that exists is refused unless replaced, a broken
file is refused whole, and the schema fixture (a backup written at schema 2) restores and upgrades."""

from __future__ import annotations

import gzip
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from backup_world import SUMMARY_EVERY, seed

from graphbrain import Brain
from graphbrain.config import load_config
from graphbrain.store import SCHEMA_VERSION, Store
from graphbrain.store.backup import (
    CROSS_BACKEND_OVERLAP,
    BackupError,
    _forget,
    _plan_runner,
    backup,
    open_backup,
    restore,
)
from graphbrain.store.migrate import SAMPLE_MODES, count_labels
from graphbrain.store.neo4j_store import Neo4jStore
from graphbrain.store.upgrade import UpgradeModels

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "backup-v2.gbk"


def _plans(brain: Brain) -> Any:
    return _plan_runner(brain.config, lambda: brain.embedder)


def _backup(brain: Brain, store: Store, ns: str, path: Path) -> Any:
    runner = _plans(brain)
    texts = [str(r["text"]) for r in store.run("migrate/sample_texts", {"ns": ns, "n": 4})]
    todo = [(mode, t) for t in texts for mode in SAMPLE_MODES]
    return backup(store, ns, str(path), dimension=brain.config.embedding.dimension, plans=lambda s: runner(s, ns, todo))


def _restore(brain: Brain, store: Store, path: Path, **kw: Any) -> Any:
    return restore(
        store,
        path,
        dimension=brain.config.embedding.dimension,
        plans=_plans(brain),
        forget_namespace=_forget,
        models=UpgradeModels(english=lambda: brain.english_embedder),
        **kw,
    )


def _body(path: Path) -> list[str]:
    """The lines after the header (which says when and from which backend)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return f.read().splitlines()[1:]


@pytest.fixture()
def seeded(brain_factory: Any) -> Brain:
    brain = brain_factory(**SUMMARY_EVERY)
    seed(brain)
    return brain


def test_a_namespace_round_trips_line_for_line(seeded: Brain, tmp_path: Path) -> None:
    brain, ns = seeded, seeded.namespace
    first = _backup(brain, brain.store, ns, tmp_path / "a.gbk")
    assert first.consistent and first.nodes > 40 and first.edges > 60
    labels = count_labels(brain.store, ns)
    for label in ("Turn", "Message", "ToolCall", "Ref", "Memory", "Entity", "Summary", "CommitTrace", "ContextTrace"):
        assert labels.get(label), label
    assert labels["Summary"] >= 2 and "SUPERSEDES" in first.edge_types and "RETRACTS" in first.edge_types

    # The namespace exists: refused, and nothing was written.
    with pytest.raises(BackupError, match="already holds .* --replace"):
        _restore(brain, brain.store, tmp_path / "a.gbk")
    assert count_labels(brain.store, ns) == labels

    # Replaced: the same lines come back out.
    report = _restore(brain, brain.store, tmp_path / "a.gbk", replace=True)
    assert report.ok, report.summary()
    assert report.replaced == sum(1 for _ in open_backup(tmp_path / "a.gbk").records() if "n" in _)
    assert report.plans and all(p["identical"] for p in report.plans), report.summary()
    _backup(brain, brain.store, ns, tmp_path / "b.gbk")
    assert _body(tmp_path / "a.gbk") == _body(tmp_path / "b.gbk")

    # And it is a working memory again: the session goes on, an old turn is a duplicate.
    assert brain.commit_turn("s1", {"turn_id": "t0", "messages": [{"role": "user", "content": "x"}]}).status == (
        "duplicate"
    )
    assert brain.commit_turn("s1", {"turn_id": "t9", "messages": [{"role": "user", "content": "Ok."}]}).seq == 5


def test_restored_under_another_name_it_works_as_that_namespace(seeded: Brain, tmp_path: Path) -> None:
    brain = seeded
    _backup(brain, brain.store, brain.namespace, tmp_path / "a.gbk")
    other = f"copy{uuid.uuid4().hex[:8]}"
    report = _restore(brain, brain.store, tmp_path / "a.gbk", namespace=other)
    assert report.ok, report.summary()
    assert count_labels(brain.store, other) == count_labels(brain.store, brain.namespace)
    # Nothing of the copy points back at the original.
    stray = brain.store.cypher(
        "MATCH (a)-[r]->(b) WHERE a.namespace = $ns AND b.namespace <> $ns RETURN count(r) AS n", {"ns": other}
    ).rows
    assert stray[0]["n"] == 0
    leaked = brain.store.cypher(
        "MATCH (n) WHERE n.namespace = $ns AND (n.active_key STARTS WITH $old OR n.id STARTS WITH $old) "
        "RETURN count(n) AS n",
        {"ns": other, "old": brain.namespace + "|"},
    ).rows
    assert leaked[0]["n"] == 0
    copy = Brain(brain.config.model_copy(update={"namespace": other}), brain.store)
    assert copy.commit_turn("s1", {"turn_id": "t1", "messages": [{"role": "user", "content": "x"}]}).status == (
        "duplicate"
    )
    assert copy.commit_turn("s1", {"turn_id": "t7", "messages": [{"role": "user", "content": "好。"}]}).seq == 5
    pkg = copy.compose_context("s1", "What did we decide for the memory store?")
    assert "Neo4j" in pkg.to_text()


def test_a_broken_or_newer_file_is_refused_whole(seeded: Brain, tmp_path: Path) -> None:
    brain = seeded
    good = tmp_path / "a.gbk"
    _backup(brain, brain.store, brain.namespace, good)
    with gzip.open(good, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()

    def write(name: str, body: list[str]) -> Path:
        path = tmp_path / name
        with gzip.open(path, "wt", encoding="utf-8") as f:
            f.write("\n".join(body) + "\n")
        return path

    target = {"namespace": f"r{uuid.uuid4().hex[:8]}"}
    with pytest.raises(BackupError, match="truncated"):
        _restore(brain, brain.store, write("cut.gbk", lines[:-5]), **target)
    newer = json.loads(lines[0]) | {"schema_version": SCHEMA_VERSION + 1}
    with pytest.raises(BackupError, match="newer than this graphbrain"):
        _restore(brain, brain.store, write("new.gbk", [json.dumps(newer), *lines[1:]]), **target)
    other_dim = json.loads(lines[0]) | {"dimension": 7}
    with pytest.raises(BackupError, match="dimension 7"):
        _restore(brain, brain.store, write("dim.gbk", [json.dumps(other_dim), *lines[1:]]), **target)
    (tmp_path / "junk.gbk").write_bytes(b"not gzip")
    with pytest.raises(BackupError, match="unreadable"):
        _restore(brain, brain.store, tmp_path / "junk.gbk", **target)
    assert count_labels(brain.store, target["namespace"]) == {}


def test_the_schema_fixture_restores_and_upgrades(brain: Brain, tmp_path: Path) -> None:
    """A backup written by the schema-2 code (tests/backup_world.py), restored into a clean database and
    brought to the current schema: the data steps of every later version run on it."""
    fixture = open_backup(FIXTURE)
    assert fixture.schema_version == 2
    report = _restore(brain, brain.store, FIXTURE, namespace=brain.namespace)
    assert report.ok, report.summary()
    assert [u["step"] for u in report.upgraded] == [u["step"] for u in report.upgraded if u["step"] > 2]
    brain.upgrade()
    assert brain.store.schema_version() == SCHEMA_VERSION
    brain.check_schema()
    assert brain.commit_turn("s1", {"turn_id": "t0", "messages": [{"role": "user", "content": "x"}]}).status == (
        "duplicate"
    )
    assert brain.commit_turn("s1", {"turn_id": "t5", "messages": [{"role": "user", "content": "继续。"}]}).seq == 5
    assert brain.list_memory(types=["decisions"])

    # v3: every message written by v2 is searchable by its analyzed terms (speaker, day, the message
    # before), English ones have the English model's vector, entities count the turns that name them.
    rows = brain.cypher(
        "MATCH (m:Message) WHERE m.namespace = $namespace RETURN m.content AS content, m.language AS language, "
        "m.search_text AS search_text, m.embedding_en IS NOT NULL AS english"
    ).rows
    assert rows and all(r["search_text"] is not None for r in rows)
    assert all(r["english"] for r in rows if r["language"] in ("en", "mixed") and r["content"].strip())
    assert not any(r["english"] for r in rows if r["language"] == "zh")
    counts = brain.cypher("MATCH (e:Entity) WHERE e.namespace = $namespace RETURN e.turn_count AS n").rows
    assert counts and all(isinstance(r["n"], int) for r in counts)
    said = next(r["content"] for r in rows if r["language"] == "en" and len(r["content"].split()) > 3)
    pack = brain.retrieve(
        {"version": "0.1", "queries": [{"text": said, "mode": "exact"}], "global_filters": {"scope": ["turns"]}}
    )
    assert pack.evidences and pack.evidences[0].snippet == said


# ------------------------------------------------------------------------------------------------ across
@pytest.fixture()
def both(embedded_session_store: Store, embedded_data_dir: Path, neo4j_uri: str, schema_ready: None) -> Iterator[Any]:
    from graphbrain.store.falkordb_store import FalkorStore

    ns = f"bk{uuid.uuid4().hex[:8]}"
    cfg = load_config(
        ROOT / "brain.yml",
        overrides={
            "storage.backend": "embedded",
            "storage.data_dir": str(embedded_data_dir),
            "storage.journal": False,
            "namespace": ns,
            **SUMMARY_EVERY,
        },
    )
    emb = Brain(cfg, FalkorStore(cfg.storage))
    neo = Neo4jStore(load_config(ROOT / "brain.yml", overrides={"storage.neo4j.uri": neo4j_uri}).storage.neo4j)
    yield emb, neo, ns
    for store in (emb.store, neo):
        store.cypher("MATCH (n) WHERE n.namespace = $ns DETACH DELETE n", {"ns": ns}, write=True)
    neo.close()
    emb.close()


def _same_across(a: Path, b: Path) -> None:
    """Every node and edge line equal; of the recorded sample plans, the semantic ones (the same vectors)
    agree as restore requires across backends (CROSS_BACKEND_OVERLAP): the two vector indexes are both
    approximate and may swap a near-tied last hit; exact and relational are scored by two different
    full-text engines."""
    body_a, body_b = _body(a), _body(b)
    assert body_a[:-1] == body_b[:-1]
    end_a, end_b = json.loads(body_a[-1]), json.loads(body_b[-1])
    assert {k: v for k, v in end_a.items() if k != "plans"} == {k: v for k, v in end_b.items() if k != "plans"}
    semantic = [{p["text"]: set(p["ids"]) for p in end["plans"] if p["mode"] == "semantic"} for end in (end_a, end_b)]
    assert semantic[0] and semantic[0].keys() == semantic[1].keys()
    for text, ids in semantic[0].items():
        other = semantic[1][text]
        assert not (ids | other) or len(ids & other) / len(ids | other) >= CROSS_BACKEND_OVERLAP, text


def test_round_trips_across_backends_line_for_line(both: Any, tmp_path: Path) -> None:
    emb, neo, ns = both
    seed(emb)
    _backup(emb, emb.store, ns, tmp_path / "embedded.gbk")
    to_neo = _restore(emb, neo, tmp_path / "embedded.gbk")
    assert to_neo.ok, to_neo.summary()
    _backup(emb, neo, ns, tmp_path / "neo4j.gbk")
    _same_across(tmp_path / "embedded.gbk", tmp_path / "neo4j.gbk")
    # …and back: Neo4j's backup replaces the embedded namespace and gives the same lines again.
    back = _restore(emb, emb.store, tmp_path / "neo4j.gbk", replace=True)
    assert back.ok, back.summary()
    _backup(emb, emb.store, ns, tmp_path / "again.gbk")
    assert _body(tmp_path / "again.gbk") == _body(tmp_path / "embedded.gbk")


def test_the_fixture_is_a_small_backup_of_the_default_model() -> None:
    """Written once by tests/backup_world.py at schema 2 and kept: it stands for a graph of that version
    (write another one beside it when the schema changes; never rewrite this one)."""
    fixture = open_backup(FIXTURE)
    assert fixture.header["format_version"] == 1 and fixture.namespace == "fixture"
    assert fixture.header["dimension"] == load_config(ROOT / "brain.yml").embedding.dimension
    assert FIXTURE.stat().st_size < 400_000
