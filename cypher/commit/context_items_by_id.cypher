// The active memory items the turn's words found (retrieve/exact_memory over memory_text), with what
// extraction reads of them; checked as commit/context_items checks its rows.
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})
WHERE m.namespace = $namespace AND m.status = 'active'
WITH m.id AS id, m.type AS type, m.key AS key, m.value_json AS value_json, m.text AS text,
     m.updated_at AS updated_at
WHERE id IS NOT NULL AND key IS NOT NULL AND type IS NOT NULL AND value_json IS NOT NULL
RETURN id, type, key, value_json, text, updated_at
