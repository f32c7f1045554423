"""URL ingest from a local HTTP server, memory snapshots, and entities shared with conversation memory."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from graphbrain import Brain
from graphbrain.errors import InputError
from graphbrain.ids import entity_id, stable_id
from graphbrain.nlp import entity_candidates
from graphbrain.resources.ingest import Ingestor
from graphbrain.resources.refs import normalise_url
from graphbrain.resources.sources import document_id_for

Cy = Callable[..., list[dict[str, Any]]]
Server = Callable[[dict[str, Any]], str]

PAGE = """<!doctype html><html lang="en"><head><title>Wombat care handbook</title></head><body>
<nav>Home | About | Contact</nav>
<article><h1>Wombat care handbook</h1>
<p>Wombats dig long burrows and need a lot of space. This handbook explains how sanctuaries keep them
healthy, what they eat, and how keepers track their weight over the seasons.</p>
<h2>Feeding</h2>
<p>Adult wombats graze on native grasses at night. Keepers add roots and hay in winter, when the grass is
short, and weigh every animal once a month.</p>
</article><footer>Copyright the sanctuary</footer></body></html>"""


def test_url_ingest_from_a_local_server(
    brain: Brain, ingestor: Ingestor, cy: Cy, chunk_fulltext: Cy, http_server: Server
) -> None:
    base = http_server(
        {
            "/page.html": (200, "text/html; charset=utf-8", PAGE.encode()),
            "/notes.md": (
                200,
                "text/markdown",
                b"# Notes\n\n## Burrows\n\nBurrow maps live in the wiki.\n",
            ),
            "/image.png": (200, "image/png", b"\x89PNG\r\n\x1a\n"),
        }
    )
    res = ingestor.ingest(f"{base}/page.html#feeding", namespace=brain.namespace, tags=["web"])
    d = res.documents[0]
    assert (res.kind, d.status, d.format) == ("url", "created", "html")
    assert d.source_uri == normalise_url(f"{base}/page.html") and "#" not in d.source_uri
    assert d.document_id == document_id_for(brain.namespace, d.source_uri)
    doc = cy(
        "MATCH (d:Document {id: $id}) RETURN d.title AS t, d.source_type AS st, d.language AS l",
        id=d.document_id,
    )
    assert doc == [{"t": "Wombat care handbook", "st": "url", "l": "en"}]
    titles = cy("MATCH (:Document {id: $id})-[:HAS_SECTION]->(s) RETURN collect(s.title) AS t", id=d.document_id)
    assert "Feeding" in titles[0]["t"]
    text = " ".join(r["t"] for r in cy("MATCH (c:Chunk {namespace: $ns}) RETURN c.text AS t"))
    assert "burrows" in text and "Home | About" not in text  # main content only
    hits = chunk_fulltext("grasses", "node.source_uri AS uri")
    assert hits == [{"uri": d.source_uri}]

    # The same URL with tracking parameters is the same document, unchanged.
    again = ingestor.ingest(f"{base}/page.html?utm_source=mail", namespace=brain.namespace)
    assert (again.documents[0].status, again.document_id) == ("unchanged", d.document_id)

    md = ingestor.ingest(f"{base}/notes.md", namespace=brain.namespace)
    assert md.documents[0].format == "markdown" and md.documents[0].sections == 2

    with pytest.raises(InputError, match="404"):
        ingestor.ingest(f"{base}/missing", namespace=brain.namespace)
    with pytest.raises(InputError, match="image/png"):
        ingestor.ingest(f"{base}/image.png", namespace=brain.namespace)
    assert cy("MATCH (d:Document {namespace: $ns}) RETURN count(d) AS n")[0]["n"] == 2


def _seed_decision(cy: Cy, ns: str, key: str, text: str, *, status: str = "active", version: int = 1) -> str:
    """A :Memory:Decision node as docs/graph-model.md describes it (what commit_turn writes)."""
    mid = stable_id("mem", ns, key, version)
    at = datetime(2026, 2, 18, 10, 0, tzinfo=UTC)
    cy(
        "CREATE (m:Memory:Decision {id: $id, namespace: $ns, type: 'decisions', key: $key,"
        " value_json: $value, text: $text, confidence: 0.8, status: $status, source: 'user',"
        " version: $version,"
        " created_at: $at, updated_at: $at})"
        " FOREACH (_ IN CASE WHEN $status = 'active' THEN [1] ELSE [] END |"
        "   SET m.active_key = $ns + '|' + $key, m:Active)",
        id=mid,
        key=key,
        value=json.dumps({"decision": text, "rationale": "agreed at the weekly sync"}),
        text=f"[decisions:{key}] {text}",
        status=status,
        version=version,
        at=at,
    )
    return mid


def test_memory_snapshot_of_decisions(brain: Brain, ingestor: Ingestor, cy: Cy, chunk_fulltext: Cy) -> None:
    ns = brain.namespace
    _seed_decision(cy, ns, "decision:graphbrain:vector-index", "Use cosine similarity for the vector index.")
    _seed_decision(cy, ns, "decision:graphbrain:store", "Keep Neo4j 5.26 as the single store.")
    _seed_decision(cy, ns, "decision:graphbrain:old", "Use euclidean distance.", status="superseded")
    _seed_decision(cy, ns, "decision:other:thing", "Something about another project.")
    selection = {"types": ["decisions"], "key_prefix": "decision:graphbrain:"}

    res = ingestor.ingest(selection, source_type="memory_snapshot", namespace=ns, topics=["decisions"])
    d = res.documents[0]
    assert (res.kind, d.status, d.format) == ("memory_snapshot", "created", "markdown")
    assert d.source_uri and d.source_uri.startswith("graphbrain://memory_snapshot/decisions/decision:graphbrain:")
    doc = cy("MATCH (d:Document {id: $id}) RETURN d.source_type AS st, d.metadata_json AS m", id=d.document_id)[0]
    assert doc["st"] == "memory_snapshot" and len(json.loads(doc["m"])["memory_item_ids"]) == 2
    titles = cy("MATCH (:Document {id: $id})-[:HAS_SECTION]->(s) RETURN collect(s.title) AS t", id=d.document_id)[0][
        "t"
    ]
    assert {"decision:graphbrain:vector-index", "decision:graphbrain:store"} <= set(titles)
    text = " ".join(r["t"] for r in cy("MATCH (c:Chunk {namespace: $ns}) RETURN c.text AS t"))
    assert "cosine similarity" in text and "agreed at the weekly sync" in text
    assert "euclidean" not in text and "another project" not in text  # superseded / other prefix left out
    hits = chunk_fulltext("cosine", "node.source_type AS st")
    assert hits and all(h["st"] == "memory_snapshot" for h in hits)

    # The same memory renders the same text: a no-op. A new decision updates the same document.
    assert ingestor.ingest(selection, source_type="memory_snapshot", namespace=ns).documents[0].status == "unchanged"
    _seed_decision(cy, ns, "decision:graphbrain:rrf", "Fuse with RRF, k = 60.")
    upd = ingestor.ingest(selection, source_type="memory_snapshot", namespace=ns)
    assert (upd.documents[0].status, upd.document_id) == ("updated", d.document_id)
    assert upd.documents[0].sections == d.sections + 1

    with pytest.raises(InputError, match="no memory items"):
        ingestor.ingest({"types": ["tasks"]}, source_type="memory_snapshot", namespace=ns)
    with pytest.raises(InputError, match="unknown memory type"):
        ingestor.ingest({"types": ["nonsense"]}, source_type="memory_snapshot", namespace=ns)


def _entity_key(text: str, name: str) -> tuple[str, str]:
    """The key and canonical name conversation memory gives the entity named ``name`` in ``text``
    (commit/pipeline.py); its node id is ``entity_id(namespace, canonical)``."""
    for ec in entity_candidates(text, None):
        if ec.name == name:
            return f"entity:{ec.kind}:{ec.canonical}", ec.canonical
    raise AssertionError(f"{name!r} is not an entity candidate of {text!r}")


def test_chunk_entities_are_the_conversation_entities(brain: Brain, ingestor: Ingestor, cy: Cy) -> None:
    ns = brain.namespace
    # What a memory item (a decision in a user message) would make of the repo name.
    decision = "We decided to keep the repo acme/graphbrain on one graph."
    repo_key, repo_canonical = _entity_key(decision, "acme/graphbrain")
    assert repo_key == "entity:repo:acme/graphbrain"
    repo_id = entity_id(ns, repo_canonical)

    note = "The design doc of the repo acme/graphbrain explains why Neo4j holds everything, says Zanzibar."
    neo_key, neo_canonical = _entity_key(note, "Neo4j")
    neo_id = entity_id(ns, neo_canonical)
    # An entity conversation memory already made real (with a turn that mentions it).
    cy(
        "CREATE (t:Turn {id: $tid, namespace: $ns}) "
        "CREATE (e:Memory:Entity:Active {id: $id, namespace: $ns, type: 'entities', key: $key, kind: 'topic',"
        " canonical: 'neo4j', name: 'Neo4j', aliases: [], status: 'active', active_key: $ns + '|' + $key,"
        " mention_count: 3, version: 1, source: 'user'}) "
        "CREATE (t)-[:MENTIONS {count: 3}]->(e)",
        tid=stable_id("turn", ns, "t1"),
        id=neo_id,
        key=neo_key,
    )

    res = ingestor.ingest(note, source_type="manual", title="design note", namespace=ns)
    linked = cy(
        "MATCH (c:Chunk {namespace: $ns})-[m:MENTIONS]->(e:Entity) RETURN e.id AS id, m.count AS count, "
        "m.text AS text ORDER BY id"
    )
    assert {r["id"] for r in linked} == {repo_id, neo_id}
    repo = cy("MATCH (e:Entity {id: $id}) RETURN e {.*} AS e, labels(e) AS labels", id=repo_id)[0]
    assert set(repo["labels"]) == {"Memory", "Entity", "Active"}
    e = repo["e"]
    assert (e["namespace"], e["type"], e["key"], e["kind"], e["canonical"]) == (
        ns,
        "entities",
        repo_key,
        "repo",
        "acme/graphbrain",
    )
    assert e["active_key"] == f"{ns}|{repo_key}" and e["status"] == "active" and e["mention_count"] == 1
    assert e["text"] == f"[entities:{repo_key}] acme/graphbrain"
    assert len(e["embedding"]) == brain.config.embedding.dimension  # embedded like commit embeds names
    assert cy("MATCH (e:Entity {id: $id}) RETURN e.mention_count AS n", id=neo_id) == [{"n": 4}]
    # A capitalised word nobody made real creates no Entity node from a document.
    assert cy("MATCH (e:Entity {namespace: $ns}) WHERE e.canonical CONTAINS 'zanzibar' RETURN e") == []
    assert res.documents[0].entities == 2

    # Removing the document unlinks both; the one only it had created goes, the conversation's stays.
    removed = ingestor.remove(res.document_id or "", namespace=ns)
    assert removed.entities_deleted == 1
    assert cy("MATCH (e:Entity {id: $id}) RETURN e", id=repo_id) == []
    assert cy("MATCH (e:Entity {id: $id}) RETURN e.mention_count AS n", id=neo_id) == [{"n": 3}]
