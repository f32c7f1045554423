// Benchmarks only: (Message)-[:MENTIONS {start, end, text}]->(Entity), as commit/write_entities links them.
UNWIND $mentions AS r
MATCH (msg:Message {id: r.message_node_id})
MATCH (n:Entity {id: r.entity_id})
CREATE (msg)-[:MENTIONS {start: r.start, end: r.end, text: r.text}]->(n)
RETURN count(*) AS mentions
