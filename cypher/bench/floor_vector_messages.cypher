// Benchmarks only, the floor: a bare vector top-k on the message index the retrievers search with the
// model named by $model ('main': message_embedding, 'english': message_embedding_en), nothing filtered
// or hydrated (as retrieve/semantic_turns picks it).
CALL db.index.vector.queryNodes(CASE $model WHEN 'english' THEN 'message_embedding_en' ELSE 'message_embedding' END, $k, $vector)
YIELD node, score
RETURN node.id AS id, score
