// bench chaos: the turns of the writers' sessions in sequence order, each with its message count.
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.session_id IN $sessions
OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(msg:Message)
RETURN t.session_id AS session_id, t.turn_id AS turn_id, t.seq AS seq, count(msg) AS messages
ORDER BY session_id, seq
