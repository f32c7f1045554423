// Benchmarks only, the floor: a bare vector top-k on the memory index the retrievers search by default
// (the active items) with the model named by $model ('main': memory_active_embedding, 'english':
// memory_active_embedding_en), nothing filtered or hydrated (as retrieve/semantic_memory picks it).
CALL db.index.vector.queryNodes(CASE $model WHEN 'english' THEN 'memory_active_embedding_en' ELSE 'memory_active_embedding' END, $k, $vector)
YIELD node, score
RETURN node.id AS id, score
