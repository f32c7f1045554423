// forget a session: a version that the session's items replaced (or its turns retracted) becomes active
// again when its key is left with no active version: the newest such candidate of each key, so the key
// reads as if the forgotten session had never happened.
UNWIND $candidates AS cid
MATCH (v:Memory {id: cid})
WHERE v.namespace = $namespace AND v.status <> 'active'
WITH v ORDER BY v.created_at DESC
WITH v.key AS key, head(collect(v)) AS v
WHERE NOT EXISTS { MATCH (a:Memory) WHERE a.namespace = $namespace AND a.key = key AND a.status = 'active' }
SET v:Active, v.status = 'active', v.active_key = $namespace + '|' + key, v.retracted_by_turn = null,
    v.restored_at = datetime(), v.updated_at = datetime()
RETURN count(v) AS restored
