// semantic / turns side: nearest Message.embedding (vector index message_embedding, cosine).
// $model: 'main' searches the main model's index, 'english' the English model's (*_embedding_en).
// score is Neo4j's cosine score, (1 + cos) / 2 in [0, 1]; $min_score drops weak neighbours.
// The index is global, so hits are post-filtered by namespace and the plan's filters; the caller
// widens $k when fewer than $limit survive while the index had more (raw = k) above $min_score.
CALL db.index.vector.queryNodes(CASE $model WHEN 'english' THEN 'message_embedding_en' ELSE 'message_embedding' END, $k, $vector) YIELD node, score
WITH collect({n: node, score: score}) AS hits
CALL (hits) {
  UNWIND hits AS h
  WITH h.n AS msg, h.score AS score
  WHERE score >= $min_score AND msg.namespace = $namespace
    AND ($session_ids IS NULL OR msg.session_id IN $session_ids)
    AND ($languages IS NULL OR msg.language IN $languages)
    AND ($time_from IS NULL OR msg.at >= $time_from)
    AND ($time_to IS NULL OR msg.at <= $time_to)
  WITH msg, score ORDER BY score DESC, msg.id LIMIT $limit
  RETURN collect({id: msg.id, score: score, turn_id: msg.turn_id, session_id: msg.session_id}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
