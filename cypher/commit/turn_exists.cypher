// Idempotence: a turn already committed (same namespace, session and turn_id) is not written again.
MATCH (t:Turn {id: $turn_node_id})
// A turn deleted by a concurrent forget after the MATCH reads as nulls (READ COMMITTED): not there.
WITH t, t.seq AS seq, t.commit_id AS commit_id
WHERE seq IS NOT NULL
OPTIONAL MATCH (c:CommitTrace {id: commit_id})
RETURN seq, commit_id, c.result AS result
