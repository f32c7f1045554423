// Everything evidence needs about the fused chunk candidates, in one round trip (see
// hydrate_resources.cypher): chunk, section layers, document tags / topics, mentioned entities.
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
WHERE c.namespace = $namespace
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
CALL {
  WITH c
  OPTIONAL MATCH (:Document {id: c.document_id})-[:TAGGED]->(t:Tag)
  WHERE t.namespace = $namespace
  WITH t ORDER BY t.name
  RETURN collect(t.name) AS tags
}
CALL {
  WITH c
  OPTIONAL MATCH (:Document {id: c.document_id})-[:IN_TOPIC]->(t:Topic)
  WHERE t.namespace = $namespace
  WITH t ORDER BY t.name
  RETURN collect(t.name) AS topics
}
CALL {
  WITH c
  OPTIONAL MATCH (c)-[:MENTIONS]->(e:Entity)
  WHERE e.namespace = $namespace
  WITH e ORDER BY e.canonical
  RETURN collect(e.canonical) AS entities
}
RETURN c.id AS id, c.document_id AS document_id, c.section_id AS section_id, c.chunk_index AS chunk_index,
       c.text AS text, c.offset_start AS offset_start, c.offset_end AS offset_end, c.page AS page,
       c.section_title AS section_title, c.content_hash AS content_hash, c.language AS language,
       c.title AS title, c.source_uri AS source_uri, c.source_type AS source_type,
       c.updated_at AS updated_at, s.l0 AS l0, s.l1 AS l1, s.heading_path AS heading_path,
       tags, topics, entities
