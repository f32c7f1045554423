// forget an item: one batch of the versions of a key, with every edge (a node's full-text and vector
// index entries go with the node). Returns the entities they mentioned, for delete_orphan_entities in
// the same transaction. The caller repeats until deleted = 0.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.key = $key
WITH m LIMIT $batch
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WITH collect(DISTINCT m) AS items, collect(DISTINCT e) AS mentioned
WITH items, [e IN mentioned WHERE NOT e IN items | e.id] AS entity_ids
FOREACH (x IN items | DETACH DELETE x)
RETURN size(items) AS deleted, entity_ids
