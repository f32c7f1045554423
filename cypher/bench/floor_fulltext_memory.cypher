// Benchmarks only, the floor: a bare full-text top-k on the memory index (memory_text, as
// retrieve/exact_memory asks it), nothing filtered or hydrated.
CALL db.index.fulltext.queryNodes('memory_text', $query, {limit: $k}) YIELD node, score
RETURN node.id AS id, score
