// Benchmarks only: memory items in bulk, the shape commit/write_memory makes (type label from a fixed
// list, DERIVED_FROM the turn and the message, a vector of the main model and, for English and mixed
// text, of the English model); vectors arrive as integer strings as in bench/bulk_turns.
UNWIND $items AS it
MATCH (t:Turn {id: it.turn_node_id})
MATCH (msg:Message {id: it.message_node_id})
CREATE (m:Memory {id: it.id})
SET m += it.props, m.namespace = $namespace, m.active_key = it.active_key,
    m.embedding = [x IN split(it.embedding, ' ') | toFloat(x) / 10000000.0],
    m.embedding_en = CASE WHEN it.embedding_en IS NULL THEN null
                          ELSE [x IN split(it.embedding_en, ' ') | toFloat(x) / 10000000.0] END
FOREACH (_ IN CASE WHEN it.active_key IS NULL THEN [] ELSE [1] END | SET m:Active)
FOREACH (_ IN CASE WHEN it.type = 'profile' THEN [1] ELSE [] END | SET m:Profile)
FOREACH (_ IN CASE WHEN it.type = 'preferences' THEN [1] ELSE [] END | SET m:Preference)
FOREACH (_ IN CASE WHEN it.type = 'goals' THEN [1] ELSE [] END | SET m:Goal)
FOREACH (_ IN CASE WHEN it.type = 'tasks' THEN [1] ELSE [] END | SET m:Task)
FOREACH (_ IN CASE WHEN it.type = 'decisions' THEN [1] ELSE [] END | SET m:Decision)
FOREACH (_ IN CASE WHEN it.type = 'events' THEN [1] ELSE [] END | SET m:Event)
FOREACH (_ IN CASE WHEN it.type = 'cases' THEN [1] ELSE [] END | SET m:Case)
FOREACH (_ IN CASE WHEN it.type = 'patterns' THEN [1] ELSE [] END | SET m:Pattern)
CREATE (m)-[:DERIVED_FROM]->(t)
CREATE (m)-[:DERIVED_FROM]->(msg)
RETURN count(m) AS written
