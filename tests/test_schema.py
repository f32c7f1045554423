"""Schema against the real Neo4j: idempotent, every index ONLINE, cjk full-text works in both languages."""

from __future__ import annotations

import pytest

from graphbrain import Brain
from graphbrain.store.base import SCHEMA_VERSION

EXPECTED_FULLTEXT = {"memory_text", "message_search", "chunk_text", "entity_names"}
EXPECTED_VECTOR = {"memory_embedding", "message_embedding", "chunk_embedding"}
# The English model's indexes (embedding.english), beside the main model's.
EXPECTED_VECTOR_EN = {"memory_embedding_en", "message_embedding_en", "chunk_embedding_en"}
# Neo4j only: the active items' own indexes (the Active label), the text and each model's vectors.
EXPECTED_VECTOR_ACTIVE = {"memory_active_embedding": "dimension", "memory_active_embedding_en": "english"}


def test_init_twice_is_safe(brain: Brain) -> None:
    first = brain.init_schema()
    second = brain.init_schema()
    assert first.version == second.version == SCHEMA_VERSION
    names = {i["name"] for i in second.indexes}
    assert names >= EXPECTED_FULLTEXT | EXPECTED_VECTOR | EXPECTED_VECTOR_EN
    assert all(i["state"] == "ONLINE" for i in second.indexes)
    assert [i["name"] for i in first.indexes] == [i["name"] for i in second.indexes]
    brain.check_schema()


def test_indexes_configured(brain: Brain) -> None:
    by_name = {i["name"]: i for i in brain.store.index_status()}
    for name in EXPECTED_VECTOR:
        assert by_name[name]["type"] == "VECTOR"
        assert int(by_name[name]["dimension"]) == brain.config.embedding.dimension
    for name in EXPECTED_VECTOR_EN:
        assert by_name[name]["type"] == "VECTOR"
        assert int(by_name[name]["dimension"]) == brain.config.embedding.english.dimension
    for name, model in EXPECTED_VECTOR_ACTIVE.items():
        assert by_name[name]["type"] == "VECTOR" and by_name[name]["labels"] == ["Active"]
        emb = brain.config.embedding
        assert int(by_name[name]["dimension"]) == (emb.dimension if model == "dimension" else emb.english.dimension)
    active_text = by_name["memory_active_text"]
    assert active_text["type"] == "FULLTEXT" and active_text["labels"] == ["Active"]
    assert active_text["analyzer"] == "cjk"
    for name in EXPECTED_FULLTEXT - {"message_search"}:
        assert by_name[name]["type"] == "FULLTEXT"
        assert by_name[name]["analyzer"] == "cjk"
    # messages are indexed as the analyzer's terms already (graphbrain.nlp.analysis)
    assert by_name["message_search"]["analyzer"] == "whitespace"


def test_every_id_has_a_uniqueness_constraint(brain: Brain) -> None:
    rows = brain.store.cypher("SHOW CONSTRAINTS YIELD labelsOrTypes, properties, type").rows
    unique = {(r["labelsOrTypes"][0], tuple(r["properties"])) for r in rows if "UNIQUE" in r["type"]}
    for label in (
        "Session",
        "Turn",
        "Message",
        "ToolCall",
        "Ref",
        "Memory",
        "Entity",
        "Document",
        "Section",
        "Chunk",
        "Tag",
        "Topic",
        "Summary",
        "CommitTrace",
        "ContextTrace",
    ):
        assert (label, ("id",)) in unique, label


def test_cjk_fulltext_mixed_languages(brain: Brain) -> None:
    brain.store.cypher(
        "UNWIND $rows AS r CREATE (:Memory {id: r.id, namespace: 'x', text: r.text})",
        {
            "rows": [
                {"id": "m1", "text": "我们决定使用向量索引来做语义检索"},
                {"id": "m2", "text": "We decided to use the full-text index for exact recall"},
                {"id": "m3", "text": "混合检索 uses RRF fusion 融合排序"},
            ]
        },
        write=True,
    )

    def hits(q: str) -> set[str]:
        rows = brain.store.cypher(
            "CALL db.index.fulltext.queryNodes('memory_text', $q) YIELD node RETURN node.id AS id", {"q": q}
        ).rows
        return {r["id"] for r in rows}

    assert hits("向量索引") == {"m1"}
    assert hits("full-text") == {"m2"}
    assert hits("RRF") == {"m3"}
    assert hits("融合") == {"m3"}
    assert "m2" in hits("decided")


def test_from_config_reports_missing_schema(brain: Brain, neo4j_uri: str) -> None:
    import pytest

    from graphbrain.errors import SchemaError

    brain.store.cypher("MATCH (v:SchemaVersion) DETACH DELETE v", write=True)
    with pytest.raises(SchemaError, match="graphbrain init"):
        Brain.from_config(None, overrides={"storage.neo4j.uri": neo4j_uri})
    brain.init_schema()


def test_a_vector_index_of_another_size_is_refused(brain: Brain) -> None:
    from graphbrain.errors import SchemaError

    brain.store._check_vector_dimensions(brain.config.embedding.dimension)  # the right size passes
    with pytest.raises(SchemaError, match=r"has dimension \d+ but embedding.dimension is 384"):
        brain.store._check_vector_dimensions(384)


def test_the_active_indexes_hold_the_active_items_only(brain: Brain) -> None:
    """A superseded or retracted version leaves memory_active_embedding and memory_active_text (its label
    goes), so a search of the active set never reads past history; the whole indexes hold every version."""
    from helpers import turn

    said = [
        "I prefer that the export runs at 9.",
        "I prefer that the export runs at 10.",
        "TODO: migrate the vector index to 512 dimensions.",
        "Done with the vector index migration.",
        "待办：整理检索设计文档",
        "整理检索设计文档已完成",
    ]
    for i, text in enumerate(said):
        brain.commit_turn("s1", turn(f"t{i}", text))
    rows = brain.store.cypher(
        "MATCH (m:Memory {namespace: $ns}) WHERE m.embedding IS NOT NULL RETURN m.id AS id, m.status AS s",
        {"ns": brain.namespace},
    ).rows
    active = {r["id"] for r in rows if r["s"] == "active"}
    assert active and len(active) < len(rows)
    vector = brain.embedder.embed(["when does the export run"])[0]

    def search(index: str) -> set[str]:
        found = brain.store.cypher(
            "CALL db.index.vector.queryNodes($index, 100, $v) YIELD node RETURN node.id AS id",
            {"index": index, "v": vector},
        ).rows
        return {r["id"] for r in found}

    assert search("memory_active_embedding") == active
    assert search("memory_embedding") == {r["id"] for r in rows}

    def words(index: str, query: str) -> set[str]:
        found = brain.store.cypher(
            "CALL db.index.fulltext.queryNodes($index, $q) YIELD node WHERE node.namespace = $ns RETURN node.id AS id",
            {"index": index, "q": query, "ns": brain.namespace},
        ).rows
        return {r["id"] for r in found}

    for query in ("export", "vector", "检索设计"):
        everything = words("memory_text", query)
        assert len(everything) > 1 and words("memory_active_text", query) == everything & active, query


def test_the_active_text_index_holds_the_active_items_only(brain: Brain) -> None:
    """Both backends: an active-only full-text search reads an index of the Active items (Neo4j's
    memory_active_text, the embedded Active label's), which a superseded or done version leaves."""
    from helpers import turn

    from graphbrain.store.falkordb_fulltext import fts_query

    said = ["I prefer that the export runs at 9.", "I prefer that the export runs at 10.", "待办：整理检索设计文档"]
    for i, text in enumerate([*said, "整理检索设计文档已完成"]):
        brain.commit_turn("s1", turn(f"t{i}", text))
    rows = brain.store.cypher(
        "MATCH (m:Memory) WHERE m.namespace = $ns RETURN m.id AS id, m.status AS s", {"ns": brain.namespace}
    ).rows
    active = {r["id"] for r in rows if r["s"] == "active"}

    def words(active_only: bool, query: str) -> set[str]:
        if brain.store.backend == "embedded":
            label = "Active" if active_only else "Memory"
            text = f"CALL db.idx.fulltext.queryNodes('{label}', $q) YIELD node"
            query = fts_query(query) or ""
        else:
            index = "memory_active_text" if active_only else "memory_text"
            text = f"CALL db.index.fulltext.queryNodes('{index}', $q) YIELD node"
        found = brain.store.cypher(
            text + " WITH node WHERE node.namespace = $ns RETURN node.id AS id", {"q": query, "ns": brain.namespace}
        ).rows
        return {r["id"] for r in found}

    for query in ("export", "检索设计"):
        everything = words(False, query)
        assert len(everything) > 1 and words(True, query) == everything & active, query
