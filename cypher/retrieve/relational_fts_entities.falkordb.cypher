// relational: full-text seeds from the Entity index (name_fts, aliases_text_fts), post-filtered by
// namespace and widened by the caller (see relational_fts_entities.cypher).
// @fulltext fts
// Ties (RediSearch's TF-IDF ties often) break as in exact_memory: more query-term occurrences, then
// the shorter text.
CALL db.idx.fulltext.queryNodes('Entity', $fts) YIELD node, score
WITH node, score, split(coalesce(node.name_fts, '') + ' ' + coalesce(node.aliases_text_fts, ''), ' ') AS tokens, split($fts, ' | ') AS terms
WITH node, score, size([x IN tokens WHERE x IN terms]) AS tf, size(tokens) AS len
WITH node, score, tf, len ORDER BY score DESC, tf DESC, len, node.id LIMIT $k
WITH collect({n: node, score: score, tf: tf, len: len}) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.n AS n, h.score AS score, h.tf AS tf, h.len AS len
  WHERE n.namespace = $namespace
  WITH n, score ORDER BY score DESC, tf DESC, len, n.id LIMIT $limit
  RETURN collect({eid: toString(id(n)), id: n.id, labels: labels(n), type: n.type, key: n.key,
                  canonical: n.canonical, name: n.name, uri: n.uri, turn_count: n.turn_count, weight: score,
                  aliases: n.aliases, kind: n.kind, status: n.status,
                  via: 'entity_names'}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
