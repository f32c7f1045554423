// What extraction and the gates need to know before a commit: the entity keys of the session's last
// `window` turns (the entity-gate window), the last message (a new turn's context) and where the working summary stands. Turns are found through
// the Turn (namespace, session_id, seq) indexes, so the cost does not grow with the session's length;
// FalkorDB uses those indexes only for values it knows before the match ($namespace, $session_id), not for
// another node's properties (s.namespace scanned every Turn: 63 ms at 10k turns, growing with the data).
OPTIONAL MATCH (s:Session {id: $session_node_id})
CALL {
  WITH s
  OPTIONAL MATCH (t:Turn)
  WHERE s IS NOT NULL AND t.namespace = $namespace AND t.session_id = $session_id
    AND t.seq > s.last_seq - $window
  RETURN collect(t.entity_keys) AS window_keys
}
CALL {
  WITH s
  OPTIONAL MATCH (t:Turn)-[:HAS_MESSAGE]->(m:Message)
  WHERE s IS NOT NULL AND t.namespace = $namespace AND t.session_id = $session_id AND t.seq = s.last_seq
    AND trim(coalesce(m.content, '')) <> ''
  WITH m ORDER BY m.position DESC LIMIT 1
  RETURN m.content AS last_content, m.name AS last_name, m.role AS last_role
}
RETURN s.last_seq AS last_seq, s.summary_version AS summary_version,
       s.summary_upto_seq AS summary_upto_seq, s.tokens_since_summary AS tokens_since_summary,
       window_keys, last_content, last_name, last_role
