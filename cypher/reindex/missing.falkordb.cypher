// Nodes whose embedding is missing (an embedding failure at write time), a batch at a time.
// Candidate entities have no vector by design: not memory until the gate promotes them (and embeds them).
CALL {
  MATCH (m:Memory {namespace: $namespace})
  WHERE m.embedding IS NULL AND m.text IS NOT NULL AND coalesce(m.status, '') <> 'candidate'
  RETURN m.id AS id, 'Memory' AS label, m.text AS text LIMIT $limit
  UNION ALL
  MATCH (m:Message {namespace: $namespace}) WHERE m.embedding IS NULL AND m.content IS NOT NULL AND m.content <> ''
  RETURN m.id AS id, 'Message' AS label, m.content AS text LIMIT $limit
  UNION ALL
  MATCH (c:Chunk {namespace: $namespace}) WHERE c.embedding IS NULL AND c.text IS NOT NULL
  RETURN c.id AS id, 'Chunk' AS label, c.text AS text LIMIT $limit
}
RETURN id, label, text LIMIT $limit
