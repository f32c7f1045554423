// forget a namespace: one batch of each kind of node the namespace holds, with every edge and index entry
// (labels from this fixed list; admin/forget_namespace_rest sweeps any other node carrying the namespace).
// The IS NOT NULL predicates let the planner seek the composite range indexes. The caller repeats until
// every count is 0. (FalkorDB: CALL {} without an import list.)
CALL {
  MATCH (n:ToolCall) WHERE n.namespace = $namespace
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS tool_calls
}
CALL {
  MATCH (n:Message) WHERE n.namespace = $namespace AND n.session_id IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS messages
}
CALL {
  MATCH (n:Turn) WHERE n.namespace = $namespace AND n.session_id IS NOT NULL AND n.seq IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS turns
}
CALL {
  MATCH (n:Summary) WHERE n.namespace = $namespace
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS summaries
}
CALL {
  MATCH (n:CommitTrace) WHERE n.namespace = $namespace AND n.session_id IS NOT NULL AND n.created_at IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS commit_traces
}
CALL {
  MATCH (n:ContextTrace) WHERE n.namespace = $namespace
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS context_traces
}
CALL {
  MATCH (n:Session) WHERE n.namespace = $namespace
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS sessions
}
CALL {
  MATCH (n:Ref) WHERE n.namespace = $namespace AND n.uri IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS refs
}
CALL {
  MATCH (n:Memory) WHERE n.namespace = $namespace AND n.key IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS memory
}
CALL {
  MATCH (n:MemoryKey) WHERE n.namespace = $namespace
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS memory_keys
}
CALL {
  MATCH (n:Chunk) WHERE n.namespace = $namespace AND n.document_id IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS chunks
}
CALL {
  MATCH (n:Section) WHERE n.namespace = $namespace
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS sections
}
CALL {
  MATCH (n:Document) WHERE n.namespace = $namespace AND n.source_uri IS NOT NULL
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS documents
}
CALL {
  MATCH (n:Tag) WHERE n.namespace = $namespace
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS tags
}
CALL {
  MATCH (n:Topic) WHERE n.namespace = $namespace
  WITH n LIMIT $batch
  DETACH DELETE n
  RETURN count(n) AS topics
}
RETURN tool_calls, messages, turns, summaries, commit_traces, context_traces, sessions, refs, memory, memory_keys, chunks, sections, documents, tags, topics
