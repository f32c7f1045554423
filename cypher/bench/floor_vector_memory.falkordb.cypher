// Benchmarks only, the floor: a bare vector top-k on the Memory vector index of the model named by $model
// ('main': embedding, 'english': embedding_en), nothing filtered or hydrated (as
// retrieve/semantic_memory.falkordb picks it).
CALL db.idx.vector.queryNodes('Memory', CASE $model WHEN 'english' THEN 'embedding_en' ELSE 'embedding' END, $k, vecf32($vector))
YIELD node, score
RETURN node.id AS id, score
