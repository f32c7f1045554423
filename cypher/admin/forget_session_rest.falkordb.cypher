// forget a session: one batch each of what carries its session_id besides turns: working summaries, commit
// and context traces, and messages no turn holds (none normally: a safety net) with their tool calls.
// The caller repeats until every count is 0. (FalkorDB: CALL {} without an import list.)
CALL {
  MATCH (n:Summary)
  WHERE n.namespace = $namespace AND n.session_id = $session_id
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS summaries
}
CALL {
  MATCH (n:CommitTrace)
  WHERE n.namespace = $namespace AND n.session_id = $session_id AND n.created_at IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS commit_traces
}
CALL {
  MATCH (n:ContextTrace)
  WHERE n.namespace = $namespace AND n.session_id = $session_id AND n.created_at IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS context_traces
}
CALL {
  MATCH (n:Message)
  WHERE n.namespace = $namespace AND n.session_id = $session_id
  WITH n LIMIT $batch
  OPTIONAL MATCH (n)-[:CALLED]->(tc:ToolCall)
  WITH collect(DISTINCT n) AS msgs, collect(DISTINCT tc) AS calls
  FOREACH (x IN calls | DETACH DELETE x)
  FOREACH (x IN msgs | DETACH DELETE x)
  RETURN size(msgs) AS messages
}
RETURN summaries, commit_traces, context_traces, messages
