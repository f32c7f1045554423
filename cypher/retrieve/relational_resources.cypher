// relational / resources side: which of the traversal's chunks pass the plan's filters
// (the same predicates as exact_resources and semantic_resources).
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
WHERE c.namespace = $namespace
  AND ($document_ids IS NULL OR c.document_id IN $document_ids)
  AND ($source_types IS NULL OR c.source_type IN $source_types)
  AND ($uri_prefixes IS NULL OR any(p IN $uri_prefixes WHERE c.source_uri STARTS WITH p))
  AND ($languages IS NULL OR c.language IN $languages)
  AND ($time_from IS NULL OR c.updated_at >= $time_from)
  AND ($time_to IS NULL OR c.updated_at <= $time_to)
  AND ($tag_ids IS NULL OR EXISTS {
    MATCH (:Document {id: c.document_id})-[:TAGGED]->(t:Tag)
    WHERE t.namespace = $namespace AND (t.id IN $tag_ids OR t.name IN $tag_ids) })
  AND ($topic_ids IS NULL OR EXISTS {
    MATCH (:Document {id: c.document_id})-[:IN_TOPIC]->(t:Topic)
    WHERE t.namespace = $namespace AND (t.id IN $topic_ids OR t.name IN $topic_ids) })
RETURN collect({id: c.id,
                document_id: c.document_id,
                section_id: c.section_id,
                chunk_index: c.chunk_index,
                source_uri: c.source_uri}) AS rows
