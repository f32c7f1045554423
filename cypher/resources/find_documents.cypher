// Documents of a namespace by id or by source URI (remove accepts either).
MATCH (d:Document)
WHERE d.namespace = $namespace AND (d.id IN $refs OR d.source_uri IN $refs)
RETURN d.id AS id, d.source_uri AS source_uri
