"""In-place upgrades (graphbrain/store/upgrade.py) on the real databases: a graph at an older schema is
told what to run, upgraded in batches, resumable when interrupted half-way, and idempotent after."""

from __future__ import annotations

from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.errors import ConstraintViolation, SchemaError
from graphbrain.store import SCHEMA_VERSION, QueryLibrary, Store
from graphbrain.store.upgrade import STEPS, QueryProgress, check_registry, pending_steps


def test_the_registry_is_ordered_and_ends_at_the_schema_version() -> None:
    check_registry()
    assert STEPS[-1].version == SCHEMA_VERSION
    assert [s.version for s in pending_steps(1)] == list(range(2, SCHEMA_VERSION + 1))
    assert pending_steps(SCHEMA_VERSION) == [] and pending_steps(None) == []
    with pytest.raises(SchemaError, match=f"expected a step to version {SCHEMA_VERSION + 1}"):
        check_registry([*STEPS, type(STEPS[0])(version=SCHEMA_VERSION + 2, description="gap")])


@pytest.mark.parametrize("backend_name", ["neo4j", "falkordb"])
def test_every_upgrade_query_loads_and_takes_batch_and_namespace(backend_name: str) -> None:
    queries = QueryLibrary(backend=backend_name)
    for step in STEPS:
        for name in (*step.before_schema, *step.queries):
            text = queries.get(name)
            assert "$batch" in text and "$namespace" in text and "changed" in text, name


def _drop_key_lock_constraint(store: Store) -> None:
    """What a version-1 graph lacked: the uniqueness of MemoryKey ids (test-only, backend-specific)."""
    if store.backend == "neo4j":
        store.cypher("DROP CONSTRAINT memory_key_lock_id IF EXISTS", write=True)
        return
    store.ping()  # connected
    conn = store._db.connection  # type: ignore[attr-defined]
    conn.execute_command("GRAPH.CONSTRAINT", "DROP", "graphbrain", "UNIQUE", "NODE", "MemoryKey", "PROPERTIES", 1, "id")


def _locks(brain: Brain) -> list[dict[str, Any]]:
    return brain.store.cypher(
        "MATCH (l:MemoryKey) WHERE l.namespace = $ns RETURN l.id AS id, count(*) AS n ORDER BY id",
        {"ns": brain.namespace},
    ).rows


def _set_version(brain: Brain, version: int) -> None:
    emb = brain.config.embedding
    params = {"version": version, "dimension": emb.dimension, "english_dimension": emb.english.dimension}
    brain.store.run("schema/set_version", params, write=True)


class Interrupted(Exception):
    pass


def test_a_version_1_graph_is_upgraded_in_batches_and_resumes_after_an_interruption(brain: Brain) -> None:
    _drop_key_lock_constraint(brain.store)
    try:
        # Three lock ids, each held by 3 nodes: what racing commits could leave before the constraint.
        brain.store.cypher(
            "UNWIND range(0, 8) AS i CREATE (:MemoryKey {id: $ns + '|pref:k' + toString(i % 3), "
            "namespace: $ns, key: 'pref:k' + toString(i % 3), touched: i})",
            {"ns": brain.namespace},
            write=True,
        )
        _set_version(brain, 1)
        with pytest.raises(SchemaError, match=r"version 1.*graphbrain upgrade.*v2: MemoryKey lock ids"):
            brain.check_schema()

        # Interrupted after the first batch (a kill between two transactions): the version stays at 1.
        seen: list[int] = []

        def stop_after_one(p: QueryProgress) -> None:
            seen.append(p.changed)
            raise Interrupted

        with pytest.raises(Interrupted):
            brain.upgrade(batch=2, progress=stop_after_one)
        assert seen == [2]  # the first batch of the v2 step, then the interruption
        assert brain.store.schema_version() == 1
        assert sum(r["n"] for r in _locks(brain)) == 7

        # The next run resumes: only what is left is changed, then the version is recorded.
        report = brain.upgrade(batch=2)
        assert report.from_version == 1 and report.steps == list(range(2, SCHEMA_VERSION + 1))
        assert report.to_version == SCHEMA_VERSION
        assert report.changed == 4
        assert brain.store.schema_version() == SCHEMA_VERSION
        assert [r["n"] for r in _locks(brain)] == [1, 1, 1]
        brain.check_schema()

        # The constraint is back: a second lock node for an id is refused.
        with pytest.raises(ConstraintViolation):
            brain.store.cypher(
                "CREATE (:MemoryKey {id: $ns + '|pref:k0', namespace: $ns})", {"ns": brain.namespace}, write=True
            )
        again = brain.upgrade(batch=2)
        assert again.steps == [] and again.changed == 0
    finally:
        brain.init_schema()  # whatever happened, the constraint is restored for the next test


def test_a_graph_with_data_and_no_version_record_counts_as_the_oldest(brain: Brain) -> None:
    brain.store.cypher("CREATE (:Tag {id: 'tag_x', namespace: $ns, name: 'x'})", {"ns": brain.namespace}, write=True)
    brain.store.cypher("MATCH (v:SchemaVersion) DELETE v", write=True)
    try:
        report = brain.upgrade()
        assert report.from_version == 1 and report.to_version == SCHEMA_VERSION
        assert brain.store.schema_version() == SCHEMA_VERSION
    finally:
        brain.init_schema()


def test_a_newer_graph_is_refused(brain: Brain) -> None:
    _set_version(brain, SCHEMA_VERSION + 1)
    try:
        with pytest.raises(SchemaError, match="newer than this graphbrain"):
            brain.check_schema()
        with pytest.raises(SchemaError, match="newer than this graphbrain"):
            brain.upgrade()
    finally:
        _set_version(brain, SCHEMA_VERSION)


def test_a_version_4_graph_labels_its_active_items_and_the_active_search_finds_them(brain: Brain) -> None:
    """v5: active items carry Active, which Neo4j's active-only vector indexes cover: an item written
    before v5 has no label, so until the upgrade a default (active-only) search could not see it."""
    from helpers import turn

    brain.commit_turn("s1", turn("t1", "We decided to ship the billing export on Friday. 我们决定周五上线计费导出。"))
    brain.commit_turn("s1", turn("t2", "Actually we decided to ship the billing export on Monday instead."))
    statuses = brain.store.cypher(
        "MATCH (m:Memory {namespace: $ns}) RETURN m.status AS s, m:Active AS labelled", {"ns": brain.namespace}
    ).rows
    kinds = {r["s"] for r in statuses}
    assert "active" in kinds and kinds & {"superseded", "retracted"}, kinds
    assert all(r["labelled"] == (r["s"] == "active") for r in statuses)
    active = sum(r["s"] == "active" for r in statuses)

    # What a v4 graph holds: no label. (Store.cypher would put it back at once: the backend's half does not.)
    brain.store._cypher("MATCH (m:Memory {namespace: $ns}) REMOVE m:Active", {"ns": brain.namespace}, True, 1, None)
    _set_version(brain, 4)
    assert len(brain.store.run("checks/active_label", {"namespace": brain.namespace})) == active
    report = brain.upgrade(batch=2)
    assert report.steps == list(range(5, SCHEMA_VERSION + 1)) and report.changed == active
    assert brain.store.run("checks/active_label", {"namespace": brain.namespace}) == []
    assert brain.store.schema_version() == SCHEMA_VERSION

    pack = brain.retrieve(
        {
            "version": "1",
            "queries": [{"text": "When do we ship the billing export?", "mode": "semantic"}],
            "global_filters": {"scope": ["memory"]},
        }
    )
    active_texts = {
        r["t"]
        for r in brain.store.cypher(
            "MATCH (m:Memory {namespace: $ns, status: 'active'}) RETURN m.text AS t", {"ns": brain.namespace}
        ).rows
    }
    snippets = [ev.snippet for ev in pack.evidences]
    assert snippets and set(snippets) <= active_texts, snippets


def test_a_memory_item_written_or_changed_by_hand_is_labelled_as_its_status_says(brain: Brain) -> None:
    """A user's own Cypher write (Store.cypher) leaves every item's Active label agreeing with its status,
    so Neo4j's active-only indexes find a hand-written active item and drop one retired by hand."""
    ns = brain.namespace
    brain.store.cypher(
        "CREATE (:Memory:Decision {id: $ns + ':hand', namespace: $ns, type: 'decisions', status: 'active', "
        "key: 'decision:x:hand', text: '[decisions:decision:x:hand] 手写的决定 written by hand'})",
        {"ns": ns},
        write=True,
    )

    def labelled() -> bool:
        rows = brain.store.cypher("MATCH (m:Memory {id: $id}) RETURN m:Active AS a", {"id": f"{ns}:hand"}).rows
        return bool(rows[0]["a"])

    assert labelled()
    brain.store.cypher("MATCH (m:Memory {id: $id}) SET m.status = 'retracted'", {"id": f"{ns}:hand"}, write=True)
    assert not labelled()
    assert brain.store.run("checks/active_label", {"namespace": ns}) == []
