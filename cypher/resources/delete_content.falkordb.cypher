// A document's sections and chunks, deleted with their full-text and vector index entries (see
// delete_content.cypher): the entities their chunks mentioned lose those mentions from mention_count.
MATCH (d:Document {id: $document_id})
CALL {
  WITH d
  OPTIONAL MATCH (:Chunk {namespace: $namespace, document_id: d.id})-[r:MENTIONS]->(e:Entity)
  WITH e, sum(coalesce(r.count, 1)) AS n
  WHERE e IS NOT NULL
  SET e.mention_count = CASE WHEN coalesce(e.mention_count, 0) > n THEN e.mention_count - n ELSE 0 END
  RETURN collect(e.id) AS entity_ids
}
CALL {
  WITH d
  OPTIONAL MATCH (c:Chunk {namespace: $namespace, document_id: d.id})
  WITH collect(c) AS chunks
  FOREACH (c IN chunks | DETACH DELETE c)
  RETURN size(chunks) AS chunks
}
CALL {
  WITH d
  OPTIONAL MATCH (d)-[:HAS_SECTION]->(s:Section)
  WITH collect(s) AS sections
  FOREACH (s IN sections | DETACH DELETE s)
  RETURN size(sections) AS sections
}
RETURN entity_ids, chunks, sections
