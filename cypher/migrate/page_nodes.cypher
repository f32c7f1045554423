// One keyset page of a label's nodes in a namespace. {{label}} is filled by QueryLibrary.render with a
// validated identifier only.
MATCH (n:{{label}}) WHERE n.namespace = $ns AND n.id > $after
RETURN labels(n) AS labels, properties(n) AS props
ORDER BY n.id LIMIT $b
