// relational: full-text seeds from the Active label's index (text_fts), active tasks and decisions only, in
// the namespace (see relational_fts_memory.cypher); filtered first, then as exact_memory.falkordb: the
// 1,000 best-scored, ties broken by more query-term occurrences, then the shorter text.
// @fulltext fts
CALL db.idx.fulltext.queryNodes('Active', $fts) YIELD node, score
WITH node AS n, score
WHERE n.namespace = $namespace AND n.type IN ['tasks', 'decisions'] AND n.status = 'active'
WITH n, score ORDER BY score DESC, n.id LIMIT 1000
WITH n, score, split(coalesce(n.text_fts, ''), ' ') AS tokens, split($fts, ' | ') AS terms
WITH n, score, size([x IN tokens WHERE x IN terms]) AS tf, size(tokens) AS len
WITH n, score ORDER BY score DESC, tf DESC, len, n.id LIMIT $k
WITH collect({eid: toString(id(n)), id: n.id, labels: labels(n), type: n.type, key: n.key,
              canonical: n.canonical, name: n.name, uri: n.uri, turn_count: n.turn_count, weight: score,
              via: 'memory_text'}) AS hits
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].weight END AS floor,
       hits[..$limit] AS rows
