// Memory items a session's turns wrote from explicit TurnEvents.items (tool or caller reports). The
// EventStore does not record those items, so replay-commits rebuilds them from what they wrote.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.source_session_id = $session_id
  AND m.rule STARTS WITH 'explicit item from'
RETURN m.source_turn_id AS turn_id, m.type AS type, m.key AS key, m.value_json AS value_json,
       m.source AS source, coalesce(m.evidence_refs, []) AS evidence_refs
ORDER BY m.created_at, m.key, m.version
