// The memory items (entities included) whose source session is this one, in one namespace: what
// replay-commits compares between the real namespace and its scratch copy.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.source_session_id = $session_id
RETURN m.id AS id, m.type AS type, m.key AS key, m.status AS status, m.confidence AS confidence,
       m.version AS version, m.source_turn_id AS source_turn_id, m.created_at AS created_at
ORDER BY m.created_at, m.key, m.version, m.id
