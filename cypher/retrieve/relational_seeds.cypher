// relational: the nodes a query names, to seed the traversal, all inside the namespace: entities by
// canonical name or alias ($names are canonical forms, lowercase), memory items by a key written in the
// query ($keys), refs by URI or title; weight 1.0. The full-text seeds (relational_fts_entities,
// relational_fts_memory) are separate queries, so the caller can widen their k per index.
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
}
RETURN elementId(n) AS eid, n.id AS id, labels(n) AS labels, n.type AS type, n.key AS key,
       n.canonical AS canonical, n.name AS name, n.uri AS uri, n.turn_count AS turn_count, weight, via
ORDER BY via, weight DESC, id
