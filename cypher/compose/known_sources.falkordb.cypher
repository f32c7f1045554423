// Refs seen in conversation and documents in the library: what a message may name as a scope.
// FalkorDB: a subquery opening with OPTIONAL MATCH keeps its null row through `WITH x WHERE x IS NOT NULL`
// (an empty library read as one document of nulls, so every compose searched it); an aggregating MATCH
// gives the one row with an empty list instead.
CALL {
  MATCH (r:Ref)
  WHERE r.namespace = $namespace
  RETURN collect({uri: r.uri, title: r.title, type: r.type})[..200] AS refs
}
CALL {
  MATCH (d:Document)
  WHERE d.namespace = $namespace
  RETURN collect({uri: d.source_uri, title: d.title, document_id: d.id})[..500] AS documents
}
RETURN refs, documents
