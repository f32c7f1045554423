// entity: one Entity with its neighbourhood, all inside $namespace: related entities (RELATED_TO, both
// directions: a pair is stored once), the tasks and decisions that mention it (the current version of
// each such key), the turns that mention it (newest first, the start of their text, and a snippet of the first message
// that does), the documents whose chunks mention it, and a timeline of every mention (the newest
// $timeline_limit, oldest first).
// FalkorDB: CALL { WITH ... } imports (repeated in each UNION branch); e carried through every WITH.
// FalkorDB's substring() clamps its length by the string's bytes but walks characters, so a length past the
// end of a Chinese string reads beyond it and returns cut UTF-8 now and then: every length here is clamped to
// the characters left (size() counts characters).
MATCH (e:Entity {id: $entity_id})
WHERE e.namespace = $namespace
CALL {
  WITH e
  MATCH (e)-[r:RELATED_TO]-(o:Entity)
  WHERE o.namespace = $namespace AND o <> e
  WITH o, sum(r.weight) AS weight, min(r.first_seen) AS first_seen, max(r.last_seen) AS last_seen
  ORDER BY weight DESC, o.name LIMIT $limit
  RETURN collect({id: o.id, key: o.key, name: o.name, kind: o.kind, weight: weight, first_seen: first_seen,
                  last_seen: last_seen}) AS related
}
CALL {
  WITH e
  MATCH (m:Memory)-[:MENTIONS]->(e)
  WHERE m.namespace = $namespace AND m.type IN ['tasks', 'decisions']
  WITH DISTINCT m.key AS key
  MATCH (v:Memory)
  WHERE v.namespace = $namespace AND v.key = key
  WITH key, v ORDER BY CASE v.status WHEN 'active' THEN 0 ELSE 1 END, v.created_at DESC
  WITH key, head(collect(v)) AS v
  ORDER BY v.updated_at DESC LIMIT $limit
  RETURN collect({id: v.id, type: v.type, key: v.key, status: v.status, text: v.text,
                  value_json: v.value_json, session_id: v.source_session_id, created_at: v.created_at,
                  updated_at: v.updated_at}) AS items
}
CALL {
  WITH e
  MATCH (t:Turn)-[r:MENTIONS]->(e)
  WHERE t.namespace = $namespace
  WITH e, t, r ORDER BY t.at DESC, t.seq DESC LIMIT $limit
  CALL {
    WITH t, e
    OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(msg:Message)-[mr:MENTIONS]->(e)
    WITH msg, mr ORDER BY msg.position, mr.start LIMIT 1
    WITH msg, mr, CASE WHEN coalesce(mr.start, 0) > 80 THEN mr.start - 80 ELSE 0 END AS from
    WITH msg, CASE WHEN from < size(msg.content) THEN from ELSE 0 END AS from
    RETURN msg.message_id AS message_id, msg.role AS role,
           CASE WHEN msg IS NULL THEN null
                ELSE substring(msg.content, from, CASE WHEN size(msg.content) - from < 240
                                                       THEN size(msg.content) - from ELSE 240 END) END AS snippet
  }
  RETURN collect({session_id: t.session_id, turn_id: t.turn_id, seq: t.seq, at: t.at, count: r.count,
                  text: CASE WHEN size(t.text) <= 400 THEN t.text ELSE substring(t.text, 0, 400) END,
                  message_id: message_id, role: role, snippet: snippet}) AS turns
}
CALL {
  WITH e
  MATCH (c:Chunk)-[r:MENTIONS]->(e)
  WHERE c.namespace = $namespace
  WITH c.document_id AS document_id, count(DISTINCT c) AS chunks, sum(coalesce(r.count, 1)) AS mentions
  MATCH (d:Document {id: document_id})
  WHERE d.namespace = $namespace
  WITH d, chunks, mentions ORDER BY mentions DESC, d.updated_at DESC LIMIT $limit
  RETURN collect({document_id: d.id, title: d.title, source_uri: d.source_uri, source_type: d.source_type,
                  created_at: d.created_at, updated_at: d.updated_at, chunks: chunks,
                  mentions: mentions}) AS documents
}
CALL {
  WITH e
  CALL {
    WITH e
    MATCH (t:Turn)-[:MENTIONS]->(e)
    WHERE t.namespace = $namespace
    RETURN t.at AS at, 'turn' AS kind, t.session_id AS session_id, t.turn_id AS ref,
           'seq ' + toString(t.seq) AS detail
    UNION ALL
    WITH e
    MATCH (m:Memory)-[:MENTIONS]->(e)
    WHERE m.namespace = $namespace
    RETURN m.created_at AS at, 'memory' AS kind, m.source_session_id AS session_id, m.key AS ref,
           m.type + ' ' + m.status AS detail
    UNION ALL
    WITH e
    MATCH (c:Chunk)-[:MENTIONS]->(e)
    WHERE c.namespace = $namespace
    WITH DISTINCT c.document_id AS document_id
    MATCH (d:Document {id: document_id})
    WHERE d.namespace = $namespace
    RETURN d.created_at AS at, 'document' AS kind, null AS session_id, coalesce(d.title, d.source_uri) AS ref,
           d.source_uri AS detail
  }
  WITH at, kind, session_id, ref, detail ORDER BY at DESC LIMIT $timeline_limit
  WITH at, kind, session_id, ref, detail ORDER BY at, kind, ref
  RETURN collect({at: at, kind: kind, session_id: session_id, ref: ref, detail: detail}) AS timeline
}
RETURN e {.id, .key, .name, .kind, .canonical, .aliases, .status, .source, .rule, .confidence,
          .mention_count, .source_session_id, .source_turn_id, .created_at, .updated_at, .last_seen} AS entity,
       related, items, turns, documents, timeline
