// relational: the nodes a query names, to seed the traversal, all inside the namespace, each by an index:
// entities by canonical name ($names are canonical forms, lowercase), memory items by a key written in the
// query ($keys), refs by URI; weight 1.0. An entity named by one of its aliases, or a ref's entity by its
// title, is found among the full-text seeds (relational_fts_entities, whose rows carry the aliases; the
// caller weighs an exact match 1.0), a separate query so the caller can widen its k per index.
// Rows 'prior' (weight 0; the caller weighs them): the query's best exact and semantic hits, by message
// and memory id, read here too so seeding is one round trip.
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
RETURN elementId(n) AS eid, n.id AS id, labels(n) AS labels, n.type AS type, n.key AS key,
       n.canonical AS canonical, n.name AS name, n.uri AS uri, n.session_id AS session_id,
       n.turn_id AS turn_id, n.message_id AS message_id, n.turn_count AS turn_count, weight, via
ORDER BY via, weight DESC, id
