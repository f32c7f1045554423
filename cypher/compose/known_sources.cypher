// Refs seen in conversation and documents in the library: what a message may name as a scope.
CALL () {
  MATCH (r:Ref {namespace: $namespace})
  RETURN collect({uri: r.uri, title: r.title, type: r.type})[..200] AS refs
}
CALL () {
  MATCH (d:Document {namespace: $namespace})
  RETURN collect({uri: d.source_uri, title: d.title, document_id: d.id})[..500] AS documents
}
RETURN refs, documents
