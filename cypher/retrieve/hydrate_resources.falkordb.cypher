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
RETURN collect({id: c.id,
                document_id: c.document_id,
                section_id: c.section_id,
                chunk_index: c.chunk_index,
                text: c.text,
                offset_start: c.offset_start,
                offset_end: c.offset_end,
                page: c.page,
                section_title: c.section_title,
                content_hash: c.content_hash,
                language: c.language,
                title: c.title,
                source_uri: c.source_uri,
                source_type: c.source_type,
                updated_at: c.updated_at,
                l0: s.l0,
                l1: s.l1,
                heading_path: s.heading_path,
                tags: tags,
                topics: topics,
                entities: entities}) AS rows
