// Create a page of nodes that share one label set ({{labels}}: validated identifiers joined by ':');
// FalkorDB indexes only vecf32 vectors.
UNWIND $rows AS r
CREATE (n:{{labels}})
SET n += r.props
SET n.embedding = CASE WHEN r.embedding IS NULL THEN null ELSE vecf32(r.embedding) END
