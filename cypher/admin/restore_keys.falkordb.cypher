// forget a session: a version that the session's items replaced (or its turns retracted) becomes active
// again when its key is left with no active version: the newest such candidate of each key, so the key
// reads as if the forgotten session had never happened. (The active versions are counted: FalkorDB has
// no EXISTS {}; $_now is the store's clock: it has no datetime().)
UNWIND $candidates AS cid
MATCH (v:Memory {id: cid})
WHERE v.namespace = $namespace AND v.status <> 'active'
WITH v ORDER BY v.created_at DESC
WITH v.key AS key, head(collect(v)) AS v
OPTIONAL MATCH (a:Memory)
WHERE a.namespace = $namespace AND a.key = key AND a.status = 'active'
WITH key, v, count(a) AS active
WHERE active = 0
SET v:Active, v.status = 'active', v.active_key = $namespace + '|' + key, v.retracted_by_turn = null,
    v.restored_at = $_now, v.updated_at = $_now
RETURN count(v) AS restored
