// v3: each entity counts the turns that mention it (see v3_entity_turn_counts.cypher).
MATCH (e:Entity)
WHERE e.turn_count IS NULL AND ($namespace IS NULL OR e.namespace = $namespace)
WITH e LIMIT $batch
OPTIONAL MATCH (t:Turn)-[:MENTIONS]->(e)
WITH e, count(t) AS turns
SET e.turn_count = turns
RETURN count(e) AS changed
