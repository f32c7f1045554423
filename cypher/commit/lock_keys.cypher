// Serialise commits that touch the same type+key (sorted by the caller to avoid deadlocks), then read
// the active item of each key inside the same transaction.
UNWIND $keys AS k
MERGE (l:MemoryKey {id: k.lock_id})
  ON CREATE SET l.namespace = $namespace, l.key = k.key
SET l.touched = coalesce(l.touched, 0) + 1
WITH k
OPTIONAL MATCH (m:Memory {active_key: k.lock_id})
RETURN k.key AS key, m.id AS id, m.type AS type, m.value_json AS value_json, m.version AS version,
       m.confidence AS confidence, m.created_at AS created_at
