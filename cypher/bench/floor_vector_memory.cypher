// Benchmarks only, the floor: a bare vector top-k on the memory index the retrievers search with the
// model named by $model ('main': memory_embedding, 'english': memory_embedding_en), nothing filtered or
// hydrated (as retrieve/semantic_memory picks it).
CALL db.index.vector.queryNodes(CASE $model WHEN 'english' THEN 'memory_embedding_en' ELSE 'memory_embedding' END, $k, $vector)
YIELD node, score
RETURN node.id AS id, score
