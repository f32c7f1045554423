// Benchmarks only, the floor: a bare vector top-k on one index ($index), nothing filtered or hydrated.
CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node, score
RETURN node.id AS id, score
