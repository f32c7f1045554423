// Canonical entity names held by more than one Entity node in a namespace (must never happen).
MATCH (e:Entity {namespace: $namespace})
WITH e.canonical AS canonical, count(e) AS nodes
WHERE nodes > 1
RETURN canonical, nodes
ORDER BY canonical
