// The Document node of one source: its id is stable per (namespace, source_uri), so a changed source
// keeps it. Writing the properties first locks the node, which serialises two ingests of one source.
OPTIONAL MATCH (old:Document {id: $document.id})
WITH old IS NULL AS created
MERGE (d:Document {id: $document.id})
  ON CREATE SET d.created_at = $now
SET d.namespace = $namespace, d.title = $document.title, d.source_uri = $document.source_uri,
    d.source_type = $document.source_type, d.format = $document.format, d.language = $document.language,
    d.content_hash = $document.content_hash, d.metadata_json = $document.metadata_json,
    d.section_count = $document.section_count, d.chunk_count = $document.chunk_count, d.updated_at = $now
RETURN d.id AS id, created
