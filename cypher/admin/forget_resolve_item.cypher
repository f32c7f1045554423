// forget an item: the key an item id (or a key) names inside $namespace, how many versions it has, for an
// entity its canonical names (Turn.entity_keys holds those), and what each version says (to find the
// summaries and traces that quote it).
CALL () {
  MATCH (m:Memory) WHERE m.id = $item_id AND m.namespace = $namespace
  RETURN m.key AS key
  UNION
  MATCH (m:Memory) WHERE m.namespace = $namespace AND m.key = $key
  RETURN m.key AS key
}
MATCH (v:Memory)
WHERE v.namespace = $namespace AND v.key = key
RETURN key, [c IN collect(DISTINCT v.canonical) WHERE c IS NOT NULL] AS canonicals, count(v) AS versions,
       collect({id: v.id, key: v.key, type: v.type, text: v.text, value_json: v.value_json, name: v.name,
                aliases: v.aliases}) AS items
