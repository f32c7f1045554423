// Fill missing embeddings; labels come from a fixed list in the query, never from input. FalkorDB
// indexes only vecf32 values.
UNWIND $rows AS r
OPTIONAL MATCH (m:Memory {id: r.id}) WHERE r.label = 'Memory'
OPTIONAL MATCH (g:Message {id: r.id}) WHERE r.label = 'Message'
OPTIONAL MATCH (c:Chunk {id: r.id}) WHERE r.label = 'Chunk'
FOREACH (n IN [x IN [m, g, c] WHERE x IS NOT NULL] | SET n.embedding = vecf32(r.embedding), n.missing_embedding = false)
RETURN count(*) AS updated
