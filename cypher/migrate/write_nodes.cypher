// Create a page of nodes that share one label set ({{labels}}: validated identifiers joined by ':').
UNWIND $rows AS r
CREATE (n:{{labels}})
SET n += r.props
SET n.embedding = r.embedding
