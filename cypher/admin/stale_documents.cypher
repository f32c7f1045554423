// Documents whose last ingest failed half-way on the embedded backend (undo/ingest cleared their
// content hash): `graphbrain doctor` lists them, and ingesting the source again rewrites each whole.
MATCH (d:Document)
WHERE ($namespace IS NULL OR d.namespace = $namespace) AND d.content_hash IS NULL
RETURN d.namespace AS namespace, d.source_uri AS source_uri
ORDER BY namespace, source_uri
LIMIT 20
