// forget a session, last: the Session node; the entities it introduced that nothing mentions now (a safety
// net for an interrupted forget: the turn batches already dropped the ones they orphaned); and, for the
// ones still mentioned elsewhere, provenance that no longer names the forgotten session: the earliest
// remaining turn (and message) that mentions them, or null. (FalkorDB: CALL { WITH ... } imports, a
// pattern predicate for NOT EXISTS {}. The first subquery MATCHes: after an OPTIONAL MATCH that found no
// entity, the indexed MemoryKey lookup on e.key fails the whole query with "_AR_EXP_UpdateEntityIdx: No
// record was given to locate a value with alias e"; its count still gives the one row.)
OPTIONAL MATCH (s:Session)
WHERE s.namespace = $namespace AND s.session_id = $session_id
DETACH DELETE s
WITH count(s) AS sessions
CALL {
  MATCH (e:Entity)
  WHERE e.namespace = $namespace AND e.source_session_id = $session_id AND NOT ()-[:MENTIONS]->(e)
  OPTIONAL MATCH (l:MemoryKey {id: $namespace + '|' + e.key})
  DETACH DELETE l, e
  RETURN count(DISTINCT e) AS entities
}
CALL {
  OPTIONAL MATCH (e:Entity)
  WHERE e.namespace = $namespace AND e.source_session_id = $session_id
  CALL {
    WITH e
    OPTIONAL MATCH (t:Turn)-[:MENTIONS]->(e)
    WITH e, t ORDER BY t.at, t.seq LIMIT 1
    OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(m:Message)-[:MENTIONS]->(e)
    WITH t, m ORDER BY m.position LIMIT 1
    RETURN t, m
  }
  WITH e, t, m WHERE e IS NOT NULL
  SET e.source_session_id = t.session_id, e.source_turn_id = t.turn_id, e.source_message_id = m.message_id
  RETURN count(e) AS reattributed
}
RETURN sessions, entities, reattributed
