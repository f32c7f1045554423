// After a user's own write (Store.cypher with write): mark text nodes that have no full-text copy yet
// (the source/copy pairs of falkordb_store.FTS_FIELDS), then turn plain-list embeddings into vectors.
MATCH (n:Memory) WHERE (n.text IS NOT NULL AND n.text_fts IS NULL) SET n:FtsPending;
MATCH (n:Chunk)
WHERE (n.text IS NOT NULL AND n.text_fts IS NULL) OR (n.section_title IS NOT NULL AND n.section_title_fts IS NULL)
SET n:FtsPending;
MATCH (n:Entity)
WHERE (n.name IS NOT NULL AND n.name_fts IS NULL) OR (n.aliases_text IS NOT NULL AND n.aliases_text_fts IS NULL)
SET n:FtsPending;
MATCH (n:Memory) WHERE typeOf(n.embedding) = 'List' SET n.embedding = vecf32(n.embedding);
MATCH (n:Memory) WHERE typeOf(n.embedding_en) = 'List' SET n.embedding_en = vecf32(n.embedding_en);
MATCH (n:Message) WHERE typeOf(n.embedding) = 'List' SET n.embedding = vecf32(n.embedding);
MATCH (n:Message) WHERE typeOf(n.embedding_en) = 'List' SET n.embedding_en = vecf32(n.embedding_en);
MATCH (n:Chunk) WHERE typeOf(n.embedding) = 'List' SET n.embedding = vecf32(n.embedding);
MATCH (n:Chunk) WHERE typeOf(n.embedding_en) = 'List' SET n.embedding_en = vecf32(n.embedding_en)
