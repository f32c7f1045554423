// What the working summary is built from: the session's active goals, decisions and tasks, its refs
// and entities, and the user's open questions in the turns being summarised.
MATCH (s:Session {id: $session_node_id})
// Items: the session's own (its source_session_id index) and the namespace's newest goals.
CALL {
  WITH s
  CALL {
    WITH s
    MATCH (m:Memory)
    WHERE m.namespace = $namespace AND m.source_session_id = s.session_id AND m.status = 'active'
      AND m.type IN ['goals', 'decisions', 'tasks']
    RETURN m
    UNION
    MATCH (m:Memory)
    WHERE m.namespace = $namespace AND m.type = 'goals' AND m.status = 'active'
    RETURN m ORDER BY m.updated_at DESC, m.id LIMIT 60
  }
  RETURN collect({type: m.type, key: m.key, text: m.text, value_json: m.value_json,
                  updated_at: m.updated_at})[..60] AS items
}
CALL {
  WITH s
  OPTIONAL MATCH (s)-[:HAS_TURN]->(:Turn)-[:REFERENCES]->(r:Ref)
  WITH r WHERE r IS NOT NULL
  RETURN collect(DISTINCT {uri: r.uri, title: r.title, type: r.type})[..20] AS refs
}
CALL {
  WITH s
  OPTIONAL MATCH (s)-[:HAS_TURN]->(:Turn)-[m:MENTIONS]->(e:Entity)
  WHERE coalesce(e.status, 'active') = 'active'
  WITH e, sum(m.count) AS c ORDER BY c DESC LIMIT 12
  RETURN collect(e.name) AS entities
}
CALL {
  WITH s
  OPTIONAL MATCH (t:Turn)
  WHERE t.namespace = $namespace AND t.session_id = $session_id AND t.seq > $from_seq AND t.seq <= $to_seq
  OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(msg:Message {role: 'user'})
  RETURN collect(msg.content) AS user_messages
}
RETURN items, refs, entities, user_messages
