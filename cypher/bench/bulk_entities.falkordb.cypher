// Benchmarks only: the entities a batch names for the first time (see bulk_entities.cypher), the shape
// commit/write_entities.falkordb makes: the vector with vecf32(), and FtsPending, so the store fills the
// full-text copies of name and aliases right after this statement.
UNWIND $entities AS e
MERGE (n:Memory:Entity {id: e.id})
  ON CREATE SET n:Active, n.namespace = $namespace, n.type = 'entities', n.key = e.key, n.kind = e.kind,
                n.canonical = e.canonical, n.name = e.name, n.aliases = [], n.aliases_text = '',
                n.status = 'active', n.active_key = e.lock_id, n.confidence = e.confidence, n.source = 'user',
                n.source_session_id = e.session_id, n.source_turn_id = e.turn_id,
                n.source_message_id = e.message_id, n.created_at = e.at, n.updated_at = e.at,
                n.last_seen = e.at, n.mention_count = 0, n.turn_count = 0, n.version = 1,
                n.value_json = e.value_json, n.missing_embedding = false,
                n.text = '[entities:' + e.key + '] ' + e.name,
                n.embedding = vecf32([x IN split(e.embedding, ' ') | toFloat(x) / 10000000.0])
SET n:FtsPending
RETURN count(n) AS entities
