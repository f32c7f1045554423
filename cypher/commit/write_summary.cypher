// A new working-summary version; older versions stay for replay and debugging.
MATCH (s:Session {id: $session_node_id})
CREATE (sum:Summary {id: $summary_id, namespace: $namespace, session_id: s.session_id,
                     version: $version, text: $text, summary_source_turn_range: $range,
                     summary_generated_at: $at, reason: $reason})
CREATE (s)-[:HAS_SUMMARY]->(sum)
SET s.summary_version = $version, s.summary_upto_seq = $range[1], s.tokens_since_summary = 0,
    s.summary_id = $summary_id
RETURN sum.id AS id
