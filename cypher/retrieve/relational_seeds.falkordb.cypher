// relational: the nodes a query names, to seed the traversal (see relational_seeds.cypher). The
// full-text parts search the store's pre-tokenised copies (Entity name_fts / aliases_text_fts and
// Memory text_fts); $fts is null to skip them. weight: 1.0 for a name / alias / key / ref match, the raw
// full-text score for a full-text hit (the caller normalises those per index).
// @fulltext fts
CALL {
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
  CALL db.idx.fulltext.queryNodes('Entity', q) YIELD node, score
  WITH node, score ORDER BY score DESC, node.id LIMIT $fts_k
  WITH node, score WHERE node.namespace = $namespace
  RETURN node AS n, score AS weight, 'entity_names' AS via
  UNION
  UNWIND CASE WHEN $fts IS NULL THEN [] ELSE [$fts] END AS q
  CALL db.idx.fulltext.queryNodes('Memory', q) YIELD node, score
  WITH node, score ORDER BY score DESC, node.id LIMIT $fts_k
  WITH node, score
  WHERE node.namespace = $namespace AND node.type IN ['tasks', 'decisions'] AND node.status = 'active'
  RETURN node AS n, score AS weight, 'memory_text' AS via
}
RETURN toString(id(n)) AS eid, n.id AS id, labels(n) AS labels, n.type AS type, n.key AS key,
       n.canonical AS canonical, n.name AS name, n.uri AS uri, weight, via
ORDER BY via, weight DESC, id
