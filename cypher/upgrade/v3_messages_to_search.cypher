// v3 fill: messages written before search_text, at most $batch, each with the content of the message
// before it in its session (earlier in its turn, else the last of the turn before) for its context.
MATCH (t:Turn)-[:HAS_MESSAGE]->(m:Message)
WHERE m.search_text IS NULL AND ($namespace IS NULL OR m.namespace = $namespace)
WITH t, m LIMIT $batch
OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(o:Message)
WHERE o.position < m.position AND o.role <> 'tool' AND trim(coalesce(o.content, '')) <> ''
WITH t, m, o ORDER BY o.position DESC
WITH t, m, collect(o.content)[0] AS in_turn
OPTIONAL MATCH (p:Turn)-[:NEXT]->(t)
OPTIONAL MATCH (p)-[:HAS_MESSAGE]->(b:Message)
WHERE b.role <> 'tool' AND trim(coalesce(b.content, '')) <> ''
WITH t, m, in_turn, b ORDER BY b.position DESC
WITH t, m, in_turn, collect(b.content)[0] AS before
RETURN m.id AS id, m.content AS content, m.name AS name, m.role AS role, coalesce(m.at, t.at) AS at,
       coalesce(in_turn, before) AS previous
