// Active memory items extraction may refer to (task status changes, retractions, preference
// overwrites) that this session made or changed lately: those derived from its last $window turns, found
// through the Turn (namespace, session_id, seq) index, so the cost follows the session's recent turns,
// not the namespace's size. The items the turn names by their words come from commit/context_items_by_id.
MATCH (s:Session {id: $session_node_id})
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.session_id = $session_id AND t.seq > s.last_seq - $window
// The turns first: without the WITH, FalkorDB starts from the namespace's every Memory by index and
// walks to their turns (21 ms at 10k items, growing; 0.6 ms this way).
WITH t
MATCH (m:Memory)-[:DERIVED_FROM]->(t)
WHERE m.status = 'active' AND m.type IN $types
WITH DISTINCT m
// Read once, then checked: under READ COMMITTED a node deleted by a concurrent forget after the MATCH
// reads as nulls here (a row of nothing, which extraction must not see).
WITH m.id AS id, m.type AS type, m.key AS key, m.value_json AS value_json, m.text AS text,
     m.updated_at AS updated_at
WHERE id IS NOT NULL AND key IS NOT NULL AND type IS NOT NULL AND value_json IS NOT NULL
RETURN id, type, key, value_json, text, updated_at
ORDER BY updated_at DESC, id
LIMIT $limit
