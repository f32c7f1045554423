// relational: the nodes a query names, to seed the traversal, all inside the namespace, each by an index:
// entities by canonical name ($names are canonical forms, lowercase), memory items by a key written in the
// query ($keys), refs by URI; weight 1.0. An entity named by one of its aliases, or a ref's entity by its
// title, is found among the full-text seeds (relational_fts_entities, whose rows carry the aliases; the
// caller weighs an exact match 1.0), a separate query so the caller can widen its k per index.
CALL () {
  MATCH (e:Entity)
  WHERE e.namespace = $namespace AND e.canonical IN $names
  RETURN e AS n, 1.0 AS weight, 'name' AS via
  UNION
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.key IN $keys
  RETURN m AS n, 1.0 AS weight, 'key' AS via
  UNION
  MATCH (r:Ref)
  WHERE r.namespace = $namespace AND r.uri IN $uris
  RETURN r AS n, 1.0 AS weight, 'ref' AS via
}
RETURN elementId(n) AS eid, n.id AS id, labels(n) AS labels, n.type AS type, n.key AS key,
       n.canonical AS canonical, n.name AS name, n.uri AS uri, n.turn_count AS turn_count, weight, via
ORDER BY via, weight DESC, id
