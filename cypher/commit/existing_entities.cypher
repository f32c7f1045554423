// Which of these canonical names already passed the gate (exist as Entity nodes), whatever their kind.
UNWIND $canonicals AS c
MATCH (e:Entity {namespace: $namespace, canonical: c})
WITH c, e ORDER BY e.created_at
WITH c, collect(e)[0] AS e
RETURN c AS canonical, e.id AS id, e.key AS key, e.kind AS kind
