// Active memory items that extraction may refer to (task status changes, retractions, preference
// overwrites): the most recently updated ones of the namespace, of the given types.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active' AND m.type IN $types
WITH m ORDER BY m.updated_at DESC LIMIT $limit
// Read once, then checked: under READ COMMITTED a node deleted by a concurrent forget after the MATCH
// reads as nulls here (a row of nothing, which extraction must not see).
WITH m.id AS id, m.type AS type, m.key AS key, m.value_json AS value_json, m.text AS text
WHERE id IS NOT NULL AND key IS NOT NULL AND type IS NOT NULL AND value_json IS NOT NULL
RETURN id, type, key, value_json, text
