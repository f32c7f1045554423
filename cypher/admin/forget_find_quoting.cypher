// forget: the summaries and commit traces of $namespace that quote a forgotten item ($needles: its key,
// its version ids, its text), for the caller to rewrite without it. Raw turns and messages are not
// looked at: forgetting an item keeps the turn it came from.
MATCH (s:Summary)
WHERE s.namespace = $namespace AND any(n IN $needles WHERE s.text CONTAINS n OR s.reason CONTAINS n)
RETURN 'summary' AS kind, s.id AS id, s.text AS text, s.reason AS reason, null AS result
UNION ALL
MATCH (c:CommitTrace)
WHERE c.namespace = $namespace AND c.session_id IS NOT NULL AND c.created_at IS NOT NULL
  AND any(n IN $needles WHERE c.result CONTAINS n)
RETURN 'commit_trace' AS kind, c.id AS id, null AS text, null AS reason, c.result AS result
