// v3 fill: English vectors and memory items' language (see v3_set_english.cypher).
UNWIND $rows AS r
CALL {
  WITH r
  MATCH (n:Message {id: r.id}) WHERE r.label = 'Message' RETURN n
  UNION
  WITH r
  MATCH (n:Chunk {id: r.id}) WHERE r.label = 'Chunk' RETURN n
  UNION
  WITH r
  MATCH (n:Memory {id: r.id}) WHERE r.label = 'Memory' RETURN n
}
SET n.english_done = true, n.language = coalesce(n.language, r.language)
FOREACH (_ IN CASE WHEN r.embedding IS NULL THEN [] ELSE [1] END | SET n.embedding_en = vecf32(r.embedding))
RETURN count(n) AS changed
