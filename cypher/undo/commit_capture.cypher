// The pre-image of everything one commit_turn may change, read under the write lock just before it
// writes (only on a backend without multi-statement rollback: the embedded one). undo/commit puts it
// back if the commit fails half-way. One row; lists are empty (and session null) where nothing exists.
// turn_existed: another writer committed this very turn first (our write then fails on its constraint),
// so the undo must leave that turn and what derives from it alone.
OPTIONAL MATCH (t:Turn {id: $turn_node_id})
WITH t IS NOT NULL AS turn_existed
OPTIONAL MATCH (s:Session {id: $session_node_id})
WITH turn_existed, CASE WHEN s IS NULL THEN null ELSE {
       last_seq: s.last_seq, updated_at: s.updated_at, summary_version: s.summary_version,
       summary_upto_seq: s.summary_upto_seq, tokens_since_summary: s.tokens_since_summary,
       summary_id: s.summary_id} END AS session,
     CASE WHEN s IS NULL THEN 0 ELSE coalesce(s.summary_version, 0) END AS summary_version
OPTIONAL MATCH (l:MemoryKey) WHERE l.id IN $lock_ids
WITH turn_existed, session, summary_version, [x IN collect(l) | {id: x.id, touched: x.touched}] AS keys
OPTIONAL MATCH (m:Memory) WHERE m.active_key IN $lock_ids
WITH turn_existed, session, summary_version, keys,
     [x IN collect(m) | {id: x.id, status: x.status, active_key: x.active_key, updated_at: x.updated_at,
                         retracted_by_turn: x.retracted_by_turn}] AS items
OPTIONAL MATCH (e:Entity) WHERE e.id IN $entity_ids
WITH turn_existed, session, summary_version, keys, items,
     [x IN collect(e) | {id: x.id, aliases: x.aliases, aliases_text: x.aliases_text, text: x.text,
                         mention_count: x.mention_count, turn_count: x.turn_count, updated_at: x.updated_at,
                         status: x.status, active_key: x.active_key,
                         last_seen: x.last_seen, missing_embedding: x.missing_embedding,
                         embedded: x.embedding IS NOT NULL}] AS entities
OPTIONAL MATCH (a:Entity)-[r:RELATED_TO]->(b:Entity) WHERE a.id IN $entity_ids AND b.id IN $entity_ids
WITH turn_existed, session, summary_version, keys, items, entities,
     [x IN collect(CASE WHEN r IS NULL THEN null ELSE {a: a.id, b: b.id, weight: r.weight,
                                                        last_seen: r.last_seen} END) | x] AS related
OPTIONAL MATCH (f:Ref) WHERE f.id IN $ref_ids
RETURN turn_existed, session, summary_version, keys, items, entities, related,
       [x IN collect(f) | {id: x.id, title: x.title, metadata_json: x.metadata_json,
                           last_seen: x.last_seen}] AS refs
