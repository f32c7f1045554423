// export (with sessions): one page of the namespace's Turn nodes after $after (keyset paging on id), each
// with its edges: HAS_TURN from its session, NEXT to the following turn, MENTIONS to entities. Messages
// stay out: a turn's text holds them.
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.id > $after
WITH t ORDER BY t.id LIMIT $page
CALL {
  WITH t
  OPTIONAL MATCH (s:Session)-[:HAS_TURN]->(t)
  WHERE s.namespace = $namespace
  RETURN collect(CASE WHEN s IS NULL THEN null
                      ELSE {type: 'HAS_TURN', source: s.id, target: t.id, props: {}} END) AS into
}
CALL {
  WITH t
  OPTIONAL MATCH (t)-[r:NEXT|MENTIONS]->(o)
  WHERE o.namespace = $namespace AND (o:Turn OR o:Entity)
  RETURN collect(CASE WHEN r IS NULL THEN null
                      ELSE {type: type(r), source: t.id, target: o.id, props: properties(r)} END) AS out
}
RETURN t.id AS id, labels(t) AS labels, t {.*} AS props, into + out AS edges
