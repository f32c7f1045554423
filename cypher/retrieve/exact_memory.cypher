// exact / memory side: BM25 over Memory.text (full-text index memory_text, cjk analyzer).
// The index is global, so hits are post-filtered by namespace and the plan's filters; the caller asks
// for $k raw hits and widens $k when fewer than $limit survive and the index had more (raw = k).
// Every optional filter is `$x IS NULL OR ...`, so this one file serves every filter combination.
// A search of the active items only ($statuses = ['active'], the default) uses memory_active_text.
CALL db.index.fulltext.queryNodes(CASE WHEN $statuses = ['active'] THEN 'memory_active_text' ELSE 'memory_text' END,
                                  $query, {limit: $k}) YIELD node, score
WITH collect({n: node, score: score}) AS hits
CALL (hits) {
  UNWIND hits AS h
  WITH h.n AS m, h.score AS score
  WHERE m.namespace = $namespace
    AND ($types IS NULL OR m.type IN $types)
    AND ($statuses IS NULL OR m.status IN $statuses)
    AND ($session_ids IS NULL OR m.source_session_id IN $session_ids)
    AND ($time_from IS NULL OR m.updated_at >= $time_from)
    AND ($time_to IS NULL OR m.updated_at <= $time_to)
  WITH m, score ORDER BY score DESC, m.id LIMIT $limit
  RETURN collect({id: m.id, score: score}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
