// forget a session, first: the memory items derived only from its turns (every DERIVED_FROM turn is one of
// the session's; also its own items whose turns are already gone, after an interrupted forget), their
// keys, and the restore candidates: versions those items replaced, or that the session's turns retracted,
// which become active again if their key is left with no active version (admin/restore_keys).
// The trailing IS NOT NULL predicates let the planner seek the composite range indexes.
CALL () {
  MATCH (t:Turn)<-[:DERIVED_FROM]-(m:Memory)
  WHERE t.namespace = $namespace AND t.session_id = $session_id AND t.seq IS NOT NULL
  RETURN m
  UNION
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.type IS NOT NULL AND m.status IS NOT NULL
    AND m.source_session_id = $session_id AND NOT m:Entity AND NOT EXISTS { MATCH (m)-[:DERIVED_FROM]->(:Turn) }
  RETURN m
}
WITH m
WHERE NOT EXISTS { MATCH (m)-[:DERIVED_FROM]->(o:Turn) WHERE o.session_id <> $session_id }
WITH collect(DISTINCT m) AS items
CALL (items) {
  UNWIND items AS d
  MATCH (d)-[:SUPERSEDES|RETRACTS|VERSION_OF]->(v:Memory)
  WHERE NOT v IN items
  RETURN collect(DISTINCT v.id) AS replaced
}
CALL (items) {
  MATCH (v:Memory)
  WHERE v.namespace = $namespace AND v.type IS NOT NULL AND v.status = 'retracted'
    AND v.retracted_by_turn IS NOT NULL AND NOT v IN items
  MATCH (t:Turn {id: v.retracted_by_turn})
  WHERE t.session_id = $session_id
  RETURN collect(DISTINCT v.id) AS retracted
}
RETURN [m IN items | m.id] AS ids, replaced + [r IN retracted WHERE NOT r IN replaced] AS candidates
