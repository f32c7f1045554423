// exact / memory side: BM25-like scoring over Memory.text_fts (the store's pre-tokenised copy of text).
// @fulltext query
// RediSearch's TF-IDF ties often (a term in most documents scores 0 or 1 everywhere), so ties are
// broken as BM25 would: more occurrences of the query terms in text_fts, then the shorter text.
// The store turns $query (escaped Lucene text) into OR-ed RediSearch terms. The namespace and the plan's
// filters apply first (the procedure yields every match, with no top-k), then the tie-break reads the
// terms of the 1,000 best-scored only: counting them in every match grew with the namespace.
// A search of the active items only ($statuses = ['active'], the default) reads the Active label's index.
CALL db.idx.fulltext.queryNodes(CASE WHEN $statuses = ['active'] THEN 'Active' ELSE 'Memory' END, $query)
YIELD node, score
WITH node AS m, score
WHERE m.namespace = $namespace
  AND ($types IS NULL OR m.type IN $types)
  AND ($statuses IS NULL OR m.status IN $statuses)
  AND ($session_ids IS NULL OR m.source_session_id IN $session_ids)
  AND ($time_from IS NULL OR m.updated_at >= $time_from)
  AND ($time_to IS NULL OR m.updated_at <= $time_to)
WITH m, score ORDER BY score DESC, m.id LIMIT 1000
WITH m, score, split(coalesce(m.text_fts, ''), ' ') AS tokens, split($query, ' | ') AS terms
WITH m, score, size([x IN tokens WHERE x IN terms]) AS tf, size(tokens) AS len
WITH m, score ORDER BY score DESC, tf DESC, len, m.id LIMIT $k
WITH collect({id: m.id, score: score}) AS hits
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor,
       hits[..$limit] AS rows
