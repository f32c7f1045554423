// Benchmarks only: (Turn)-[:NEXT]->(Turn) between consecutive turns of a session (one MATCH per node:
// each is an index seek on both backends).
UNWIND $pairs AS p
MATCH (a:Turn {id: p.a})
MATCH (b:Turn {id: p.b})
CREATE (a)-[:NEXT]->(b)
RETURN count(*) AS linked
