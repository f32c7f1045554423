// Benchmarks only: the history edges from each new version to the item it replaced (new → old).
UNWIND $links AS l
MATCH (new:Memory {id: l.new_id})
MATCH (old:Memory {id: l.old_id})
FOREACH (_ IN CASE WHEN l.edge = 'SUPERSEDES' THEN [1] ELSE [] END | CREATE (new)-[:SUPERSEDES {at: l.at}]->(old))
FOREACH (_ IN CASE WHEN l.edge = 'VERSION_OF' THEN [1] ELSE [] END | CREATE (new)-[:VERSION_OF {at: l.at}]->(old))
RETURN count(*) AS linked
