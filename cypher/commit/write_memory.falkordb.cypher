// Memory items: each new version is created; the old active item of the key is superseded or
// retracted, with a SUPERSEDES / RETRACTS edge for the history. Every item gets DERIVED_FROM its turn
// and its message. Type labels come from a fixed list (never from input). New items are FtsPending:
// the store fills text_fts right after this statement.
MATCH (t:Turn {id: $turn_node_id})
UNWIND $items AS it
OPTIONAL MATCH (old:Memory {id: it.old_id})
FOREACH (_ IN CASE WHEN old IS NULL OR it.old_status IS NULL THEN [] ELSE [1] END |
  SET old.status = it.old_status, old.active_key = null, old.updated_at = it.at
  REMOVE old:Active)
CREATE (m:Memory:FtsPending {id: it.id})
SET m += it.props, m.namespace = $namespace, m.created_at = it.created_at, m.updated_at = it.at,
    m.active_key = CASE WHEN it.props.status = 'active' THEN it.lock_id ELSE null END,
    m.embedding = vecf32(it.embedding)
FOREACH (_ IN CASE WHEN it.embedding_en IS NULL THEN [] ELSE [1] END | SET m.embedding_en = vecf32(it.embedding_en))
FOREACH (_ IN CASE WHEN it.props.status = 'active' THEN [1] ELSE [] END | SET m:Active)
FOREACH (_ IN CASE WHEN it.type = 'profile' THEN [1] ELSE [] END | SET m:Profile)
FOREACH (_ IN CASE WHEN it.type = 'preferences' THEN [1] ELSE [] END | SET m:Preference)
FOREACH (_ IN CASE WHEN it.type = 'goals' THEN [1] ELSE [] END | SET m:Goal)
FOREACH (_ IN CASE WHEN it.type = 'tasks' THEN [1] ELSE [] END | SET m:Task)
FOREACH (_ IN CASE WHEN it.type = 'decisions' THEN [1] ELSE [] END | SET m:Decision)
FOREACH (_ IN CASE WHEN it.type = 'events' THEN [1] ELSE [] END | SET m:Event)
FOREACH (_ IN CASE WHEN it.type = 'cases' THEN [1] ELSE [] END | SET m:Case)
FOREACH (_ IN CASE WHEN it.type = 'patterns' THEN [1] ELSE [] END | SET m:Pattern)
FOREACH (_ IN CASE WHEN old IS NOT NULL AND it.edge = 'SUPERSEDES' THEN [1] ELSE [] END |
  CREATE (m)-[:SUPERSEDES {at: it.at}]->(old))
FOREACH (_ IN CASE WHEN old IS NOT NULL AND it.edge = 'RETRACTS' THEN [1] ELSE [] END |
  CREATE (m)-[:RETRACTS {at: it.at}]->(old))
FOREACH (_ IN CASE WHEN old IS NOT NULL AND it.edge = 'VERSION_OF' THEN [1] ELSE [] END |
  CREATE (m)-[:VERSION_OF {at: it.at}]->(old))
CREATE (m)-[:DERIVED_FROM]->(t)
WITH t, m, it
OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(msg:Message {id: it.message_node_id})
FOREACH (_ IN CASE WHEN msg IS NULL THEN [] ELSE [1] END | CREATE (m)-[:DERIVED_FROM]->(msg))
RETURN count(m) AS written
