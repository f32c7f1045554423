// relational / turns side: which of the traversal's messages pass the plan's filters
// (the same predicates as exact_turns and semantic_turns).
UNWIND $ids AS id
MATCH (msg:Message {id: id})
WHERE msg.namespace = $namespace
  AND ($session_ids IS NULL OR msg.session_id IN $session_ids)
  AND ($languages IS NULL OR msg.language IN $languages)
  AND ($time_from IS NULL OR msg.at >= $time_from)
  AND ($time_to IS NULL OR msg.at <= $time_to)
RETURN collect({id: msg.id,
                turn_id: msg.turn_id,
                session_id: msg.session_id}) AS rows
