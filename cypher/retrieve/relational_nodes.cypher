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
RETURN collect({eid: elementId(n),
                id: n.id,
                labels: labels(n),
                type: n.type,
                key: n.key,
                canonical: n.canonical,
                name: n.name,
                uri: n.uri,
                session_id: n.session_id,
                turn_id: n.turn_id,
                message_id: n.message_id,
                turn_count: n.turn_count}) AS rows
