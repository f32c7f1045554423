// Refs seen in conversation and documents in the library: what a message may name as a scope.
CALL {
  OPTIONAL MATCH (r:Ref {namespace: $namespace})
  WITH r WHERE r IS NOT NULL
  RETURN collect({uri: r.uri, title: r.title, type: r.type})[..200] AS refs
}
CALL {
  OPTIONAL MATCH (d:Document {namespace: $namespace})
  WITH d WHERE d IS NOT NULL
  RETURN collect({uri: d.source_uri, title: d.title, document_id: d.id})[..500] AS documents
}
RETURN refs, documents
