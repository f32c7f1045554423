// The namespace's known entities, most mentioned first: the entity ruler's lexicon (names and aliases
// that are found in a message as written, whatever a model makes of them).
MATCH (e:Entity {namespace: $namespace})
WHERE coalesce(e.status, 'active') = 'active'
RETURN e.canonical AS canonical, e.kind AS kind, e.name AS name, e.aliases AS aliases
ORDER BY coalesce(e.mention_count, 0) DESC
LIMIT $limit
