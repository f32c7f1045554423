// The turn's entities, one node per canonical thing (aliases accumulate), linked from the turn, the
// message (with the span) and the memory items that mention them. Those the gate let through are entity
// memory items (status active); the others are candidates: in the graph, for the walk and for a later
// mention to promote, but no memory (no key held, no vector, never returned as memory).
// Marked FtsPending: their name, aliases and text changed, the store refreshes the full-text copies.
// The memory items' MENTIONS are merged by a FOREACH outside the subquery: FalkorDB 4.x drops a MERGE
// of an edge inside a unit subquery for the rows after the first ones of an UNWIND that MERGEs nodes.
MATCH (t:Turn {id: $turn_node_id})
UNWIND $entities AS e
MERGE (n:Memory:Entity {id: e.id})
  ON CREATE SET n.namespace = $namespace, n.type = 'entities', n.key = e.key, n.kind = e.kind,
                n.canonical = e.canonical, n.name = e.name, n.aliases = [], n.status = e.status,
                n.active_key = CASE WHEN e.status = 'active' THEN e.lock_id ELSE null END,
                n.confidence = e.confidence, n.source = 'user',
                n.source_session_id = $session_id, n.source_turn_id = t.turn_id,
                n.source_message_id = e.message_id, n.created_at = e.at, n.mention_count = 0,
                n.version = 1, n.value_json = e.value_json,
                n.missing_embedding = e.status = 'active' AND e.embedding IS NULL
// The vector once: when the entity is made or promoted (every update leaves FalkorDB a stale entry).
FOREACH (_ IN CASE WHEN e.embedding IS NULL OR n.embedding IS NOT NULL THEN [] ELSE [1] END |
  SET n.embedding = vecf32(e.embedding))
// A candidate the gate now lets through becomes an entity memory item: active, its key held, embedded.
FOREACH (_ IN CASE WHEN n.status = 'candidate' AND e.status = 'active' THEN [1] ELSE [] END |
  SET n.status = 'active', n.active_key = e.lock_id, n.missing_embedding = e.embedding IS NULL)
FOREACH (_ IN CASE WHEN n.status = 'active' THEN [1] ELSE [] END | SET n:Active)
SET n.aliases = CASE WHEN e.name IN n.aliases OR e.name = n.name THEN n.aliases ELSE n.aliases + e.name END,
    n.mention_count = n.mention_count + e.count, n.updated_at = e.at, n.last_seen = e.at
SET n.aliases_text = reduce(s = '', a IN n.aliases | s + ' ' + a),
    // A candidate has no memory text (it is not memory: out of memory_text, nothing distilled to forget).
    n.text = CASE WHEN n.status = 'candidate' THEN null ELSE '[entities:' + n.key + '] ' + n.name +
             CASE WHEN size(n.aliases) > 0
             THEN ' (aka ' + reduce(s = '', a IN n.aliases | s + CASE WHEN s = '' THEN '' ELSE ', ' END + a) + ')'
             ELSE '' END END
SET n:FtsPending
// turn_count: how many turns mention the entity (its specificity for the relational walk).
MERGE (t)-[r:MENTIONS]->(n)
  ON CREATE SET r.count = 0, n.turn_count = coalesce(n.turn_count, 0) + 1
SET r.count = r.count + e.count
WITH t, n, e
CALL {
  WITH t, n, e
  UNWIND e.mentions AS men
  MATCH (t)-[:HAS_MESSAGE]->(msg:Message {id: men.message_node_id})
  CREATE (msg)-[:MENTIONS {start: men.start, end: men.end, text: men.text}]->(n)
}
CALL {
  WITH n, e
  UNWIND e.memory_ids AS mid
  MATCH (m:Memory {id: mid})
  RETURN collect(m) AS mentioning
}
FOREACH (m IN mentioning | MERGE (m)-[:MENTIONS]->(n))
RETURN collect(n.id) AS ids
