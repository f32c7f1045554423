// exact / turns side: full-text over Message.content_fts (the store's pre-tokenised copy of content).
// @fulltext query
// RediSearch's TF-IDF ties often (a term in most documents scores 0 or 1 everywhere), so ties are
// broken as BM25 would: more occurrences of the query terms in content_fts, then the shorter text.
// Post-filtered by namespace and the plan's filters; widened by the caller as in exact_memory.
CALL db.idx.fulltext.queryNodes('Message', $query) YIELD node, score
WITH node, score, split(coalesce(node.content_fts, ''), ' ') AS tokens, split($query, ' | ') AS terms
WITH node, score, size([x IN tokens WHERE x IN terms]) AS tf, size(tokens) AS len
WITH node, score, tf, len ORDER BY score DESC, tf DESC, len, node.id LIMIT $k
WITH collect({n: node, score: score, tf: tf, len: len}) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.n AS msg, h.score AS score, h.tf AS tf, h.len AS len
  WHERE msg.namespace = $namespace
    AND ($session_ids IS NULL OR msg.session_id IN $session_ids)
    AND ($languages IS NULL OR msg.language IN $languages)
    AND ($time_from IS NULL OR msg.at >= $time_from)
    AND ($time_to IS NULL OR msg.at <= $time_to)
  WITH msg, score ORDER BY score DESC, tf DESC, len, msg.id LIMIT $limit
  RETURN collect({id: msg.id, score: score, turn_id: msg.turn_id, session_id: msg.session_id}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
