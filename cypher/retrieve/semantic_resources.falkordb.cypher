// semantic / resources side: nearest Chunk.embedding (HNSW, cosine); score as in semantic_memory.
// $model: 'main' searches the main model's index, 'english' the English model's (*_embedding_en).
// raw is reported as $k whenever the index answered at all: FalkorDB's HNSW index keeps a tombstone
// for every update or delete of an indexed node and counts them in the top k it returns, so a short
// answer does not prove the index has no more; the caller widens until the floor drops below
// $min_score, enough rows survive, or MAX_INDEX_K.
CALL db.idx.vector.queryNodes('Chunk', CASE $model WHEN 'english' THEN 'embedding_en' ELSE 'embedding' END, $k, vecf32($vector)) YIELD node, score
WITH node, 1.0 - score / 2.0 AS score ORDER BY score DESC, node.id
WITH collect({n: node, score: score}) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.n AS c, h.score AS score
  WHERE score >= $min_score AND c.namespace = $namespace
    AND ($document_ids IS NULL OR c.document_id IN $document_ids)
    AND ($source_types IS NULL OR c.source_type IN $source_types)
    AND ($uri_prefixes IS NULL OR any(p IN $uri_prefixes WHERE c.source_uri STARTS WITH p))
    AND ($languages IS NULL OR c.language IN $languages)
    AND ($time_from IS NULL OR c.updated_at >= $time_from)
    AND ($time_to IS NULL OR c.updated_at <= $time_to)
  WITH c, score,
       CASE WHEN $tag_ids IS NULL THEN 1 ELSE size([(:Document {id: c.document_id})-[:TAGGED]->(t:Tag)
         WHERE t.namespace = $namespace AND (t.id IN $tag_ids OR t.name IN $tag_ids) | 1]) END AS tag_hits,
       CASE WHEN $topic_ids IS NULL THEN 1 ELSE size([(:Document {id: c.document_id})-[:IN_TOPIC]->(tp:Topic)
         WHERE tp.namespace = $namespace AND (tp.id IN $topic_ids OR tp.name IN $topic_ids) | 1]) END AS topic_hits
  WHERE tag_hits > 0 AND topic_hits > 0
  WITH c, score ORDER BY score DESC, c.id LIMIT $limit
  RETURN collect({id: c.id, score: score, document_id: c.document_id, section_id: c.section_id,
                  chunk_index: c.chunk_index, source_uri: c.source_uri}) AS rows
}
RETURN CASE WHEN size(hits) = 0 THEN 0 ELSE $k END AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
