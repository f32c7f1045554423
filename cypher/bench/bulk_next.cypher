// Benchmarks only: (Turn)-[:NEXT]->(Turn) between consecutive turns of a session.
UNWIND $pairs AS p
MATCH (a:Turn {id: p.a}), (b:Turn {id: p.b})
CREATE (a)-[:NEXT]->(b)
RETURN count(*) AS linked
