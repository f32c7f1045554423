// The candidates for system_blocks: active profile facts, preferences, goals, open tasks and recent
// decisions of the namespace, newest first, a few per type.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active'
  AND m.type IN ['profile', 'preferences', 'goals', 'tasks', 'decisions']
  AND (m.type <> 'tasks' OR coalesce(m.task_status, '') <> 'done')
WITH m ORDER BY m.updated_at DESC, m.id
WITH m.type AS type, collect(m)[..$per_type] AS items
UNWIND items AS m
RETURN type, m.id AS id, m.key AS key, m.text AS text, m.value_json AS value_json,
       m.updated_at AS updated_at, m.source_turn_id AS source_turn_id
