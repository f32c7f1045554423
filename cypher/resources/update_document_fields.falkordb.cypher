// Content unchanged but the caller changed the title or metadata: update the document and the title its
// chunks copy, without touching sections, chunks or vectors.
MATCH (d:Document {id: $document_id})
SET d.title = $title, d.metadata_json = $metadata_json, d.updated_at = $now
WITH d
CALL {
  WITH d
  MATCH (c:Chunk {namespace: $namespace, document_id: d.id})
  SET c.title = $title, c.updated_at = $now
}
RETURN d.id AS id
