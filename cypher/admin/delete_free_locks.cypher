// Write-lock nodes (MemoryKey, one per namespace+key) of keys that no Memory item uses any more.
UNWIND $keys AS key
MATCH (l:MemoryKey {id: $namespace + '|' + key})
WHERE NOT EXISTS { MATCH (m:Memory) WHERE m.namespace = $namespace AND m.key = key }
DETACH DELETE l
RETURN count(l) AS deleted
