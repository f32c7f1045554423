// Take the session's write lock and the next sequence number: commits to one session serialise here,
// so sequence numbers stay gap-free under concurrency.
// Twice: the first MERGE may find a Session that another transaction is deleting (forget, a test's wipe);
// its SET waits for that lock, and once the delete commits the node it holds is gone and reads as null
// (last_seq null, so seq null). After the lock is taken, the second MERGE finds the live node, or creates
// a fresh one if it was deleted while we waited: the returned seq is always the session's next one.
MERGE (s:Session {id: $session_node_id})
  ON CREATE SET s.namespace = $namespace, s.session_id = $session_id, s.created_at = $at,
                s.last_seq = 0, s.summary_version = 0, s.summary_upto_seq = 0, s.tokens_since_summary = 0
SET s.updated_at = $at
WITH count(*) AS locked
MERGE (s:Session {id: $session_node_id})
  ON CREATE SET s.namespace = $namespace, s.session_id = $session_id, s.created_at = $at,
                s.last_seq = 0, s.summary_version = 0, s.summary_upto_seq = 0, s.tokens_since_summary = 0
SET s.last_seq = s.last_seq + 1, s.updated_at = $at
RETURN s.last_seq AS seq, s.summary_version AS summary_version, s.summary_upto_seq AS summary_upto_seq,
       s.tokens_since_summary AS tokens_since_summary
