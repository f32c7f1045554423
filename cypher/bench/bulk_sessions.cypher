// Benchmarks only (graphbrain bench scale): the sessions of one bulk batch, the shape commit/lock_session
// makes; a session that spans batches is found again and moved on.
UNWIND $sessions AS r
MERGE (s:Session {id: r.id})
  ON CREATE SET s.namespace = $namespace, s.session_id = r.session_id, s.created_at = r.created_at,
                s.last_seq = 0, s.summary_version = 0, s.summary_upto_seq = 0, s.tokens_since_summary = 0
SET s.last_seq = r.last_seq, s.updated_at = r.updated_at
RETURN count(s) AS sessions
