// Entities mentioned in the same turn are related; the weight counts the turns they share.
UNWIND $pairs AS p
MATCH (a:Entity {id: p[0]}), (b:Entity {id: p[1]})
MERGE (a)-[r:RELATED_TO]->(b)
  ON CREATE SET r.weight = 0, r.first_seen = $at
SET r.weight = r.weight + 1, r.last_seen = $at
RETURN count(r) AS related
