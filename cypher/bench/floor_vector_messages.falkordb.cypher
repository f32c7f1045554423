// Benchmarks only, the floor: a bare vector top-k on the Message vector index of the model named by
// $model ('main': embedding, 'english': embedding_en), nothing filtered or hydrated (as
// retrieve/semantic_turns.falkordb picks it).
CALL db.idx.vector.queryNodes('Message', CASE $model WHEN 'english' THEN 'embedding_en' ELSE 'embedding' END, $k, vecf32($vector))
YIELD node, score
RETURN node.id AS id, score
