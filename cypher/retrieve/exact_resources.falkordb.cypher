// exact / resources side: full-text over Chunk.text_fts and Chunk.section_title_fts.
// @fulltext query
// RediSearch's TF-IDF ties often (a term in most documents scores 0 or 1 everywhere), so ties are
// broken as BM25 would: more occurrences of the query terms in text_fts, then the shorter text.
// Post-filtered by namespace and the plan's filters; widened by the caller as in exact_memory.
// A tag or topic matches by id or by name (pattern comprehensions, projected
// in a WITH: FalkorDB has no EXISTS {} and cannot evaluate a pattern comprehension inside WHERE).
// The namespace applies first and the terms are counted in the 1,000 best-scored matches only (as in
// exact_memory.falkordb: the procedure yields every match).
CALL db.idx.fulltext.queryNodes('Chunk', $query) YIELD node, score
WITH node, score WHERE node.namespace = $namespace
WITH node, score ORDER BY score DESC, node.id LIMIT 1000
WITH node, score, split(coalesce(node.text_fts, ''), ' ') AS tokens, split($query, ' | ') AS terms
WITH node, score, size([x IN tokens WHERE x IN terms]) AS tf, size(tokens) AS len
WITH node, score, tf, len ORDER BY score DESC, tf DESC, len, node.id LIMIT $k
WITH collect({n: node, score: score, tf: tf, len: len}) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.n AS c, h.score AS score, h.tf AS tf, h.len AS len
  WHERE c.namespace = $namespace
    AND ($document_ids IS NULL OR c.document_id IN $document_ids)
    AND ($source_types IS NULL OR c.source_type IN $source_types)
    AND ($uri_prefixes IS NULL OR any(p IN $uri_prefixes WHERE c.source_uri STARTS WITH p))
    AND ($languages IS NULL OR c.language IN $languages)
    AND ($time_from IS NULL OR c.updated_at >= $time_from)
    AND ($time_to IS NULL OR c.updated_at <= $time_to)
  WITH c, score, tf, len,
       CASE WHEN $tag_ids IS NULL THEN 1 ELSE size([(:Document {id: c.document_id})-[:TAGGED]->(t:Tag)
         WHERE t.namespace = $namespace AND (t.id IN $tag_ids OR t.name IN $tag_ids) | 1]) END AS tag_hits,
       CASE WHEN $topic_ids IS NULL THEN 1 ELSE size([(:Document {id: c.document_id})-[:IN_TOPIC]->(tp:Topic)
         WHERE tp.namespace = $namespace AND (tp.id IN $topic_ids OR tp.name IN $topic_ids) | 1]) END AS topic_hits
  WHERE tag_hits > 0 AND topic_hits > 0
  WITH c, score ORDER BY score DESC, tf DESC, len, c.id LIMIT $limit
  RETURN collect({id: c.id, score: score, document_id: c.document_id, section_id: c.section_id,
                  chunk_index: c.chunk_index, source_uri: c.source_uri}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
