// Benchmarks only: how much one namespace holds, by kind of node (range indexes on namespace serve each).
CALL () { MATCH (n:Turn) WHERE n.namespace = $namespace RETURN count(n) AS turns }
CALL () { MATCH (n:Message) WHERE n.namespace = $namespace RETURN count(n) AS messages }
CALL () {
  MATCH (n:Memory) WHERE n.namespace = $namespace AND NOT n:Entity
  RETURN count(n) AS memory_items, count(CASE WHEN n.status = 'active' THEN 1 END) AS active_items
}
CALL () { MATCH (n:Entity) WHERE n.namespace = $namespace RETURN count(n) AS entities }
CALL () { MATCH (n:Session) WHERE n.namespace = $namespace RETURN count(n) AS sessions }
RETURN turns, messages, memory_items, active_items, entities, sessions
