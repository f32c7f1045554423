// forget a session, first: the memory items derived only from its turns (every DERIVED_FROM turn is one of
// the session's; also its own items whose turns are already gone, after an interrupted forget), their
// keys, and the restore candidates: versions those items replaced, or that the session's turns retracted,
// which become active again if their key is left with no active version (admin/restore_keys).
// FalkorDB: pattern predicates and a turn count instead of EXISTS {}; CALL { WITH ... } imports.
CALL {
  MATCH (t:Turn)<-[:DERIVED_FROM]-(m:Memory)
  WHERE t.namespace = $namespace AND t.session_id = $session_id
  RETURN m
  UNION
  MATCH (m:Memory)
  WHERE m.namespace = $namespace AND m.source_session_id = $session_id AND NOT m:Entity
    AND NOT (m)-[:DERIVED_FROM]->(:Turn)
  RETURN m
}
WITH DISTINCT m
OPTIONAL MATCH (m)-[:DERIVED_FROM]->(o:Turn)
WHERE o.session_id <> $session_id
WITH m, count(o) AS elsewhere
WHERE elsewhere = 0
WITH collect(m) AS items
CALL {
  WITH items
  UNWIND items AS d
  OPTIONAL MATCH (d)-[:SUPERSEDES|RETRACTS|VERSION_OF]->(v:Memory)
  WITH items, v WHERE v IS NOT NULL AND NOT v IN items
  RETURN collect(DISTINCT v.id) AS replaced
}
CALL {
  WITH items
  OPTIONAL MATCH (v:Memory)
  WHERE v.namespace = $namespace AND v.status = 'retracted' AND v.retracted_by_turn IS NOT NULL
  WITH items, v WHERE v IS NOT NULL AND NOT v IN items
  OPTIONAL MATCH (t:Turn {id: v.retracted_by_turn})
  WITH v, t WHERE t.session_id = $session_id
  RETURN collect(DISTINCT v.id) AS retracted
}
RETURN [m IN items | m.id] AS ids, replaced + [r IN retracted WHERE NOT r IN replaced] AS candidates
