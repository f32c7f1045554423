// Benchmarks only: delete up to $batch nodes of one namespace (every label: turns, messages, memory,
// entities, key locks, traces, documents, chunks ...). The caller repeats it until it deletes nothing,
// so no single transaction grows with the namespace.
MATCH (n)
WHERE n.namespace = $namespace
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
