// relational: full-text seeds from entity_names (names and aliases), for what the exact name match of
// relational_seeds cannot see (Chinese phrases, partial names). $fts is the escaped Lucene query. The
// index is global, so hits are post-filtered by namespace; the caller asks for $k raw hits and widens
// $k while fewer than $limit survive and the index had more (raw = k), so a crowded neighbour tenant
// cannot push this namespace's hits out. weight: the raw BM25 score (the caller normalises it).
CALL db.index.fulltext.queryNodes('entity_names', $fts, {limit: $k}) YIELD node, score
WITH collect({n: node, score: score}) AS hits
CALL (hits) {
  UNWIND hits AS h
  WITH h.n AS n, h.score AS score
  WHERE n.namespace = $namespace
  WITH n, score ORDER BY score DESC, n.id LIMIT $limit
  RETURN collect({eid: elementId(n), id: n.id, labels: labels(n), type: n.type, key: n.key,
                  canonical: n.canonical, name: n.name, uri: n.uri, turn_count: n.turn_count, weight: score,
                  aliases: n.aliases, kind: n.kind, status: n.status,
                  via: 'entity_names'}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
