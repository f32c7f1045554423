// The stored state of documents (by id, within one namespace), read before anything is written so that
// ingest can tell a new source from a changed or an unchanged one. Each pattern comprehension has its
// own variable names: FalkorDB 4.16 returns nothing for the second of two that reuse one.
UNWIND $ids AS id
MATCH (d:Document {id: id})
WHERE d.namespace = $namespace
CALL {
  WITH d
  OPTIONAL MATCH (:Chunk {namespace: $namespace, document_id: d.id})-[:MENTIONS]->(e:Entity)
  RETURN count(DISTINCT e) AS entities
}
RETURN d.id AS id, d.source_uri AS source_uri, d.content_hash AS content_hash, d.title AS title,
       d.language AS language, d.source_type AS source_type, d.format AS format,
       d.metadata_json AS metadata_json, d.section_count AS section_count, d.chunk_count AS chunk_count,
       [(d)-[:TAGGED]->(t:Tag) | t.name] AS tags,
       [(d)-[:IN_TOPIC]->(tp:Topic) | tp.name] AS topics,
       entities
