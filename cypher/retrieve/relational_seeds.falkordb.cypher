// relational: the nodes a query names, to seed the traversal (see relational_seeds.cypher); the
// full-text seeds are relational_fts_entities and relational_fts_memory; 'prior' rows are the query's
// best exact and semantic hits.
CALL {
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
  UNION
  UNWIND $messages AS id
  MATCH (n:Message {id: id})
  WHERE n.namespace = $namespace
  RETURN n, 0.0 AS weight, 'prior' AS via
  UNION
  UNWIND $memories AS id
  MATCH (n:Memory {id: id})
  WHERE n.namespace = $namespace
  RETURN n, 0.0 AS weight, 'prior' AS via
}
RETURN toString(id(n)) AS eid, n.id AS id, labels(n) AS labels, n.type AS type, n.key AS key,
       n.canonical AS canonical, n.name AS name, n.uri AS uri, n.session_id AS session_id,
       n.turn_id AS turn_id, n.message_id AS message_id, n.turn_count AS turn_count, weight, via
ORDER BY via, weight DESC, id
