// Vectors of a changed document's current chunks, keyed by what was embedded (text hash and section
// title): chunks whose text survives the change keep their vector instead of going through the model.
MATCH (c:Chunk {namespace: $namespace, document_id: $document_id})
WHERE c.embedding IS NOT NULL
RETURN c.content_hash AS content_hash, c.section_title AS section_title, c.embedding AS embedding,
       c.embedding_en AS embedding_en
