// Benchmarks only (graphbrain bench scale): sessions, turns and their messages in bulk, with the node
// shapes commit/lock_session and commit/write_turn make. Embeddings arrive as space-separated integers
// (vector × 1e7) and are stored as the float lists commit_turn stores; NEXT links are bench/bulk_next.
CALL () {
  UNWIND $sessions AS r
  MERGE (s:Session {id: r.id})
    ON CREATE SET s.namespace = $namespace, s.session_id = r.session_id, s.created_at = r.created_at,
                  s.last_seq = 0, s.summary_version = 0, s.summary_upto_seq = 0, s.tokens_since_summary = 0
  SET s.last_seq = r.last_seq, s.updated_at = r.updated_at
}
UNWIND $turns AS r
MATCH (s:Session {id: r.session_node_id})
CREATE (t:Turn {id: r.id, namespace: $namespace, session_id: r.session_id, turn_id: r.turn_id, seq: r.seq,
                at: r.at, commit_id: r.commit_id, entity_keys: r.entity_keys, text: r.text,
                metadata_json: r.metadata_json, created_at: datetime()})
CREATE (s)-[:HAS_TURN]->(t)
WITH t, r
UNWIND r.messages AS m
CREATE (msg:Message {id: m.id, namespace: $namespace, session_id: r.session_id, turn_id: r.turn_id,
                     message_id: m.message_id, role: m.role, content: m.content, at: r.at,
                     position: m.position, language: m.language})
SET msg.embedding = CASE WHEN m.embedding IS NULL THEN null
                         ELSE [x IN split(m.embedding, ' ') | toFloat(x) / 10000000.0] END
CREATE (t)-[:HAS_MESSAGE {position: m.position}]->(msg)
RETURN count(msg) AS messages
