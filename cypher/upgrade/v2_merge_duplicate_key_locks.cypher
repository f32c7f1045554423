// v2 (before the schema): MemoryKey lock ids become unique. Before the constraint, two commits racing on
// a new key could each MERGE a lock node, and the constraint cannot be created over duplicates. A lock's
// only state is a touch counter, so the extra nodes of an id go (at most $batch per run); returns how many.
MATCH (l:MemoryKey)
WHERE $namespace IS NULL OR l.namespace = $namespace
WITH l.id AS id, collect(l) AS locks
WHERE size(locks) > 1
UNWIND tail(locks) AS extra
WITH extra LIMIT $batch
DETACH DELETE extra
RETURN count(*) AS changed
