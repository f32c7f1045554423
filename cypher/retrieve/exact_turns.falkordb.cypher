// exact / turns side: full-text over Message.search_text, the analyzer's terms (see exact_turns.cypher),
// the query's $terms OR-ed in RediSearch syntax, on that field only (graphs from before v3 also carry
// content_fts copies in the same label index). RediSearch scores by TF-IDF, which lifts a short reply
// that carries its question as context over the question itself and ties often; so the matches are
// scored here by BM25 as Lucene does on Neo4j (k1 1.2, b 0.75): N is every message of the graph, as
// Lucene counts its index ($message_count, which the store fills in from fulltext/message_count: a
// namespace's count would read all its messages),
// and document frequencies and the average length are those of the matches scored. The namespace and
// the plan's filters apply first; then the 1,000 matches RediSearch scores best are scored by BM25 (the
// procedure has no top-k: every match is yielded, and scoring each one's terms cost ~20 ms per query at
// 30k messages, growing with the namespace). A namespace with fewer matches has them all scored.
WITH $message_count AS corpus
CALL db.idx.fulltext.queryNodes('Message', '@search_text:(' + reduce(q = '', t IN $terms | q + CASE WHEN q = '' THEN '' ELSE ' | ' END + t) + ')')
YIELD node, score
WITH corpus, node, score
WHERE node.namespace = $namespace
  AND ($session_ids IS NULL OR node.session_id IN $session_ids)
  AND ($languages IS NULL OR node.language IN $languages)
  AND ($time_from IS NULL OR node.at >= $time_from)
  AND ($time_to IS NULL OR node.at <= $time_to)
WITH corpus, node ORDER BY score DESC, node.id LIMIT 1000
WITH corpus, node, split(coalesce(node.search_text, ''), ' ') AS tokens
WITH corpus, collect({n: node, hit: [x IN tokens WHERE x IN $terms], len: size(tokens)}) AS docs
WITH corpus, docs, reduce(s = 0.0, d IN docs | s + d.len) / size(docs) AS avgdl,
     [t IN $terms | size([d IN docs WHERE t IN d.hit])] AS dfs
WITH docs, avgdl, [df IN dfs | log(1.0 + (corpus - df + 0.5) / (df + 0.5))] AS idfs
UNWIND docs AS d
WITH d, idfs, avgdl, [t IN $terms | size([x IN d.hit WHERE x = t])] AS tfs
WITH d.n AS node,
     reduce(s = 0.0, i IN range(0, size(tfs) - 1) |
       s + CASE WHEN tfs[i] = 0 THEN 0.0
               ELSE idfs[i] * tfs[i] * 2.2 / (tfs[i] + 1.2 * (0.25 + 0.75 * d.len / avgdl)) END) AS score
WITH node, score ORDER BY score DESC, node.id LIMIT $k
WITH collect({id: node.id, score: score, turn_id: node.turn_id, session_id: node.session_id}) AS hits
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor,
       hits[..$limit] AS rows
