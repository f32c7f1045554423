// Benchmarks only: the nodes one commit_turn wrote, found by its turn, for the floor of its write
// (bench/floor_write): the Turn, its Messages, the memory items derived from it and the entities it
// mentions, each as its property map (vectors included).
MATCH (t:Turn {id: $turn_node_id})
OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(msg:Message)
WITH t, collect(DISTINCT msg) AS messages
OPTIONAL MATCH (m:Memory)-[:DERIVED_FROM]->(t)
WITH t, messages, collect(DISTINCT m) AS items
OPTIONAL MATCH (t)-[:MENTIONS]->(e:Entity)
WITH t, messages, items, collect(DISTINCT e) AS entities
RETURN properties(t) AS turn, [x IN messages | properties(x)] AS messages, [x IN items | properties(x)] AS items,
       [x IN entities | properties(x)] AS entities
