// Entities the message names (by canonical name or alias), with their aliases, for query expansion.
UNWIND $names AS n
MATCH (e:Entity {namespace: $namespace})
WHERE e.canonical = n OR n IN [a IN coalesce(e.aliases, []) | toLower(a)]
RETURN DISTINCT e.name AS name, e.canonical AS canonical, coalesce(e.aliases, []) AS aliases, e.kind AS kind
