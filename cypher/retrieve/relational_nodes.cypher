// relational: the query's best exact and semantic hits (message and memory ids), as walk seeds with
// the fields that name them, all inside the namespace.
CALL () {
  UNWIND $messages AS id
  MATCH (n:Message {id: id})
  WHERE n.namespace = $namespace
  RETURN n
  UNION
  UNWIND $memories AS id
  MATCH (n:Memory {id: id})
  WHERE n.namespace = $namespace
  RETURN n
}
RETURN elementId(n) AS eid, n.id AS id, labels(n) AS labels, n.type AS type, n.key AS key,
       n.canonical AS canonical, n.name AS name, n.uri AS uri, n.session_id AS session_id,
       n.turn_id AS turn_id, n.message_id AS message_id, n.turn_count AS turn_count
