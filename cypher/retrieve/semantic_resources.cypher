// semantic / resources side: nearest Chunk.embedding (vector index chunk_embedding, cosine).
// $model: 'main' searches the main model's index, 'english' the English model's (*_embedding_en).
// score is Neo4j's cosine score, (1 + cos) / 2 in [0, 1]; $min_score drops weak neighbours.
// The index is global, so hits are post-filtered by namespace and the plan's filters; the caller
// widens $k when fewer than $limit survive while the index had more (raw = k) above $min_score.
CALL db.index.vector.queryNodes(CASE $model WHEN 'english' THEN 'chunk_embedding_en' ELSE 'chunk_embedding' END, $k, $vector) YIELD node, score
WITH collect({n: node, score: score}) AS hits
CALL (hits) {
  UNWIND hits AS h
  WITH h.n AS c, h.score AS score
  WHERE score >= $min_score AND c.namespace = $namespace
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
  WITH c, score ORDER BY score DESC, c.id LIMIT $limit
  RETURN collect({id: c.id, score: score, document_id: c.document_id, section_id: c.section_id,
                  chunk_index: c.chunk_index, source_uri: c.source_uri}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
