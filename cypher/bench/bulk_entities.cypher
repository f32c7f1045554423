// Benchmarks only: the entities a batch names for the first time, the shape commit/write_entities makes
// for an entity the gate lets through (an active entity memory item with its key, text and a vector of
// the main model); their counts are bench/bulk_entity_counts, their edges bench/bulk_*_mentions and
// bench/bulk_related.
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
                n.embedding = [x IN split(e.embedding, ' ') | toFloat(x) / 10000000.0]
RETURN count(n) AS entities
