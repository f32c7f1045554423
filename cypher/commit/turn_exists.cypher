// Idempotence: a turn already committed (same namespace, session and turn_id) is not written again.
MATCH (t:Turn {id: $turn_node_id})
OPTIONAL MATCH (c:CommitTrace {id: t.commit_id})
RETURN t.seq AS seq, t.commit_id AS commit_id, c.result AS result
