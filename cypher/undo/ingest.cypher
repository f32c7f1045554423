// Takes back a document ingest that failed half-way on a backend without multi-statement rollback (the
// embedded one), from undo/ingest_capture's pre-image ($before_*). Idempotent statements: after a crash
// the whole file runs again.
//
// A new document: everything it wrote goes, and the entities it touched get their pre-image back.
// A re-ingested one: its old sections and chunks were already replaced and cannot come back, so it is
// marked stale (no content hash): the next ingest of the source rewrites it whole, and that rewrite
// subtracts exactly the mentions the partial write added.
MATCH (d:Document {id: $document_id})
WHERE $before_document_existed
SET d.content_hash = null;

MATCH (c:Chunk {namespace: $namespace, document_id: $document_id})
WHERE NOT $before_document_existed
DETACH DELETE c;

MATCH (:Document {id: $document_id})-[:HAS_SECTION]->(s:Section)
WHERE NOT $before_document_existed
DETACH DELETE s;

MATCH (d:Document {id: $document_id})
WHERE NOT $before_document_existed
DETACH DELETE d;

MATCH (n:Entity)
WHERE NOT $before_document_existed AND n.id IN $entity_ids AND NOT (n.id IN [x IN $before_entities | x.id])
DETACH DELETE n;

MATCH (n:Tag)
WHERE NOT $before_document_existed AND n.id IN $label_ids AND NOT (n.id IN $before_label_ids)
DETACH DELETE n;

MATCH (n:Topic)
WHERE NOT $before_document_existed AND n.id IN $label_ids AND NOT (n.id IN $before_label_ids)
DETACH DELETE n;

// FtsPending: the embedded store refreshes the full-text copies of the restored names and aliases.
UNWIND $before_entities AS b
MATCH (n:Entity {id: b.id})
WHERE NOT $before_document_existed
SET n.aliases = b.aliases, n.aliases_text = b.aliases_text, n.text = b.text,
    n.mention_count = b.mention_count, n.last_seen = b.last_seen
SET n:FtsPending
