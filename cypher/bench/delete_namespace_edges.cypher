// Benchmarks only: delete up to $batch relationships of one namespace's nodes. Run before
// bench/delete_namespace until it deletes nothing, so a hub (an entity mentioned by thousands of turns)
// never puts all its relationships into one transaction.
MATCH (n)-[r]-()
WHERE n.namespace = $namespace
WITH DISTINCT r LIMIT $batch
DELETE r
RETURN count(*) AS deleted
