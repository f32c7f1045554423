// Takes back a commit_turn that failed half-way on a backend without multi-statement rollback (the
// embedded one): first deletes what the commit created, then restores what it changed from the
// pre-image undo/commit_capture read ($before_*). Every statement is idempotent: after a crash the
// whole file runs again. Deleting comes first because the restored items take back their active_key,
// which is unique.

// Memory items derived from the failed turn are all new (the turn itself was) — unless another writer
// committed this very turn first ($before_turn_existed): then all of it is theirs and stays.
MATCH (m:Memory)-[:DERIVED_FROM]->(:Turn {id: $turn_node_id})
WHERE NOT $before_turn_existed AND NOT m:Entity
DETACH DELETE m;

MATCH (:Turn {id: $turn_node_id})-[:HAS_MESSAGE]->(:Message)-[:CALLED]->(tc:ToolCall)
WHERE NOT $before_turn_existed
DETACH DELETE tc;

MATCH (:Turn {id: $turn_node_id})-[:HAS_MESSAGE]->(msg:Message)
WHERE NOT $before_turn_existed
DETACH DELETE msg;

MATCH (c:CommitTrace {id: $commit_id})
DETACH DELETE c;

MATCH (t:Turn {id: $turn_node_id})
WHERE NOT $before_turn_existed
DETACH DELETE t;

MATCH (:Session {id: $session_node_id})-[:HAS_SUMMARY]->(sum:Summary)
WHERE sum.version > $before_summary_version
DETACH DELETE sum;

// Relations, entities, refs and key locks the commit created: those of its ids without a pre-image.
UNWIND $pairs AS p
MATCH (:Entity {id: p[0]})-[r:RELATED_TO]->(:Entity {id: p[1]})
WHERE NOT ((p[0] + '|' + p[1]) IN [x IN $before_related | x.a + '|' + x.b])
DELETE r;

MATCH (n:Entity)
WHERE n.id IN $entity_ids AND NOT (n.id IN [x IN $before_entities | x.id])
DETACH DELETE n;

MATCH (f:Ref)
WHERE f.id IN $ref_ids AND NOT (f.id IN [x IN $before_refs | x.id])
DETACH DELETE f;

MATCH (l:MemoryKey)
WHERE l.id IN $lock_ids AND NOT (l.id IN [x IN $before_keys | x.id])
DETACH DELETE l;

MATCH (s:Session {id: $session_node_id})
WHERE $before_session IS NULL
DETACH DELETE s;

// What existed: back to the pre-image.
MATCH (s:Session {id: $session_node_id})
WITH s, $before_session AS b
WHERE b IS NOT NULL
SET s.last_seq = b.last_seq, s.updated_at = b.updated_at, s.summary_version = b.summary_version,
    s.summary_upto_seq = b.summary_upto_seq, s.tokens_since_summary = b.tokens_since_summary,
    s.summary_id = b.summary_id;

UNWIND $before_items AS b
MATCH (m:Memory {id: b.id})
SET m.status = b.status, m.active_key = b.active_key, m.updated_at = b.updated_at,
    m.retracted_by_turn = b.retracted_by_turn
FOREACH (_ IN CASE WHEN b.status = 'active' THEN [1] ELSE [] END | SET m:Active)
FOREACH (_ IN CASE WHEN b.status = 'active' THEN [] ELSE [1] END | REMOVE m:Active);

// FtsPending: the embedded store refreshes the full-text copies of the restored names and aliases.
UNWIND $before_entities AS b
MATCH (n:Entity {id: b.id})
SET n.aliases = b.aliases, n.aliases_text = b.aliases_text, n.text = b.text,
    n.mention_count = b.mention_count, n.turn_count = b.turn_count, n.updated_at = b.updated_at,
    n.last_seen = b.last_seen, n.status = b.status, n.active_key = b.active_key,
    n.missing_embedding = b.missing_embedding
// A candidate the commit promoted got its vector then: a candidate has none.
FOREACH (_ IN CASE WHEN b.embedded THEN [] ELSE [1] END | SET n.embedding = null)
FOREACH (_ IN CASE WHEN b.status = 'active' THEN [1] ELSE [] END | SET n:Active)
FOREACH (_ IN CASE WHEN b.status = 'active' THEN [] ELSE [1] END | REMOVE n:Active)
SET n:FtsPending;

UNWIND $before_related AS b
MATCH (:Entity {id: b.a})-[r:RELATED_TO]->(:Entity {id: b.b})
SET r.weight = b.weight, r.last_seen = b.last_seen;

UNWIND $before_refs AS b
MATCH (f:Ref {id: b.id})
SET f.title = b.title, f.metadata_json = b.metadata_json, f.last_seen = b.last_seen;

UNWIND $before_keys AS b
MATCH (l:MemoryKey {id: b.id})
SET l.touched = b.touched
