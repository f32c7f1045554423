// relational / memory side: which of the traversal's memory items pass the plan's filters
// (the same predicates as exact_memory and semantic_memory).
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
  AND ($types IS NULL OR m.type IN $types)
  AND ($statuses IS NULL OR m.status IN $statuses)
  AND ($session_ids IS NULL OR m.source_session_id IN $session_ids)
  AND ($time_from IS NULL OR m.updated_at >= $time_from)
  AND ($time_to IS NULL OR m.updated_at <= $time_to)
RETURN collect({id: m.id}) AS rows
