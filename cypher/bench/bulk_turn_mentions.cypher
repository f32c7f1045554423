// Benchmarks only: (Turn)-[:MENTIONS {count}]->(Entity), as commit/write_entities links them.
UNWIND $mentions AS r
MATCH (t:Turn {id: r.turn_node_id})
MATCH (n:Entity {id: r.entity_id})
CREATE (t)-[:MENTIONS {count: r.count}]->(n)
RETURN count(*) AS mentions
