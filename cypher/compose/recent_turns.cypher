// The recent-turn window of a session, oldest first.
MATCH (s:Session {id: $session_node_id})-[:HAS_TURN]->(t:Turn)
WITH t ORDER BY t.seq DESC LIMIT $n
MATCH (t)-[:HAS_MESSAGE]->(m:Message)
RETURN t.turn_id AS turn_id, t.seq AS seq, t.at AS at, m.role AS role, m.content AS content,
       m.message_id AS message_id, m.position AS position
ORDER BY t.seq, m.position
