// forget an item: the key an item id (or a key) names inside $namespace, how many versions it has, and,
// for an entity, its canonical names (Turn.entity_keys holds those). FalkorDB: a UNION subquery's columns
// reach a later WHERE only through a WITH.
CALL {
  MATCH (m:Memory) WHERE m.id = $item_id AND m.namespace = $namespace
  RETURN m.key AS key
  UNION
  MATCH (m:Memory) WHERE m.namespace = $namespace AND m.key = $key
  RETURN m.key AS key
}
WITH DISTINCT key
MATCH (v:Memory)
WHERE v.namespace = $namespace AND v.key = key
RETURN key, [c IN collect(DISTINCT v.canonical) WHERE c IS NOT NULL] AS canonicals, count(v) AS versions
