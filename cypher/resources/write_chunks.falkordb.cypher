// All chunks of one document in one statement (see write_chunks.cypher). Embeddings are vecf32 vectors;
// chunks are FtsPending, so the store writes text_fts / section_title_fts right after this statement.
UNWIND $chunks AS c
MATCH (s:Section {id: c.section_node_id})
CREATE (k:Chunk:FtsPending {id: c.id, namespace: $namespace, document_id: $document_id,
                 section_id: c.section_id, chunk_index: c.chunk_index, text: c.text,
                 offset_start: c.offset_start, offset_end: c.offset_end, page: c.page,
                 section_title: c.section_title, content_hash: c.content_hash, language: $language,
                 embedding: vecf32(c.embedding), title: $title, source_uri: $source_uri,
                 source_type: $source_type, updated_at: $now})
FOREACH (_ IN CASE WHEN c.embedding_en IS NULL THEN [] ELSE [1] END | SET k.embedding_en = vecf32(c.embedding_en))
CREATE (s)-[:HAS_CHUNK]->(k)
RETURN count(k) AS chunks
