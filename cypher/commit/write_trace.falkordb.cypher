// What the commit wrote, kept and queryable by commit_id.
MATCH (t:Turn {id: $turn_node_id})
CREATE (c:CommitTrace {id: $commit_id, namespace: $namespace, session_id: $session_id,
                       turn_id: t.turn_id, created_at: $_now, result: $result})
CREATE (c)-[:FOR_TURN]->(t)
RETURN c.id AS commit_id
