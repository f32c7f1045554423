// exact / memory side: BM25-like scoring over Memory.text_fts (the store's pre-tokenised copy of text).
// @fulltext query
// RediSearch's TF-IDF ties often (a term in most documents scores 0 or 1 everywhere), so ties are
// broken as BM25 would: more occurrences of the query terms in text_fts, then the shorter text.
// The store turns $query (escaped Lucene text) into OR-ed RediSearch terms. The index is global, so hits
// are post-filtered by namespace and the plan's filters; the caller widens $k as on Neo4j.
CALL db.idx.fulltext.queryNodes('Memory', $query) YIELD node, score
WITH node, score, split(coalesce(node.text_fts, ''), ' ') AS tokens, split($query, ' | ') AS terms
WITH node, score, size([x IN tokens WHERE x IN terms]) AS tf, size(tokens) AS len
WITH node, score, tf, len ORDER BY score DESC, tf DESC, len, node.id LIMIT $k
WITH collect({n: node, score: score, tf: tf, len: len}) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.n AS m, h.score AS score, h.tf AS tf, h.len AS len
  WHERE m.namespace = $namespace
    AND ($types IS NULL OR m.type IN $types)
    AND ($statuses IS NULL OR m.status IN $statuses)
    AND ($session_ids IS NULL OR m.source_session_id IN $session_ids)
    AND ($time_from IS NULL OR m.updated_at >= $time_from)
    AND ($time_to IS NULL OR m.updated_at <= $time_to)
  WITH m, score ORDER BY score DESC, tf DESC, len, m.id LIMIT $limit
  RETURN collect({id: m.id, score: score}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
