// EventStore: the turn, its messages, tool calls and refs, verbatim, in one statement. A message's
// full-text field, search_text, comes already analyzed (graphbrain.commit.searchable).
// The previous turn is found through the Turn (namespace, session_id, seq) indexes, not by walking
// every turn; tool results answer their call (the third subquery).
MATCH (s:Session {id: $session_node_id})
CREATE (t:Turn {id: $turn.id, namespace: $namespace, session_id: $session_id, turn_id: $turn.turn_id,
                seq: $turn.seq, at: $turn.at, commit_id: $turn.commit_id, entity_keys: $turn.entity_keys,
                text: $turn.text, metadata_json: $turn.metadata_json, created_at: $_now})
CREATE (s)-[:HAS_TURN]->(t)
WITH s, t
CALL {
  WITH s, t
  OPTIONAL MATCH (prev:Turn)
  WHERE prev.namespace = $namespace AND prev.session_id = $session_id AND prev.seq = t.seq - 1
  FOREACH (_ IN CASE WHEN prev IS NULL THEN [] ELSE [1] END | CREATE (prev)-[:NEXT]->(t))
}
CALL {
  WITH t
  UNWIND $messages AS m
  CREATE (msg:Message {id: m.id, namespace: $namespace, session_id: $session_id,
                       turn_id: $turn.turn_id, message_id: m.message_id, role: m.role, content: m.content,
                       name: m.name, tool_call_id: m.tool_call_id, status: m.status,
                       result_json: m.result_json, at: m.at, position: m.position, language: m.language,
                       search_text: m.search_text, filler: m.filler})
  CREATE (t)-[:HAS_MESSAGE {position: m.position}]->(msg)
  FOREACH (e IN CASE WHEN m.embedding IS NULL THEN [] ELSE [1] END |
    SET msg.embedding = vecf32(m.embedding))
  FOREACH (e IN CASE WHEN m.embedding_en IS NULL THEN [] ELSE [1] END |
    SET msg.embedding_en = vecf32(m.embedding_en))
  SET msg.missing_embedding = m.embedding IS NULL AND trim(coalesce(m.content, '')) <> ''
  WITH msg, m
  UNWIND m.tool_calls AS c
  CREATE (tc:ToolCall {id: c.id, namespace: $namespace, call_id: c.call_id, name: c.name,
                       args_json: c.args_json, turn_id: $turn.turn_id})
  CREATE (msg)-[:CALLED]->(tc)
}
CALL {
  WITH t
  MATCH (t)-[:HAS_MESSAGE]->(res:Message {role: 'tool'})
  WHERE res.tool_call_id IS NOT NULL
  MATCH (t)-[:HAS_MESSAGE]->(:Message)-[:CALLED]->(tc:ToolCall {call_id: res.tool_call_id})
  MERGE (tc)-[:RETURNED]->(res)
  SET tc.status = res.status
}
CALL {
  WITH t
  UNWIND $refs AS r
  MERGE (ref:Ref {id: r.id})
    ON CREATE SET ref.namespace = $namespace, ref.type = r.type, ref.uri = r.uri, ref.first_seen = $turn.at
  SET ref.title = coalesce(r.title, ref.title), ref.metadata_json = r.metadata_json, ref.last_seen = $turn.at
  CREATE (t)-[:REFERENCES]->(ref)
}
RETURN t.id AS turn_node_id
