// relational: one hop of the traversal, as edges and what the walk weighs them by (the names a path
// shows are read for the hits' paths only: retrieve/relational_names). From every frontier node (internal node ids as strings, valid
// within this retrieval) along the memory graph's explanatory edges, either direction, to neighbours
// IN THE SAME NAMESPACE only. Each node contributes at most $fanout neighbours (heaviest edge, then most
// recent, then id), so a hub entity mentioned by thousands of turns cannot flood the subgraph.
UNWIND $frontier AS eid
// toInteger bound first: compared inside the MATCH, FalkorDB scans every node per id instead of seeking.
WITH eid, toInteger(eid) AS nid
MATCH (a) WHERE id(a) = nid
CALL {
  WITH a
  MATCH (a)-[r:MENTIONS|RELATED_TO|DERIVED_FROM|SUPERSEDES|VERSION_OF|REFERENCES|HAS_MESSAGE|NEXT]-(b)
  WHERE b.namespace = $namespace
  RETURN r, b
  ORDER BY coalesce(r.weight, 1) DESC, coalesce(b.updated_at, b.at, b.last_seen) DESC, b.id
  LIMIT $fanout
}
RETURN collect({src: eid,
                rel: type(r),
                weight: toFloat(coalesce(r.weight, 1)),
                dst: toString(id(b)),
                id: b.id,
                labels: labels(b),
                turn_count: b.turn_count}) AS rows
