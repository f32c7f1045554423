// semantic / memory side: nearest Memory.embedding (HNSW, cosine). FalkorDB's score is the cosine
// $model: 'main' searches the main model's index, 'english' the English model's (*_embedding_en).
// distance d = 1 - cos; it is returned as Neo4j's (1 + cos) / 2 = 1 - d / 2 so $min_score means the same.
// The index is global, so hits are post-filtered by namespace and the plan's filters; the caller
// widens $k when fewer than $limit survive while the index had more (raw = k) above $min_score.
// raw is reported as $k whenever the index answered at all: FalkorDB's HNSW index keeps a tombstone
// for every update or delete of an indexed node and counts them in the top k it returns, so a short
// answer does not prove the index has no more; the caller widens until the floor drops below
// $min_score, enough rows survive, or MAX_INDEX_K.
CALL db.idx.vector.queryNodes('Memory', CASE $model WHEN 'english' THEN 'embedding_en' ELSE 'embedding' END, $k, vecf32($vector)) YIELD node, score
WITH node, 1.0 - score / 2.0 AS score ORDER BY score DESC, node.id
WITH collect({n: node, score: score}) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.n AS m, h.score AS score
  WHERE score >= $min_score AND m.namespace = $namespace
    AND ($types IS NULL OR m.type IN $types)
    AND ($statuses IS NULL OR m.status IN $statuses)
    AND ($session_ids IS NULL OR m.source_session_id IN $session_ids)
    AND ($time_from IS NULL OR m.updated_at >= $time_from)
    AND ($time_to IS NULL OR m.updated_at <= $time_to)
  WITH m, score ORDER BY score DESC, m.id LIMIT $limit
  RETURN collect({id: m.id, score: score}) AS rows
}
RETURN CASE WHEN size(hits) = 0 THEN 0 ELSE $k END AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
