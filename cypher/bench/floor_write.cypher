// Benchmarks only, the floor of commit_turn's write: copies of the nodes one commit wrote
// (bench/floor_nodes, under fresh ids, in a scratch namespace) with the same labels and properties, so
// the same indexes and constraints are updated, and BenchFloor (bench/floor_clear removes them). Created
// bare, in one statement: no MERGE, no read, no lock; vectors as the float lists commit_turn stores.
FOREACH (r IN $turns | CREATE (n:Turn:BenchFloor) SET n += r.props)
FOREACH (r IN $messages |
  CREATE (n:Message:BenchFloor) SET n += r.props, n.embedding = r.embedding, n.embedding_en = r.embedding_en)
FOREACH (r IN $items |
  CREATE (n:Memory:BenchFloor) SET n += r.props, n.embedding = r.embedding, n.embedding_en = r.embedding_en
  FOREACH (_ IN CASE WHEN r.props.type = 'profile' THEN [1] ELSE [] END | SET n:Profile)
  FOREACH (_ IN CASE WHEN r.props.type = 'preferences' THEN [1] ELSE [] END | SET n:Preference)
  FOREACH (_ IN CASE WHEN r.props.type = 'goals' THEN [1] ELSE [] END | SET n:Goal)
  FOREACH (_ IN CASE WHEN r.props.type = 'tasks' THEN [1] ELSE [] END | SET n:Task)
  FOREACH (_ IN CASE WHEN r.props.type = 'decisions' THEN [1] ELSE [] END | SET n:Decision)
  FOREACH (_ IN CASE WHEN r.props.type = 'events' THEN [1] ELSE [] END | SET n:Event)
  FOREACH (_ IN CASE WHEN r.props.type = 'cases' THEN [1] ELSE [] END | SET n:Case)
  FOREACH (_ IN CASE WHEN r.props.type = 'patterns' THEN [1] ELSE [] END | SET n:Pattern))
FOREACH (r IN $entities | CREATE (n:Memory:Entity:BenchFloor) SET n += r.props, n.embedding = r.embedding)
RETURN size($turns) + size($messages) + size($items) + size($entities) AS written
