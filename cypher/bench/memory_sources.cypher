// Benchmarks only: where memory items came from, in the caller's dialog ids, in one round trip.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
RETURN m.id AS id, m.type AS type, m.source_turn_id AS turn_id, m.source_message_id AS message_id
