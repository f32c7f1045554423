// Benchmarks only, the floor: a bare full-text top-k on the Message index (search_text, the analyzer's
// $terms OR-ed as retrieve/exact_turns.falkordb asks it), nothing filtered, hydrated or re-scored.
// FalkorDB's procedure takes no limit and yields its matches unordered, so the top k is its own
// ORDER BY … LIMIT.
CALL db.idx.fulltext.queryNodes('Message', '@search_text:(' + reduce(q = '', t IN $terms | q + CASE WHEN q = '' THEN '' ELSE ' | ' END + t) + ')')
YIELD node, score
RETURN node.id AS id, score
ORDER BY score DESC LIMIT $k
