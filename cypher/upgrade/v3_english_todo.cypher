// v3 fill: nodes that may need the English model's vector: English or mixed messages and chunks
// without one (only $with_vectors: the English model is on), and memory items not yet given a language.
// At most $batch of each.
CALL () {
  MATCH (n:Message)
  WHERE n.embedding_en IS NULL AND n.language IN ['en', 'mixed'] AND trim(coalesce(n.content, '')) <> ''
    AND coalesce(n.english_done, false) = false AND $with_vectors
    AND ($namespace IS NULL OR n.namespace = $namespace)
  WITH n LIMIT $batch
  RETURN n.id AS id, 'Message' AS label,
         CASE WHEN n.name IS NULL OR trim(n.name) = '' THEN n.content ELSE n.name + ': ' + n.content END AS text
  UNION
  MATCH (n:Chunk)
  WHERE n.embedding_en IS NULL AND n.language IN ['en', 'mixed'] AND trim(coalesce(n.text, '')) <> ''
    AND coalesce(n.english_done, false) = false AND $with_vectors
    AND ($namespace IS NULL OR n.namespace = $namespace)
  WITH n LIMIT $batch
  RETURN n.id AS id, 'Chunk' AS label, n.text AS text
  UNION
  MATCH (n:Memory)
  WHERE n.language IS NULL AND ($namespace IS NULL OR n.namespace = $namespace)
  WITH n LIMIT $batch
  RETURN n.id AS id, 'Memory' AS label, coalesce(n.text, '') AS text
}
RETURN id, label, text
