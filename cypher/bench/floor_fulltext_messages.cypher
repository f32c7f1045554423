// Benchmarks only, the floor: a bare full-text top-k on the message index (message_search, the
// analyzer's $terms OR-ed as retrieve/exact_turns asks it), nothing filtered or hydrated.
CALL db.index.fulltext.queryNodes('message_search', reduce(q = '', t IN $terms | q + ' ' + t), {limit: $k})
YIELD node, score
RETURN node.id AS id, score
