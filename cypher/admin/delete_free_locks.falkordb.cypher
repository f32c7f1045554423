// Write-lock nodes (MemoryKey, one per namespace+key) of keys that no Memory item uses any more
// (FalkorDB has no EXISTS {}: the users of each key are counted instead).
UNWIND $keys AS key
MATCH (l:MemoryKey {id: $namespace + '|' + key})
OPTIONAL MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.key = key
WITH l, count(m) AS users
WHERE users = 0
DETACH DELETE l
RETURN count(l) AS deleted
