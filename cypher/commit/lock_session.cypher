// Take the session's write lock and the next sequence number: commits to one session serialise here,
// so sequence numbers stay gap-free under concurrency.
MERGE (s:Session {id: $session_node_id})
  ON CREATE SET s.namespace = $namespace, s.session_id = $session_id, s.created_at = $at,
                s.last_seq = 0, s.summary_version = 0, s.summary_upto_seq = 0, s.tokens_since_summary = 0
SET s.last_seq = s.last_seq + 1, s.updated_at = $at
RETURN s.last_seq AS seq, s.summary_version AS summary_version, s.summary_upto_seq AS summary_upto_seq,
       s.tokens_since_summary AS tokens_since_summary
