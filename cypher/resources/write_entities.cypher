// Entities named in a document's chunks. They are the very :Memory:Entity nodes conversation memory uses:
// same id (graphbrain.ids.entity_id(namespace, canonical)), and on creation the same properties as
// commit/write_entities; source 'tool' and rule 'resource_ingest' say where this one came from.
// Each chunk that names one gets a (Chunk)-[:MENTIONS {count, start, end, text}]->(Entity) edge.
UNWIND $entities AS e
MERGE (n:Memory:Entity {id: e.id})
  ON CREATE SET n:Active, n.namespace = $namespace, n.type = 'entities', n.key = e.key, n.kind = e.kind,
                n.canonical = e.canonical, n.name = e.name, n.aliases = [], n.status = 'active',
                n.active_key = e.lock_id, n.confidence = e.confidence, n.source = 'tool',
                n.rule = 'resource_ingest', n.evidence_refs = [$source_uri], n.created_at = $now,
                n.updated_at = $now, n.mention_count = 0, n.version = 1, n.value_json = e.value_json,
                n.embedding = e.embedding
SET n.aliases = CASE WHEN e.name IN coalesce(n.aliases, []) OR e.name = n.name THEN coalesce(n.aliases, [])
                 ELSE coalesce(n.aliases, []) + e.name END,
    n.mention_count = coalesce(n.mention_count, 0) + e.count, n.last_seen = $now
SET n.aliases_text = reduce(s = '', a IN n.aliases | s + ' ' + a),
    n.text = '[entities:' + n.key + '] ' + n.name + CASE WHEN size(n.aliases) > 0
             THEN ' (aka ' + reduce(s = '', a IN n.aliases | s + CASE WHEN s = '' THEN '' ELSE ', ' END + a) + ')'
             ELSE '' END
WITH n, e
CALL (n, e) {
  UNWIND e.mentions AS m
  MATCH (c:Chunk {id: m.chunk_id})
  CREATE (c)-[:MENTIONS {count: m.count, start: m.start, end: m.end, text: m.text}]->(n)
}
RETURN count(n) AS entities
