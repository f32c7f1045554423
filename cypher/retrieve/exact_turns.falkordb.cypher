// exact / turns side: full-text over Message.search_text, the analyzer's terms (see exact_turns.cypher),
// the query's $terms OR-ed in RediSearch syntax, on that field only (graphs from before v3 also carry
// content_fts copies in the same label index). RediSearch scores by TF-IDF, which lifts a short reply
// that carries its question as context over the question itself and ties often; so the matches are
// scored here by BM25 as Lucene does on Neo4j (k1 1.2, b 0.75), with the namespace's message count
// for N and the matches' own lengths for the average: the same ranking on both backends. Every match
// is a document holding at least one query term, so a term's document frequency is counted among
// them. Post-filtered by namespace and the plan's filters; widened by the caller as in exact_memory.
MATCH (every:Message) WHERE every.namespace = $namespace
WITH count(every) AS corpus
CALL db.idx.fulltext.queryNodes('Message', '@search_text:(' + reduce(q = '', t IN $terms | q + CASE WHEN q = '' THEN '' ELSE ' | ' END + t) + ')')
YIELD node
WITH corpus, node WHERE node.namespace = $namespace
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
WITH collect({n: node, score: score}) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.n AS msg, h.score AS score
  WHERE msg.namespace = $namespace
    AND ($session_ids IS NULL OR msg.session_id IN $session_ids)
    AND ($languages IS NULL OR msg.language IN $languages)
    AND ($time_from IS NULL OR msg.at >= $time_from)
    AND ($time_to IS NULL OR msg.at <= $time_to)
  WITH msg, score ORDER BY score DESC, msg.id LIMIT $limit
  RETURN collect({id: msg.id, score: score, turn_id: msg.turn_id, session_id: msg.session_id}) AS rows
}
RETURN size(hits) AS raw, CASE WHEN size(hits) = 0 THEN null ELSE hits[-1].score END AS floor, rows
