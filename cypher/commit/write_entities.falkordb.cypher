// Entities that passed the gate: one node per canonical thing (aliases accumulate), linked from the
// turn, the message (with the span) and the memory items that mention them; co-mentions relate them.
// Marked FtsPending: their name, aliases and text changed, the store refreshes the full-text copies.
// The memory items' MENTIONS are merged by a FOREACH outside the subquery: FalkorDB 4.x drops a MERGE
// of an edge inside a unit subquery for the rows after the first ones of an UNWIND that MERGEs nodes.
MATCH (t:Turn {id: $turn_node_id})
UNWIND $entities AS e
MERGE (n:Memory:Entity {id: e.id})
  ON CREATE SET n.namespace = $namespace, n.type = 'entities', n.key = e.key, n.kind = e.kind,
                n.canonical = e.canonical, n.name = e.name, n.aliases = [], n.status = 'active',
                n.active_key = e.lock_id, n.confidence = e.confidence, n.source = 'user',
                n.source_session_id = $session_id, n.source_turn_id = t.turn_id,
                n.source_message_id = e.message_id, n.created_at = e.at, n.mention_count = 0,
                n.version = 1, n.value_json = e.value_json, n.missing_embedding = e.embedding IS NULL,
                n.embedding = vecf32(e.embedding)
SET n.aliases = CASE WHEN e.name IN n.aliases OR e.name = n.name THEN n.aliases ELSE n.aliases + e.name END,
    n.mention_count = n.mention_count + e.count, n.updated_at = e.at, n.last_seen = e.at
SET n.aliases_text = reduce(s = '', a IN n.aliases | s + ' ' + a),
    n.text = '[entities:' + n.key + '] ' + n.name + CASE WHEN size(n.aliases) > 0
             THEN ' (aka ' + reduce(s = '', a IN n.aliases | s + CASE WHEN s = '' THEN '' ELSE ', ' END + a) + ')'
             ELSE '' END
SET n:FtsPending
MERGE (t)-[r:MENTIONS]->(n)
  ON CREATE SET r.count = 0
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
