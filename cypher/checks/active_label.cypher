// Memory items whose Active label disagrees with their status: every query that changes a status sets or
// removes the label (Neo4j's active-only vector indexes hold exactly the labelled items).
MATCH (m:Memory {namespace: $namespace})
WHERE coalesce(m.status = 'active', false) <> m:Active
RETURN m.id AS id, m.status AS status
ORDER BY id
LIMIT 100
