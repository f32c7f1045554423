// How many nodes of any label a namespace holds (replay-commits checks its scratch namespace is gone).
MATCH (n)
WHERE n.namespace = $namespace
RETURN count(n) AS nodes
