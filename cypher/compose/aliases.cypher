// Entities the message names (by canonical name or alias), with their aliases, for query expansion.
// Candidates (seen, never through the entity gate) carry no aliases worth expanding to. Two parts so
// the canonical names are found by index and only entities that have aliases are scanned.
MATCH (e:Entity {namespace: $namespace})
WHERE e.canonical IN $names AND coalesce(e.status, 'active') = 'active'
RETURN e.name AS name, e.canonical AS canonical, coalesce(e.aliases, []) AS aliases, e.kind AS kind
UNION
MATCH (e:Entity {namespace: $namespace})
WHERE coalesce(e.status, 'active') = 'active' AND size(coalesce(e.aliases, [])) > 0
  AND any(a IN e.aliases WHERE toLower(a) IN $names)
RETURN e.name AS name, e.canonical AS canonical, coalesce(e.aliases, []) AS aliases, e.kind AS kind
