// bench chaos: which of the memory items the writers were told were written are in the graph.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.id IN $ids
RETURN m.id AS id
