// semantic / turns side: nearest Message.embedding (HNSW, cosine); score as in semantic_memory.
// $model: 'main' searches the main model's index, 'english' the English model's (*_embedding_en).
// raw is reported as $k whenever the index answered at all: FalkorDB's HNSW index keeps a tombstone
// for every update or delete of an indexed node and counts them in the top k it returns, so a short
// answer does not prove the index has no more; the caller widens until the floor drops below
// $min_score, enough rows survive, or MAX_INDEX_K.
CALL db.idx.vector.queryNodes('Message', CASE $model WHEN 'english' THEN 'embedding_en' ELSE 'embedding' END, $k, vecf32($vector)) YIELD node, score
WITH node, 1.0 - score / 2.0 AS score ORDER BY score DESC, node.id
WITH collect({n: node, score: score}) AS hits
CALL {
  WITH hits
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
RETURN CASE WHEN size(hits) = 0 THEN 0 ELSE $k END AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
