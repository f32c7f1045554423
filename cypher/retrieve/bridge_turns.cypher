// The messages that share a specific entity with each candidate message (retrieve.bridges): for every
// message in $ids, each entity it mentions that at most $max_turns turns mention, and every other
// message of the namespace that mentions it. Both sides are checked to be in the namespace.
// One MATCH per step, from the message by its id: in one pattern FalkorDB starts from an index scan of
// the namespace's entities for every id (35× slower on a LoCoMo conversation).
UNWIND $ids AS id
MATCH (m:Message {id: id}) WHERE m.namespace = $namespace
WITH id, m
MATCH (m)-[:MENTIONS]->(e:Entity)
WHERE e.namespace = $namespace AND coalesce(e.turn_count, 0) <= $max_turns
WITH id, e
MATCH (e)<-[:MENTIONS]-(o:Message)
WHERE o.namespace = $namespace AND o.id <> id
WITH DISTINCT id AS src,
     e.canonical AS entity,
     o.id AS dst,
     o.turn_id AS turn_id,
     o.session_id AS session_id
RETURN collect({src: src, entity: entity, dst: dst, turn_id: turn_id, session_id: session_id}) AS rows
