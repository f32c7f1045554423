// Active memory items that extraction may refer to (task status changes, retractions, preference
// overwrites): the most recently updated ones of the namespace, of the given types.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active' AND m.type IN $types
WITH m ORDER BY m.updated_at DESC LIMIT $limit
RETURN m.id AS id, m.type AS type, m.key AS key, m.value_json AS value_json, m.text AS text
