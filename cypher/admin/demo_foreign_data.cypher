// What a namespace holds that `graphbrain demo` did not write: sessions other than the demo's, documents
// without the demo's tag, memory items derived from another session. The demo clears its namespace
// unasked only when all three are 0.
OPTIONAL MATCH (s:Session)
WHERE s.namespace = $namespace AND s.session_id <> $session_id
WITH count(s) AS sessions
OPTIONAL MATCH (d:Document)
WHERE d.namespace = $namespace
OPTIONAL MATCH (d)-[:TAGGED]->(t:Tag)
WHERE t.name = $tag
WITH sessions, d, count(t) AS tagged
WITH sessions, sum(CASE WHEN d IS NOT NULL AND tagged = 0 THEN 1 ELSE 0 END) AS documents
OPTIONAL MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.source_session_id IS NOT NULL AND m.source_session_id <> $session_id
RETURN sessions, documents, count(m) AS memory
