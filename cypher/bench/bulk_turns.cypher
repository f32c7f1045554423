// Benchmarks only (graphbrain bench scale): turns and their messages in bulk, with the node shapes
// commit/write_turn makes: search_text and filler (commit.searchable), language, and a vector of each
// model that reads the message (embedding; embedding_en for English and mixed text). Vectors arrive as
// space-separated integers (vector × 1e7) and are stored as the float lists commit_turn stores; sessions
// are bench/bulk_sessions, NEXT links bench/bulk_next.
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
                     position: m.position, language: m.language, search_text: m.search_text,
                     filler: m.filler, missing_embedding: m.missing_embedding})
SET msg.embedding = CASE WHEN m.embedding IS NULL THEN null
                         ELSE [x IN split(m.embedding, ' ') | toFloat(x) / 10000000.0] END,
    msg.embedding_en = CASE WHEN m.embedding_en IS NULL THEN null
                            ELSE [x IN split(m.embedding_en, ' ') | toFloat(x) / 10000000.0] END
CREATE (t)-[:HAS_MESSAGE {position: m.position}]->(msg)
RETURN count(msg) AS messages
