// What extraction and the gates need to know before a commit: the session's recent turns (their entity
// keys, for the entity gate window) and where the working summary stands.
OPTIONAL MATCH (s:Session {id: $session_node_id})
CALL {
  WITH s
  OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
  WITH t ORDER BY t.seq DESC LIMIT $window
  RETURN collect(t.entity_keys) AS window_keys
}
RETURN s.last_seq AS last_seq, s.summary_version AS summary_version,
       s.summary_upto_seq AS summary_upto_seq, s.tokens_since_summary AS tokens_since_summary,
       window_keys
