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
RETURN collect({id: m.id,
                type: m.type,
                key: m.key,
                text: m.text,
                status: m.status,
                confidence: m.confidence,
                session_id: m.source_session_id,
                turn_id: m.source_turn_id,
                message_id: m.source_message_id,
                updated_at: m.updated_at,
                version: m.version,
                entities: CASE WHEN m:Entity THEN [m.canonical] ELSE [] END + mentioned}) AS rows
