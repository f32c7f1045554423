// Range indexes for the namespace scope and the lookups every path makes.
CREATE INDEX turn_session IF NOT EXISTS FOR (n:Turn) ON (n.namespace, n.session_id, n.seq);
CREATE INDEX message_ns IF NOT EXISTS FOR (n:Message) ON (n.namespace, n.session_id);
CREATE INDEX memory_ns_key IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.key);
CREATE INDEX memory_ns_type IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.type, n.status);
// Newest first per type without sorting them all (compose's core memory, a summary's goals): with equality
// on the first three and ORDER BY all four in this order, Neo4j reads the index in order and stops early.
CREATE INDEX memory_recent IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.type, n.status, n.updated_at);
// A session's own items (its working summary), without reading the namespace's.
CREATE INDEX memory_session IF NOT EXISTS FOR (n:Memory) ON (n.namespace, n.source_session_id);
CREATE INDEX entity_ns_canonical IF NOT EXISTS FOR (n:Entity) ON (n.namespace, n.canonical);
CREATE INDEX ref_ns_uri IF NOT EXISTS FOR (n:Ref) ON (n.namespace, n.uri);
CREATE INDEX document_ns_uri IF NOT EXISTS FOR (n:Document) ON (n.namespace, n.source_uri);
CREATE INDEX chunk_ns IF NOT EXISTS FOR (n:Chunk) ON (n.namespace, n.document_id);
CREATE INDEX context_trace_ns IF NOT EXISTS FOR (n:ContextTrace) ON (n.namespace, n.session_id, n.created_at);
CREATE INDEX commit_trace_ns IF NOT EXISTS FOR (n:CommitTrace) ON (n.namespace, n.session_id, n.created_at);

// Full-text (BM25) indexes. Lucene's cjk analyzer: bigrams for CJK runs, standard tokens + lowercase for
// Latin text, so mixed Chinese/English text is searchable in both.
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (n:Memory) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: false}};
// The active items only (the Active label), as memory_active_embedding below: an item's superseded
// versions share most of its words, so on a long-lived graph they fill the top k of memory_text.
CREATE FULLTEXT INDEX memory_active_text IF NOT EXISTS FOR (n:Active) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: false}};
// Messages are searched by their analyzed search_text (graphbrain.nlp.analysis: stemmed English words,
// jieba's Chinese words, the speaker, the day and the message before), already split into terms, so the
// index only splits on spaces: Lucene and FalkorDB's RediSearch index the very same terms.
CREATE FULLTEXT INDEX message_search IF NOT EXISTS FOR (n:Message) ON EACH [n.search_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (n:Chunk) ON EACH [n.text, n.section_title]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: false}};

// Vector indexes (cosine); the dimension comes from embedding.dimension.
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (n:Memory) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: {{dimension}}, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX message_embedding IF NOT EXISTS FOR (n:Message) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: {{dimension}}, `vector.similarity_function`: 'cosine'}};
// The English model's vectors (embedding.english), on English and mixed text only.
CREATE VECTOR INDEX message_embedding_en IF NOT EXISTS FOR (n:Message) ON n.embedding_en
  OPTIONS {indexConfig: {`vector.dimensions`: {{english_dimension}}, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX memory_embedding_en IF NOT EXISTS FOR (n:Memory) ON n.embedding_en
  OPTIONS {indexConfig: {`vector.dimensions`: {{english_dimension}}, `vector.similarity_function`: 'cosine'}};
// The active items only (the Active label: status 'active'), so a search of the active set does not
// wade through every superseded version of every key: at 100k items 85 % of the vectors were history,
// and an active-only search kept 8 of its 400 raw hits. Lucene drops an entry when the label goes.
// (Not on FalkorDB: its HNSW index keeps a tombstone per removed entry that still fills the top k.)
CREATE VECTOR INDEX memory_active_embedding IF NOT EXISTS FOR (n:Active) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: {{dimension}}, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX memory_active_embedding_en IF NOT EXISTS FOR (n:Active) ON n.embedding_en
  OPTIONS {indexConfig: {`vector.dimensions`: {{english_dimension}}, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX chunk_embedding_en IF NOT EXISTS FOR (n:Chunk) ON n.embedding_en
  OPTIONS {indexConfig: {`vector.dimensions`: {{english_dimension}}, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (n:Chunk) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: {{dimension}}, `vector.similarity_function`: 'cosine'}};
