MATCH (s:Session {id: $session_node_id})
SET s.tokens_since_summary = $tokens_since_summary
RETURN s.id AS id
