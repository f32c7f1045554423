// Turns and active memory items of a namespace, for load reports.
MATCH (t:Turn {namespace: $namespace})
WITH count(t) AS turns
OPTIONAL MATCH (m:Memory {namespace: $namespace, status: 'active'})
RETURN turns, count(m) AS active_items
