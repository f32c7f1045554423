// Everything evidence needs about the fused memory candidates, in one round trip: the item, and the
// canonical names of the entities it mentions (an Entity item names itself) for the reranker.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
CALL {
  WITH m
  OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
  WHERE e.namespace = $namespace
  WITH e ORDER BY e.canonical
  RETURN collect(e.canonical) AS mentioned
}
RETURN m.id AS id, m.type AS type, m.key AS key, m.text AS text, m.status AS status,
       m.confidence AS confidence, m.source_session_id AS session_id, m.source_turn_id AS turn_id,
       m.source_message_id AS message_id, m.updated_at AS updated_at,
       m.version AS version,
       CASE WHEN m:Entity THEN [m.canonical] ELSE [] END + mentioned AS entities
