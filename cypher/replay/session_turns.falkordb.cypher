// A session's EventStore records — each turn with its messages (each with its tool calls) and its refs —
// everything replay-commits needs to rebuild the TurnEvents it was committed from. The caller orders
// turns by seq and messages by position; tool calls and refs keep no position of their own, so the
// caller puts them in a fixed (call id / uri) order.
// FalkorDB: a map projection of a null node is a map of nulls (collect keeps it), hence the CASEs.
MATCH (:Session {id: $session_node_id})-[:HAS_TURN]->(t:Turn)
OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(m:Message)
OPTIONAL MATCH (m)-[:CALLED]->(c:ToolCall)
WITH t, m, collect(CASE WHEN c IS NULL THEN null ELSE c {.call_id, .name, .args_json} END) AS calls
WITH t, collect(CASE WHEN m IS NULL THEN null ELSE m {.message_id, .role, .content, .name, .tool_call_id,
                   .status, .result_json, .at, .position, tool_calls: calls} END) AS messages
OPTIONAL MATCH (t)-[:REFERENCES]->(r:Ref)
WITH t, messages, collect(CASE WHEN r IS NULL THEN null ELSE r {.type, .uri, .title, .metadata_json} END) AS refs
RETURN t.turn_id AS turn_id, t.seq AS seq, t.at AS at, t.metadata_json AS metadata_json, messages, refs
ORDER BY seq
