// Benchmarks only, the floor: a bare full-text top-k on the Memory index (text_fts, as
// retrieve/exact_memory.falkordb asks it), nothing filtered or hydrated. FalkorDB's procedure takes no
// limit and yields its matches unordered, so the top k is its own ORDER BY … LIMIT.
// @fulltext query
CALL db.idx.fulltext.queryNodes('Memory', $query) YIELD node, score
RETURN node.id AS id, score
ORDER BY score DESC LIMIT $k
