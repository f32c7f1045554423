// Relationships inside a namespace (both ends in it) per type: the copy's second check.
MATCH (a)-[r]->(b) WHERE a.namespace = $ns AND b.namespace = $ns
RETURN type(r) AS type, count(*) AS n
