// Nodes of a namespace per label (a node with two labels counts under both): the copy's first check.
MATCH (n) WHERE n.namespace = $ns
UNWIND labels(n) AS l
RETURN l AS label, count(*) AS n
