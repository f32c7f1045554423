// relational: full-text seeds from memory_active_text (memory_text's active items), active tasks and
// decisions only (the items a query is most often about without naming their key). Post-filtered and
// widened as relational_fts_entities.
CALL db.index.fulltext.queryNodes('memory_active_text', $fts, {limit: $k}) YIELD node, score
WITH collect({n: node, score: score}) AS hits
CALL (hits) {
  UNWIND hits AS h
  WITH h.n AS n, h.score AS score
  WHERE n.namespace = $namespace AND n.type IN ['tasks', 'decisions'] AND n.status = 'active'
  WITH n, score ORDER BY score DESC, n.id LIMIT $limit
  RETURN collect({eid: elementId(n), id: n.id, labels: labels(n), type: n.type, key: n.key,
                  canonical: n.canonical, name: n.name, uri: n.uri, turn_count: n.turn_count, weight: score,
                  via: 'memory_text'}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
