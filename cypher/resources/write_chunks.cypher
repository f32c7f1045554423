// All chunks of one document in one statement. Each copies the document fields retrieval filters on
// (title, source_uri, source_type, updated_at, language), so an index hit needs no extra hop; writing
// text and embedding is all the chunk_text and chunk_embedding indexes need.
UNWIND $chunks AS c
MATCH (s:Section {id: c.section_node_id})
CREATE (k:Chunk {id: c.id, namespace: $namespace, document_id: $document_id, section_id: c.section_id,
                 chunk_index: c.chunk_index, text: c.text, offset_start: c.offset_start,
                 offset_end: c.offset_end, page: c.page, section_title: c.section_title,
                 content_hash: c.content_hash, language: $language, embedding: c.embedding,
                 title: $title, source_uri: $source_uri, source_type: $source_type, updated_at: $now})
FOREACH (_ IN CASE WHEN c.embedding_en IS NULL THEN [] ELSE [1] END | SET k.embedding_en = c.embedding_en)
CREATE (s)-[:HAS_CHUNK]->(k)
RETURN count(k) AS chunks
