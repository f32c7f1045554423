// One row per label and index type. FalkorDB indexes have no names: full-text and vector indexes get the
// Neo4j names (docs/graph-model.md, Indexes; a vector index per property), range indexes
// <label>_<properties>_range. OPERATIONAL is
// reported as ONLINE, as Neo4j says it.
CALL db.indexes() YIELD label, properties, types, options, status
UNWIND properties AS p
UNWIND types[p] AS t
WITH label, t, status, CASE WHEN t = 'VECTOR' THEN p END AS vector_prop, collect(p) AS props,
     collect(options[p].dimension) AS dims
WITH label, t, status, props, dims,
     {Memory: 'memory_text', Active: 'memory_active_text', Message: 'message_search', Chunk: 'chunk_text',
      Entity: 'entity_names'} AS fulltext,
     {Memory: 'memory_embedding', Message: 'message_embedding', Chunk: 'chunk_embedding'} AS vector
RETURN coalesce(CASE t WHEN 'FULLTEXT' THEN fulltext[label]
                       WHEN 'VECTOR' THEN vector[label] + CASE WHEN props[0] = 'embedding_en' THEN '_en' ELSE '' END END,
                toLower(label) + '_' + reduce(s = '', x IN props | s + CASE WHEN s = '' THEN '' ELSE '_' END + x)
                + '_' + toLower(t)) AS name,
       t AS type, CASE status WHEN 'OPERATIONAL' THEN 'ONLINE' ELSE 'POPULATING' END AS state,
       CASE status WHEN 'OPERATIONAL' THEN 100.0 ELSE 0.0 END AS population, [label] AS labels,
       props AS properties, CASE WHEN t = 'VECTOR' THEN dims[0] ELSE null END AS dimension,
       CASE WHEN t = 'FULLTEXT' THEN 'graphbrain-cjk-bigrams' ELSE null END AS analyzer
ORDER BY name
