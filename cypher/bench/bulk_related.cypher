// Benchmarks only: RELATED_TO between entities named in the same turn, as commit/relate_entities makes
// it (the weight counts those turns).
UNWIND $related AS p
MATCH (a:Entity {id: p.a})
MATCH (b:Entity {id: p.b})
MERGE (a)-[r:RELATED_TO]->(b)
  ON CREATE SET r.weight = 0, r.first_seen = p.at
SET r.weight = r.weight + p.n, r.last_seen = p.at
RETURN count(r) AS related
