// forget a session: what the items about to go say (id, key, type, text, value, entity names), to find the
// summaries and traces elsewhere in the namespace that quote them.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
RETURN m.id AS id, m.key AS key, m.type AS type, m.text AS text, m.value_json AS value_json, m.name AS name,
       m.aliases AS aliases
