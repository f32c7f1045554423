// Everything compose_context reads before planning, in one round trip; every part is bounded by an index,
// so its cost does not grow with the namespace:
// - core: the candidates for system_blocks, newest first, $per_type per type (active profile facts,
//   preferences, goals, open tasks, recent decisions), read in the order of the memory_recent index;
// - summary: the session's latest working summary; recent: its last $n turns' messages, oldest first,
//   found through the Turn (namespace, session_id, seq) index;
// - refs and documents: what a message may name as a scope (the first 200 and 500);
// - aliases: the entities the message names by canonical name (an alias said is found by the caller in
//   the entity_names full-text index). Candidates (never through the entity gate) carry no aliases.
OPTIONAL MATCH (s:Session {id: $session_node_id})
CALL () {
  UNWIND ['profile', 'preferences', 'goals', 'tasks', 'decisions'] AS type
  CALL (type) {
    MATCH (m:Memory)
    WHERE m.namespace = $namespace AND m.type = type AND m.status = 'active' AND m.updated_at IS NOT NULL
      AND (type <> 'tasks' OR coalesce(m.task_status, '') <> 'done')
    RETURN m ORDER BY m.namespace DESC, m.type DESC, m.status DESC, m.updated_at DESC, m.id LIMIT $per_type
  }
  RETURN collect({type: type, id: m.id, key: m.key, text: m.text, value_json: m.value_json,
                  updated_at: m.updated_at, source_turn_id: m.source_turn_id}) AS core
}
CALL (s) {
  OPTIONAL MATCH (s)-[:HAS_SUMMARY]->(sum:Summary {version: s.summary_version})
  RETURN collect({text: sum.text, version: sum.version})[..1] AS summary
}
CALL (s) {
  OPTIONAL MATCH (t:Turn)
  WHERE s IS NOT NULL AND t.namespace = s.namespace AND t.session_id = s.session_id AND t.seq > s.last_seq - $n
  OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(m:Message)
  WITH t, m WHERE m IS NOT NULL
  WITH t, m ORDER BY t.seq, m.position
  RETURN collect({turn_id: t.turn_id, seq: t.seq, role: m.role, content: m.content,
                  message_id: m.message_id, position: m.position}) AS recent
}
CALL () {
  MATCH (r:Ref {namespace: $namespace})
  WITH r LIMIT 200
  RETURN collect({uri: r.uri, title: r.title, type: r.type}) AS refs
}
CALL () {
  MATCH (d:Document {namespace: $namespace})
  WITH d LIMIT 500
  RETURN collect({uri: d.source_uri, title: d.title, document_id: d.id}) AS documents
}
CALL () {
  MATCH (e:Entity {namespace: $namespace})
  WHERE e.canonical IN $names AND coalesce(e.status, 'active') = 'active'
  RETURN collect({name: e.name, canonical: e.canonical, aliases: coalesce(e.aliases, [])}) AS aliases
}
RETURN core, summary, recent, refs, documents, aliases
