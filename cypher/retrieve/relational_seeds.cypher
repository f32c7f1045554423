// relational: the nodes a query names, to seed the traversal. Five ways, all inside the namespace:
// entities by canonical name or alias ($names are canonical forms, lowercase), memory items by a key
// written in the query ($keys), refs by URI or title, and the full-text indexes entity_names (names and
// aliases) and memory_text (tasks and decisions only) for what the name match cannot see (Chinese
// phrases, partial names). $fts is the escaped Lucene query, or null to skip both full-text parts.
// weight: 1.0 for a name / alias / key / ref match, the raw BM25 score for a full-text hit (the
// caller normalises those per index).
CALL () {
  MATCH (e:Entity)
  WHERE e.namespace = $namespace AND e.canonical IN $names
  RETURN e AS n, 1.0 AS weight, 'name' AS via
  UNION
  MATCH (e:Entity)
  WHERE e.namespace = $namespace AND any(a IN coalesce(e.aliases, []) WHERE toLower(a) IN $names)
  RETURN e AS n, 1.0 AS weight, 'alias' AS via
  UNION
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.key IN $keys
  RETURN m AS n, 1.0 AS weight, 'key' AS via
  UNION
  MATCH (r:Ref)
  WHERE r.namespace = $namespace AND (r.uri IN $uris OR toLower(r.title) IN $names)
  RETURN r AS n, 1.0 AS weight, 'ref' AS via
  UNION
  UNWIND CASE WHEN $fts IS NULL THEN [] ELSE [$fts] END AS q
  CALL db.index.fulltext.queryNodes('entity_names', q, {limit: $fts_k}) YIELD node, score
  WITH node, score WHERE node.namespace = $namespace
  RETURN node AS n, score AS weight, 'entity_names' AS via
  UNION
  UNWIND CASE WHEN $fts IS NULL THEN [] ELSE [$fts] END AS q
  CALL db.index.fulltext.queryNodes('memory_text', q, {limit: $fts_k}) YIELD node, score
  WITH node, score
  WHERE node.namespace = $namespace AND node.type IN ['tasks', 'decisions'] AND node.status = 'active'
  RETURN node AS n, score AS weight, 'memory_text' AS via
}
RETURN elementId(n) AS eid, n.id AS id, labels(n) AS labels, n.type AS type, n.key AS key,
       n.canonical AS canonical, n.name AS name, n.uri AS uri, weight, via
ORDER BY via, weight DESC, id
