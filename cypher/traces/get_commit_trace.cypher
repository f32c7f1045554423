MATCH (c:CommitTrace {id: $commit_id})
WHERE c.namespace = $namespace
RETURN c.id AS commit_id, c.session_id AS session_id, c.turn_id AS turn_id, c.created_at AS created_at,
       c.result AS result
