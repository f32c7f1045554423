// relational: one hop of the traversal. From every frontier node (internal node ids as strings, valid
// within this retrieval) along the memory graph's explanatory edges, either direction, to neighbours
// IN THE SAME NAMESPACE only. Each node contributes at most $fanout neighbours (heaviest edge, then most
// recent, then id), so a hub entity mentioned by thousands of turns cannot flood the subgraph.
UNWIND $frontier AS eid
MATCH (a) WHERE id(a) = toInteger(eid)
CALL {
  WITH a
  MATCH (a)-[r:MENTIONS|RELATED_TO|DERIVED_FROM|SUPERSEDES|VERSION_OF|REFERENCES|HAS_MESSAGE]-(b)
  WHERE b.namespace = $namespace
  RETURN r, b
  ORDER BY coalesce(r.weight, 1) DESC, coalesce(b.updated_at, b.at, b.last_seen) DESC, b.id
  LIMIT $fanout
}
RETURN eid AS src, type(r) AS rel, toFloat(coalesce(r.weight, 1)) AS weight, toString(id(b)) AS dst,
       b.id AS id, labels(b) AS labels, b.type AS type, b.key AS key, b.canonical AS canonical,
       b.name AS name, b.uri AS uri, b.session_id AS session_id, b.turn_id AS turn_id,
       b.message_id AS message_id, b.document_id AS document_id, b.section_id AS section_id,
       b.chunk_index AS chunk_index
