// Benchmarks only, the floor: a bare full-text top-k on the memory index retrieve/exact_memory.falkordb
// asks by default (the Active label's: the active items), nothing filtered or hydrated. FalkorDB's
// procedure takes no limit and yields its matches unordered, so the top k is its own ORDER BY … LIMIT.
// @fulltext query
CALL db.idx.fulltext.queryNodes('Active', $query) YIELD node, score
RETURN node.id AS id, score
ORDER BY score DESC LIMIT $k
