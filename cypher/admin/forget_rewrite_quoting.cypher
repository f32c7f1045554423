// forget: write back the summaries and commit traces forget_find_quoting found, rewritten without the
// forgotten item ($summaries: {id, text, reason}; $commit_traces: {id, result}).
CALL () {
  UNWIND $summaries AS r
  MATCH (s:Summary {id: r.id})
  WHERE s.namespace = $namespace
  SET s.text = r.text, s.reason = r.reason
  RETURN count(s) AS summaries
}
CALL () {
  UNWIND $commit_traces AS r
  MATCH (c:CommitTrace {id: r.id})
  WHERE c.namespace = $namespace
  SET c.result = r.result
  RETURN count(c) AS commit_traces
}
RETURN summaries, commit_traces
