// Benchmarks and their tests: the property key sets of one namespace's nodes, per label combination
// (bench.harness.namespace_shapes unions them per label). A scan of the namespace: not for hot paths.
MATCH (n)
WHERE n.namespace = $namespace
WITH labels(n) AS labels, keys(n) AS keys
RETURN labels, collect(DISTINCT keys) AS key_sets
