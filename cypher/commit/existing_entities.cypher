// Which of these canonical names exist as Entity nodes, whatever their kind: active ones passed the gate
// already; candidates (status 'candidate') were only seen, and go through the gate again.
UNWIND $canonicals AS c
MATCH (e:Entity {namespace: $namespace, canonical: c})
WITH c, e ORDER BY e.created_at
WITH c, collect(e)[0] AS e
// An entity deleted by a concurrent forget after the MATCH reads as nulls (READ COMMITTED): not there.
WITH c, e.id AS id, e.key AS key, e.kind AS kind, coalesce(e.status, 'active') AS status
WHERE id IS NOT NULL
RETURN c AS canonical, id, key, kind, status
