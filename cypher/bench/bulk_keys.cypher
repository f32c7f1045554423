// Benchmarks only: the MemoryKey lock node of each key seen for the first time (CREATE, not MERGE:
// the generator knows which keys are new).
UNWIND $keys AS k
CREATE (n:MemoryKey {id: k.id, namespace: $namespace, key: k.key, touched: 1})
RETURN count(n) AS keys
