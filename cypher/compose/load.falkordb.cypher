// Everything compose_context reads before planning, in one round trip (see load.cypher for each part).
// FalkorDB: each part is an aggregating MATCH, never OPTIONAL MATCH, inside its subquery (an OPTIONAL
// MATCH there keeps its null row even through `WITH x WHERE x IS NOT NULL`); an aggregate over no row
// still gives the one row with an empty list. Core memory is sorted here (FalkorDB reads no index in order).
OPTIONAL MATCH (s:Session {id: $session_node_id})
CALL {
  UNWIND ['profile', 'preferences', 'goals', 'tasks', 'decisions'] AS type
  CALL {
    WITH type
    MATCH (m:Memory)
    WHERE m.namespace = $namespace AND m.type = type AND m.status = 'active'
      AND (type <> 'tasks' OR coalesce(m.task_status, '') <> 'done')
    RETURN m ORDER BY m.updated_at DESC, m.id LIMIT $per_type
  }
  RETURN collect({type: type, id: m.id, key: m.key, text: m.text, value_json: m.value_json,
                  updated_at: m.updated_at, source_turn_id: m.source_turn_id}) AS core
}
CALL {
  WITH s
  MATCH (s)-[:HAS_SUMMARY]->(sum:Summary)
  WHERE sum.version = s.summary_version
  RETURN collect({text: sum.text, version: sum.version})[..1] AS summary
}
CALL {
  WITH s
  MATCH (t:Turn)
  WHERE t.namespace = $namespace AND t.session_id = $session_id AND t.seq > s.last_seq - $n
  MATCH (t)-[:HAS_MESSAGE]->(m:Message)
  WITH t, m ORDER BY t.seq, m.position
  RETURN collect({turn_id: t.turn_id, seq: t.seq, role: m.role, content: m.content,
                  message_id: m.message_id, position: m.position}) AS recent
}
CALL {
  MATCH (r:Ref)
  WHERE r.namespace = $namespace
  WITH r LIMIT 200
  RETURN collect({uri: r.uri, title: r.title, type: r.type}) AS refs
}
CALL {
  MATCH (d:Document)
  WHERE d.namespace = $namespace
  WITH d LIMIT 500
  RETURN collect({uri: d.source_uri, title: d.title, document_id: d.id}) AS documents
}
CALL {
  MATCH (e:Entity)
  WHERE e.namespace = $namespace AND e.canonical IN $names AND coalesce(e.status, 'active') = 'active'
  RETURN collect({name: e.name, canonical: e.canonical, aliases: coalesce(e.aliases, [])}) AS aliases
}
RETURN core, summary, recent, refs, documents, aliases
