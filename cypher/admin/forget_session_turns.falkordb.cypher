// forget a session: one batch of its turns with their messages and tool calls. The entities they mentioned
// lose the mentions these turns counted (mention_count) and come back for delete_orphan_entities (same
// transaction); the refs that only these turns referenced go (a document ingested from one stays: it
// belongs to the library). The caller repeats until deleted = 0.
// FalkorDB: CALL { WITH ... } imports, a pattern predicate for NOT EXISTS {}.
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.session_id = $session_id
WITH t LIMIT $batch
WITH collect(t) AS turns
CALL {
  WITH turns
  UNWIND turns AS t
  MATCH (t)-[r:MENTIONS]->(e:Entity)
  WITH e, sum(coalesce(r.count, 1)) AS n
  SET e.mention_count = CASE WHEN coalesce(e.mention_count, 0) > n THEN e.mention_count - n ELSE 0 END
  RETURN collect(e.id) AS by_turns
}
CALL {
  WITH turns
  UNWIND turns AS t
  MATCH (t)-[:HAS_MESSAGE]->(:Message)-[:MENTIONS]->(e:Entity)
  RETURN collect(DISTINCT e.id) AS by_messages
}
CALL {
  WITH turns
  UNWIND turns AS t
  MATCH (t)-[:REFERENCES]->(ref:Ref)
  RETURN collect(DISTINCT ref) AS refs
}
CALL {
  WITH turns
  UNWIND turns AS t
  MATCH (t)-[:HAS_MESSAGE]->(msg:Message)
  OPTIONAL MATCH (msg)-[:CALLED]->(tc:ToolCall)
  WITH collect(DISTINCT msg) AS msgs, collect(DISTINCT tc) AS calls
  FOREACH (x IN calls | DETACH DELETE x)
  FOREACH (x IN msgs | DETACH DELETE x)
  RETURN size(msgs) AS messages, size(calls) AS tool_calls
}
FOREACH (x IN turns | DETACH DELETE x)
WITH size(turns) AS deleted, refs, by_turns + [e IN by_messages WHERE NOT e IN by_turns] AS entity_ids,
     messages, tool_calls
CALL {
  WITH refs
  UNWIND refs AS ref
  WITH ref WHERE NOT (:Turn)-[:REFERENCES]->(ref)
  DETACH DELETE ref
  RETURN count(ref) AS refs_deleted
}
RETURN deleted, messages, tool_calls, refs_deleted AS refs, entity_ids
