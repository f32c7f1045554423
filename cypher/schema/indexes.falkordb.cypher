// Range indexes for the namespace scope and the lookups every path makes (FalkorDB indexes each
// property on its own; it combines them per query). "Already indexed" is not an error on a re-run.
CREATE INDEX FOR (n:Turn) ON (n.namespace, n.session_id, n.seq);
CREATE INDEX FOR (n:Message) ON (n.namespace, n.session_id);
CREATE INDEX FOR (n:Memory) ON (n.namespace, n.key, n.type, n.status);
CREATE INDEX FOR (n:Memory) ON (n.source_session_id, n.updated_at);
CREATE INDEX FOR (n:Entity) ON (n.namespace, n.canonical);
CREATE INDEX FOR (n:Ref) ON (n.namespace, n.uri);
CREATE INDEX FOR (n:Document) ON (n.namespace, n.source_uri);
CREATE INDEX FOR (n:Chunk) ON (n.namespace, n.document_id);
CREATE INDEX FOR (n:ContextTrace) ON (n.namespace, n.session_id, n.created_at);
CREATE INDEX FOR (n:CommitTrace) ON (n.namespace, n.session_id, n.created_at);

// Full-text (RediSearch) indexes over the pre-tokenised copies the store writes (Latin words lower-cased,
// CJK as bigrams, like Lucene's cjk analyzer); no stemming. The texts keep their stop words and the
// queries leave cjk's out (store/falkordb_fulltext.py), so a search matches what it matches on Neo4j.
CALL db.idx.fulltext.createNodeIndex({label: 'Memory', stopwords: []}, {field: 'text_fts', nostem: true});
// The active items' text only (the Active label), as Neo4j's memory_active_text: RediSearch yields every
// match, and at 100k items 85 % of the memory index were superseded versions that an active-only search
// read and dropped (FalkorDB keeps a label's full-text index in step as the label is set and removed).
CALL db.idx.fulltext.createNodeIndex({label: 'Active', stopwords: []}, {field: 'text_fts', nostem: true});
// Messages: search_text is already the analyzer's terms (graphbrain.nlp.analysis), as on Neo4j.
CALL db.idx.fulltext.createNodeIndex({label: 'Message', stopwords: []}, {field: 'search_text', nostem: true});
CALL db.idx.fulltext.createNodeIndex({label: 'Chunk', stopwords: []}, {field: 'text_fts', nostem: true}, {field: 'section_title_fts', nostem: true});
CALL db.idx.fulltext.createNodeIndex({label: 'Entity', stopwords: []}, {field: 'name_fts', nostem: true}, {field: 'aliases_text_fts', nostem: true});

// Vector indexes (HNSW, cosine). M 32 / efRuntime 100: the defaults (16 / 10) gave recall@10 of about 0.4.
CREATE VECTOR INDEX FOR (n:Memory) ON (n.embedding) OPTIONS {dimension: {{dimension}}, similarityFunction: 'cosine', M: 32, efRuntime: 100};
CREATE VECTOR INDEX FOR (n:Message) ON (n.embedding) OPTIONS {dimension: {{dimension}}, similarityFunction: 'cosine', M: 32, efRuntime: 100};
CREATE VECTOR INDEX FOR (n:Chunk) ON (n.embedding) OPTIONS {dimension: {{dimension}}, similarityFunction: 'cosine', M: 32, efRuntime: 100};
// The English model's vectors (embedding.english).
CREATE VECTOR INDEX FOR (n:Memory) ON (n.embedding_en) OPTIONS {dimension: {{english_dimension}}, similarityFunction: 'cosine', M: 32, efRuntime: 100};
CREATE VECTOR INDEX FOR (n:Message) ON (n.embedding_en) OPTIONS {dimension: {{english_dimension}}, similarityFunction: 'cosine', M: 32, efRuntime: 100};
CREATE VECTOR INDEX FOR (n:Chunk) ON (n.embedding_en) OPTIONS {dimension: {{english_dimension}}, similarityFunction: 'cosine', M: 32, efRuntime: 100};
