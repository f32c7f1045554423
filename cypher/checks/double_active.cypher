// Keys with more than one active memory item in a namespace (the active_key constraint forbids it).
MATCH (m:Memory {namespace: $namespace, status: 'active'})
WITH m.key AS key, count(m) AS active
WHERE active > 1
RETURN key, active
ORDER BY key
