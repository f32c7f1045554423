// Texts of a few active memory items: the sample plans that must retrieve the same on both sides.
MATCH (m:Memory) WHERE m.namespace = $ns AND m.status = 'active' AND m.text IS NOT NULL
RETURN m.text AS text ORDER BY m.id LIMIT $n
