// Benchmarks only, the floor of a write: one small node in its own transaction (removed with the
// benchmark's namespace).
CREATE (n:BenchProbe {id: $id, namespace: $namespace, at: datetime()})
RETURN n.id AS id
