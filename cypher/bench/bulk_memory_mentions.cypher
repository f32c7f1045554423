// Benchmarks only: (Memory)-[:MENTIONS]->(Entity) for the items whose text names the entity.
UNWIND $mentions AS r
MATCH (m:Memory {id: r.memory_id})
MATCH (n:Entity {id: r.entity_id})
MERGE (m)-[:MENTIONS]->(n)
RETURN count(*) AS mentions
