// memory list: the namespace's items, most recently updated first. Each filter is off when null:
// $types (memory types), $status (one status), $key_prefix, $session_id (items derived from the
// session's turns, or entities its turns mention). The IS NOT NULL predicates let the planner seek the
// memory_ns_type range index (a composite index needs a predicate on every property it covers).
// FalkorDB: pattern predicates instead of EXISTS {}.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.type IS NOT NULL AND m.status IS NOT NULL
  AND ($types IS NULL OR m.type IN $types)
  AND ($status IS NULL OR m.status = $status)
  AND ($key_prefix IS NULL OR m.key STARTS WITH $key_prefix)
  AND ($session_id IS NULL
       OR m.source_session_id = $session_id
       OR (m)-[:DERIVED_FROM]->(:Turn {session_id: $session_id})
       OR (m:Entity AND (:Turn {session_id: $session_id})-[:MENTIONS]->(m)))
RETURN m.id AS id, m.type AS type, m.key AS key, m.status AS status, m.confidence AS confidence,
       m.version AS version, m.text AS text, m.value_json AS value_json, m.source AS source,
       m.source_session_id AS session_id, m.source_turn_id AS turn_id, m.kind AS kind, m.name AS name,
       m.created_at AS created_at, m.updated_at AS updated_at
ORDER BY m.updated_at DESC, m.id
SKIP $offset LIMIT $limit
