// v3 fill: English vectors (null where the text is not English) and memory items' language; english_done
// marks a node the model was asked about, so a failed or empty answer is not asked again.
UNWIND $rows AS r
CALL (r) {
  MATCH (n:Message {id: r.id}) WHERE r.label = 'Message' RETURN n
  UNION
  MATCH (n:Chunk {id: r.id}) WHERE r.label = 'Chunk' RETURN n
  UNION
  MATCH (n:Memory {id: r.id}) WHERE r.label = 'Memory' RETURN n
}
SET n.english_done = true, n.language = coalesce(n.language, r.language)
FOREACH (_ IN CASE WHEN r.embedding IS NULL THEN [] ELSE [1] END | SET n.embedding_en = r.embedding)
RETURN count(n) AS changed
