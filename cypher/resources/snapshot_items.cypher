// Memory items a memory_snapshot renders: one namespace, by type and key prefix, in a stable order so the
// same memory renders to the same text (and a re-snapshot of unchanged memory is a no-op).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND (($types IS NULL AND m.type <> 'entities') OR m.type IN $types)
  AND ($key_prefix IS NULL OR m.key STARTS WITH $key_prefix)
RETURN m.id AS id, m.type AS type, m.key AS key, m.text AS text, m.value_json AS value_json,
       m.status AS status, m.confidence AS confidence, m.version AS version,
       m.created_at AS created_at, m.updated_at AS updated_at
ORDER BY m.type, m.key, m.version, m.id
LIMIT $limit
