// Benchmarks only, the floor of commit_turn's write (see floor_write.cypher): copies of the nodes one
// commit wrote, bare, in one statement. Vectors with vecf32(); the pre-tokenised full-text copies
// (text_fts, name_fts, ...) come with the properties read back, so the full-text indexes take the copies
// in this statement (no FtsPending pass).
FOREACH (r IN $turns | CREATE (n:Turn:BenchFloor) SET n += r.props)
FOREACH (r IN $messages |
  CREATE (n:Message:BenchFloor) SET n += r.props
  FOREACH (_ IN CASE WHEN r.embedding IS NULL THEN [] ELSE [1] END | SET n.embedding = vecf32(r.embedding))
  FOREACH (_ IN CASE WHEN r.embedding_en IS NULL THEN [] ELSE [1] END | SET n.embedding_en = vecf32(r.embedding_en)))
FOREACH (r IN $items |
  CREATE (n:Memory:BenchFloor) SET n += r.props
  FOREACH (_ IN CASE WHEN r.embedding IS NULL THEN [] ELSE [1] END | SET n.embedding = vecf32(r.embedding))
  FOREACH (_ IN CASE WHEN r.embedding_en IS NULL THEN [] ELSE [1] END | SET n.embedding_en = vecf32(r.embedding_en))
  FOREACH (_ IN CASE WHEN r.props.type = 'profile' THEN [1] ELSE [] END | SET n:Profile)
  FOREACH (_ IN CASE WHEN r.props.type = 'preferences' THEN [1] ELSE [] END | SET n:Preference)
  FOREACH (_ IN CASE WHEN r.props.type = 'goals' THEN [1] ELSE [] END | SET n:Goal)
  FOREACH (_ IN CASE WHEN r.props.type = 'tasks' THEN [1] ELSE [] END | SET n:Task)
  FOREACH (_ IN CASE WHEN r.props.type = 'decisions' THEN [1] ELSE [] END | SET n:Decision)
  FOREACH (_ IN CASE WHEN r.props.type = 'events' THEN [1] ELSE [] END | SET n:Event)
  FOREACH (_ IN CASE WHEN r.props.type = 'cases' THEN [1] ELSE [] END | SET n:Case)
  FOREACH (_ IN CASE WHEN r.props.type = 'patterns' THEN [1] ELSE [] END | SET n:Pattern))
FOREACH (r IN $entities |
  CREATE (n:Memory:Entity:BenchFloor) SET n += r.props
  FOREACH (_ IN CASE WHEN r.embedding IS NULL THEN [] ELSE [1] END | SET n.embedding = vecf32(r.embedding)))
RETURN size($turns) + size($messages) + size($items) + size($entities) AS written
