// The outgoing relationships of a page of nodes whose other end is in the namespace too.
UNWIND $ids AS id
MATCH (a:{{label}} {id: id})-[r]->(b)
WHERE b.namespace = $ns
RETURN a.id AS a, type(r) AS type, properties(r) AS props, b.id AS b, labels(b) AS b_labels
