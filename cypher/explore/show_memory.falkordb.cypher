// memory show: one item, by id or else by key (the active version of the key, else its newest), with
// its whole history (every version of the key and every item linked to it by SUPERSEDES / VERSION_OF /
// RETRACTS in either direction, each with its own edges), its provenance (the turns and messages it was
// derived from, with the message text) and the entities it mentions. Nothing outside $namespace.
// FalkorDB: CALL { WITH ... } imports, repeated in each branch of a UNION.
CALL {
  MATCH (m:Memory) WHERE m.id = $ref AND m.namespace = $namespace
  RETURN m, 0 AS rank
  UNION
  MATCH (m:Memory) WHERE m.namespace = $namespace AND m.key = $ref
  RETURN m, CASE m.status WHEN 'active' THEN 1 ELSE 2 END AS rank
}
WITH m, rank ORDER BY rank, m.created_at DESC LIMIT 1
CALL {
  WITH m
  CALL {
    WITH m
    MATCH (v:Memory) WHERE v.namespace = $namespace AND v.key = m.key
    RETURN v
    UNION
    WITH m
    MATCH (m)-[:SUPERSEDES|VERSION_OF|RETRACTS*1..50]-(v:Memory) WHERE v.namespace = $namespace
    RETURN v
  }
  CALL {
    WITH v
    MATCH (v)-[r:SUPERSEDES|VERSION_OF|RETRACTS]->(o:Memory)
    RETURN collect({type: type(r), id: o.id, at: r.at}) AS replaces
  }
  CALL {
    WITH v
    MATCH (o:Memory)-[r:SUPERSEDES|VERSION_OF|RETRACTS]->(v)
    RETURN collect({type: type(r), id: o.id, at: r.at}) AS replaced_by
  }
  WITH v, replaces, replaced_by ORDER BY v.created_at, v.id
  RETURN collect({id: v.id, key: v.key, status: v.status, version: v.version, text: v.text,
                  value_json: v.value_json, confidence: v.confidence, source: v.source,
                  session_id: v.source_session_id, turn_id: v.source_turn_id,
                  created_at: v.created_at, updated_at: v.updated_at,
                  replaces: replaces, replaced_by: replaced_by}) AS history
}
// Provenance: DERIVED_FROM edges, and the source turn / message named on the item (entities carry only
// those properties: they are linked from turns by MENTIONS, not derived from one).
CALL {
  WITH m
  CALL {
    WITH m
    MATCH (m)-[:DERIVED_FROM]->(t:Turn) WHERE t.namespace = $namespace
    RETURN t
    UNION
    WITH m
    MATCH (t:Turn)
    WHERE t.namespace = $namespace AND t.session_id = m.source_session_id AND t.seq IS NOT NULL
      AND t.turn_id = m.source_turn_id
    RETURN t
  }
  WITH t ORDER BY t.at, t.seq
  RETURN collect({session_id: t.session_id, turn_id: t.turn_id, seq: t.seq, at: t.at,
                  commit_id: t.commit_id}) AS turns
}
CALL {
  WITH m
  CALL {
    WITH m
    MATCH (m)-[:DERIVED_FROM]->(msg:Message) WHERE msg.namespace = $namespace
    RETURN msg
    UNION
    WITH m
    MATCH (t:Turn)-[:HAS_MESSAGE]->(msg:Message)
    WHERE t.namespace = $namespace AND t.session_id = m.source_session_id AND t.seq IS NOT NULL
      AND t.turn_id = m.source_turn_id AND msg.message_id = m.source_message_id
    RETURN msg
  }
  WITH msg ORDER BY msg.at, msg.position
  RETURN collect({session_id: msg.session_id, turn_id: msg.turn_id, message_id: msg.message_id,
                  role: msg.role, content: msg.content, at: msg.at}) AS messages
}
CALL {
  WITH m
  MATCH (m)-[:MENTIONS]->(e:Entity) WHERE e.namespace = $namespace
  WITH DISTINCT e ORDER BY e.name
  RETURN collect({id: e.id, key: e.key, name: e.name, kind: e.kind, canonical: e.canonical}) AS mentions
}
RETURN m {.id, .type, .key, .status, .confidence, .version, .text, .value_json, .source,
          .source_session_id, .source_turn_id, .source_message_id, .evidence_refs, .rule, .kind, .name,
          .canonical, .aliases, .mention_count, .created_at, .updated_at, .last_seen} AS item,
       history, turns, messages, mentions
