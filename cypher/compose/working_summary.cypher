// The latest working summary of a session and how many turns the session has.
MATCH (s:Session {id: $session_node_id})
OPTIONAL MATCH (s)-[:HAS_SUMMARY]->(sum:Summary {version: s.summary_version})
RETURN sum.text AS text, sum.version AS version, sum.summary_source_turn_range AS range,
       sum.summary_generated_at AS generated_at, s.last_seq AS last_seq
