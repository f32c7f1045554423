// Benchmarks only, the floor: a bare full-text top-k on one index ($index), nothing filtered or hydrated.
CALL db.index.fulltext.queryNodes($index, $query, {limit: $k}) YIELD node, score
RETURN node.id AS id, score
