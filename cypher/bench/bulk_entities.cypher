// Benchmarks only: entities in bulk, the shape commit/write_entities makes: new Entity nodes, mention
// counts, MENTIONS from messages (with the span), turns (with the count) and memory items, and
// RELATED_TO between entities named in the same turn (the weight counts those turns).
CALL () {
  UNWIND $entities AS e
  MERGE (n:Memory:Entity {id: e.id})
    ON CREATE SET n.namespace = $namespace, n.type = 'entities', n.key = e.key, n.kind = e.kind,
                  n.canonical = e.canonical, n.name = e.name, n.aliases = [], n.aliases_text = '',
                  n.status = 'active', n.active_key = e.lock_id, n.confidence = e.confidence, n.source = 'user',
                  n.source_session_id = e.session_id, n.source_turn_id = e.turn_id,
                  n.source_message_id = e.message_id, n.created_at = e.at, n.updated_at = e.at,
                  n.last_seen = e.at, n.mention_count = 0, n.version = 1, n.value_json = e.value_json,
                  n.text = '[entities:' + e.key + '] ' + e.name,
                  n.embedding = [x IN split(e.embedding, ' ') | toFloat(x) / 10000000.0]
}
CALL () {
  UNWIND $updates AS u
  MATCH (n:Entity {id: u.id})
  SET n.mention_count = n.mention_count + u.count, n.updated_at = u.at, n.last_seen = u.at
}
CALL () {
  UNWIND $message_mentions AS r
  MATCH (msg:Message {id: r.message_node_id}), (n:Entity {id: r.entity_id})
  CREATE (msg)-[:MENTIONS {start: r.start, end: r.end, text: r.text}]->(n)
}
CALL () {
  UNWIND $turn_mentions AS r
  MATCH (t:Turn {id: r.turn_node_id}), (n:Entity {id: r.entity_id})
  CREATE (t)-[:MENTIONS {count: r.count}]->(n)
}
CALL () {
  UNWIND $memory_mentions AS r
  MATCH (m:Memory {id: r.memory_id}), (n:Entity {id: r.entity_id})
  MERGE (m)-[:MENTIONS]->(n)
}
CALL () {
  UNWIND $related AS p
  MATCH (a:Entity {id: p.a}), (b:Entity {id: p.b})
  MERGE (a)-[r:RELATED_TO]->(b)
    ON CREATE SET r.weight = 0, r.first_seen = p.at
  SET r.weight = r.weight + p.n, r.last_seen = p.at
}
RETURN 1 AS done
