// v3: each entity counts the turns that mention it (turn_count, its specificity in the relational walk);
// commits keep it current from v3 on. At most $batch entities per run; returns how many it set.
MATCH (e:Entity)
WHERE e.turn_count IS NULL AND ($namespace IS NULL OR e.namespace = $namespace)
WITH e LIMIT $batch
SET e.turn_count = COUNT { (:Turn)-[:MENTIONS]->(e) }
RETURN count(e) AS changed
