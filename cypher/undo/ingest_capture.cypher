// The pre-image of what one document ingest may change, read under the write lock just before it
// writes (only on a backend without multi-statement rollback: the embedded one); see undo/ingest.
OPTIONAL MATCH (d:Document {id: $document_id})
WITH d IS NOT NULL AS document_existed
OPTIONAL MATCH (e:Entity) WHERE e.id IN $entity_ids
WITH document_existed,
     [x IN collect(e) | {id: x.id, aliases: x.aliases, aliases_text: x.aliases_text, text: x.text,
                         mention_count: x.mention_count, last_seen: x.last_seen}] AS entities
OPTIONAL MATCH (t:Tag) WHERE t.id IN $label_ids
WITH document_existed, entities, [x IN collect(t) | x.id] AS tags
OPTIONAL MATCH (p:Topic) WHERE p.id IN $label_ids
WITH document_existed, entities, tags, [x IN collect(p) | x.id] AS topics
RETURN document_existed, entities, tags + topics AS label_ids
