// forget a session: one batch of its memory items (ids from forget_session_plan) with every edge and index
// entry. Returns their keys (for restore_keys and delete_free_locks) and the entities they mentioned (for
// delete_orphan_entities), all run by the caller in the same transaction.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WITH collect(DISTINCT m) AS items, collect(DISTINCT e) AS mentioned
WITH items, [m IN items | m.key] AS keys, [e IN mentioned WHERE NOT e IN items | e.id] AS entity_ids
FOREACH (x IN items | DETACH DELETE x)
RETURN size(items) AS deleted, keys, entity_ids
