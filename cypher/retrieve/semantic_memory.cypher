// semantic / memory side: nearest Memory.embedding (vector index memory_embedding, cosine).
// $model: 'main' searches the main model's index, 'english' the English model's (*_embedding_en).
// A search of the active items only ($statuses = ['active'], the default) uses memory_active_embedding*,
// which hold the Active items alone: the whole index is mostly superseded versions on a long-lived graph.
// score is Neo4j's cosine score, (1 + cos) / 2 in [0, 1]; $min_score drops weak neighbours.
// The index is global, so hits are post-filtered by namespace and the plan's filters; the caller
// widens $k when fewer than $limit survive while the index had more (raw = k) above $min_score.
CALL db.index.vector.queryNodes(
  CASE WHEN $statuses = ['active'] THEN 'memory_active_' ELSE 'memory_' END
  + CASE $model WHEN 'english' THEN 'embedding_en' ELSE 'embedding' END, $k, $vector) YIELD node, score
WITH collect({n: node, score: score}) AS hits
CALL (hits) {
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
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
