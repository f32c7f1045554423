// Benchmarks only (graphbrain bench scale): turns and their messages in bulk, with the node shapes
// commit/write_turn.falkordb makes (see bulk_turns.cypher): vectors rebuilt from their integer strings
// and stored with vecf32(), the creation time from $_now (FalkorDB has no datetime()). search_text is
// indexed as it is (the Message full-text index holds the analyzer's terms): no FtsPending copy.
UNWIND $turns AS r
MATCH (s:Session {id: r.session_node_id})
CREATE (t:Turn {id: r.id, namespace: $namespace, session_id: r.session_id, turn_id: r.turn_id, seq: r.seq,
                at: r.at, commit_id: r.commit_id, entity_keys: r.entity_keys, text: r.text,
                metadata_json: r.metadata_json, created_at: $_now})
CREATE (s)-[:HAS_TURN]->(t)
WITH t, r
UNWIND r.messages AS m
CREATE (msg:Message {id: m.id, namespace: $namespace, session_id: r.session_id, turn_id: r.turn_id,
                     message_id: m.message_id, role: m.role, content: m.content, at: r.at,
                     position: m.position, language: m.language, search_text: m.search_text,
                     filler: m.filler, missing_embedding: m.missing_embedding})
FOREACH (_ IN CASE WHEN m.embedding IS NULL THEN [] ELSE [1] END |
  SET msg.embedding = vecf32([x IN split(m.embedding, ' ') | toFloat(x) / 10000000.0]))
FOREACH (_ IN CASE WHEN m.embedding_en IS NULL THEN [] ELSE [1] END |
  SET msg.embedding_en = vecf32([x IN split(m.embedding_en, ' ') | toFloat(x) / 10000000.0]))
CREATE (t)-[:HAS_MESSAGE {position: m.position}]->(msg)
RETURN count(msg) AS messages
