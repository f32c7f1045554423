// exact / turns side: BM25 over Message.search_text (full-text index message_search): the message's
// analyzed terms, its speaker, its day and the message before it (graphbrain.commit.searchable). $terms
// are the query's terms from the same analyzer (graphbrain.nlp.analysis), OR-ed; the whitespace
// analyzer takes them as they are. Post-filtered by namespace and the plan's filters; widened by the
// caller as in exact_memory. Message.language comes from detect_language: zh / en / mixed / other.
CALL db.index.fulltext.queryNodes('message_search', reduce(q = '', t IN $terms | q + ' ' + t), {limit: $k})
YIELD node, score
WITH collect({n: node, score: score}) AS hits
CALL (hits) {
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
