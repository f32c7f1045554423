"""Refs of a turn into the library by policy, linked (Ref)-[:INGESTED_AS]->(Document)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphbrain import Brain
from graphbrain.ids import stable_id
from graphbrain.resources.ingest import Ingestor
from graphbrain.resources.refs import normalise_ref_uri
from graphbrain.resources.refs_ingest import ingest_turn_refs

Cy = Callable[..., list[dict[str, Any]]]
Server = Callable[[dict[str, Any]], str]


def _refs(cy: Cy, ns: str, raw: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Refs as commit_turn records them (commit/events.py build_turn + commit/write_turn): Ref nodes
    in the graph, and the rows the commit hands on."""
    out = []
    for kind, uri in raw:
        norm = normalise_ref_uri(kind, uri)
        rid = stable_id("ref", ns, kind, norm)
        cy(
            "MERGE (r:Ref {id: $id}) SET r.namespace = $ns, r.type = $type, r.uri = $uri",
            id=rid,
            type=kind,
            uri=norm,
        )
        out.append({"id": rid, "type": kind, "uri": norm, "title": None})
    return out


def _by_uri(outcomes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {o["uri"]: o for o in outcomes}


def test_ref_policies(brain: Brain, ingestor: Ingestor, cy: Cy, tmp_path: Path, http_server: Server) -> None:
    ns = brain.namespace
    doc = tmp_path / "design.md"
    doc.write_text("# Design\n\nThe ref-ingested design note mentions okapis.\n", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    base = http_server(
        {"/spec.html": (200, "text/html", b"<html><body><p>Spec text about narwhals.</p></body></html>")}
    )
    refs = _refs(
        cy,
        ns,
        [
            ("file", str(doc)),
            ("file", str(tmp_path / "missing.md")),
            ("file", str(tmp_path / "folder")),
            ("url", f"{base}/spec.html"),
            ("url", f"{base}/gone"),
            ("artifact", "build-1234"),
        ],
    )
    file_uri, missing, folder, url, gone, artifact = (r["uri"] for r in refs)

    off = _by_uri(ingest_turn_refs(ingestor, refs, namespace=ns, policy="off"))
    assert all(not o["ingested"] and o["reason"] == "policy off" for o in off.values())
    assert cy("MATCH (d:Document) RETURN count(d) AS n")[0]["n"] == 0

    local = _by_uri(ingest_turn_refs(ingestor, refs, namespace=ns, policy="local_files"))
    assert local[file_uri]["ingested"] and local[file_uri]["status"] == "created"
    assert local[file_uri]["reason"] == "ingested" and local[file_uri]["linked"]
    assert local[missing]["reason"] == "file not found" and not local[missing]["ingested"]
    assert local[folder]["reason"] == "a directory, not a file"
    assert local[url]["reason"].startswith("not a local file") and local[gone]["status"] == "skipped"
    assert not local[artifact]["ingested"] and "artifact" in local[artifact]["reason"]
    linked = cy("MATCH (r:Ref)-[:INGESTED_AS]->(d:Document) RETURN r.id AS ref, d.id AS doc, d.source_uri AS uri")
    assert linked == [{"ref": refs[0]["id"], "doc": local[file_uri]["document_id"], "uri": file_uri}]

    everything = _by_uri(ingest_turn_refs(ingestor, refs, namespace=ns, policy="all"))
    # The file is already current: not written again, still linked.
    assert everything[file_uri]["status"] == "unchanged" and everything[file_uri]["reason"] == "unchanged"
    assert not everything[file_uri]["ingested"] and everything[file_uri]["linked"]
    assert everything[url]["ingested"] and everything[url]["linked"]
    # A fetch failure is a reason, never an exception.
    assert everything[gone]["status"] == "failed" and "404" in everything[gone]["reason"]
    docs = cy("MATCH (r:Ref)-[:INGESTED_AS]->(d:Document) RETURN d.source_type AS st ORDER BY st")
    assert docs == [{"st": "file"}, {"st": "url"}]
    assert cy("MATCH (c:Chunk {namespace: $ns}) WHERE c.text CONTAINS 'narwhals' RETURN count(c) AS n")[0]["n"] == 1


def test_refs_never_cross_namespaces_and_repeat_refs_count_once(
    brain: Brain, ingestor: Ingestor, cy: Cy, tmp_path: Path
) -> None:
    ns = brain.namespace
    doc = tmp_path / "n.md"
    doc.write_text("# N\n\nA note.\n", encoding="utf-8")
    refs = _refs(cy, ns, [("file", str(doc))])
    out = ingest_turn_refs(ingestor, refs + refs, namespace=ns, policy="local_files")
    assert len(out) == 1 and out[0]["linked"]
    # The same ref id ingested into another namespace's library cannot be linked to this Ref.
    other = ingest_turn_refs(ingestor, refs, namespace=ns + "-other", policy="local_files")
    assert other[0]["status"] == "created" and other[0]["linked"] is False
    assert cy("MATCH (:Ref)-[r:INGESTED_AS]->() RETURN count(r) AS n")[0]["n"] == 1
    bad = ingest_turn_refs(ingestor, refs, namespace=ns, policy="sometimes")
    assert "unknown policy" in bad[0]["reason"]
