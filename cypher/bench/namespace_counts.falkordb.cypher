// Benchmarks only: how much one namespace holds, by kind of node. FalkorDB has no CALL () {} scope
// clause: one label at a time, carried through WITH.
MATCH (t:Turn) WHERE t.namespace = $namespace
WITH count(t) AS turns
OPTIONAL MATCH (g:Message) WHERE g.namespace = $namespace
WITH turns, count(g) AS messages
OPTIONAL MATCH (m:Memory) WHERE m.namespace = $namespace AND NOT m:Entity
WITH turns, messages, count(m) AS memory_items, count(CASE WHEN m.status = 'active' THEN 1 END) AS active_items
OPTIONAL MATCH (e:Entity) WHERE e.namespace = $namespace
WITH turns, messages, memory_items, active_items, count(e) AS entities
OPTIONAL MATCH (s:Session) WHERE s.namespace = $namespace
RETURN turns, messages, memory_items, active_items, entities, count(s) AS sessions
