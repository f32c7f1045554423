// Benchmarks and their tests: the property key sets of the relationships leaving one namespace's nodes,
// per type (bench.harness.namespace_shapes unions them). A scan of the namespace: not for hot paths.
MATCH (a)-[r]->()
WHERE a.namespace = $namespace
WITH type(r) AS type, keys(r) AS keys
RETURN type, collect(DISTINCT keys) AS key_sets
