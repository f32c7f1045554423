// Benchmarks only, the floor: a bare full-text top-k on the memory index retrieve/exact_memory asks by
// default (memory_active_text: the active items), nothing filtered or hydrated.
CALL db.index.fulltext.queryNodes('memory_active_text', $query, {limit: $k}) YIELD node, score
RETURN node.id AS id, score
