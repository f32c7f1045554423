// Benchmarks only: memory items in bulk, the shape commit/write_memory.falkordb makes (see
// bulk_memory.cypher): vectors with vecf32(), and new items FtsPending, so the store fills their
// full-text copy (text_fts) right after this statement, as it does after a commit.
UNWIND $items AS it
MATCH (t:Turn {id: it.turn_node_id})
MATCH (msg:Message {id: it.message_node_id})
CREATE (m:Memory:FtsPending {id: it.id})
SET m += it.props, m.namespace = $namespace, m.active_key = it.active_key,
    m.embedding = vecf32([x IN split(it.embedding, ' ') | toFloat(x) / 10000000.0])
FOREACH (_ IN CASE WHEN it.embedding_en IS NULL THEN [] ELSE [1] END |
  SET m.embedding_en = vecf32([x IN split(it.embedding_en, ' ') | toFloat(x) / 10000000.0]))
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
