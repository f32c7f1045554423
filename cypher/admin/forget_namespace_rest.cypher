// forget a namespace, last: any node still carrying the namespace whatever its label (a kind this version
// does not know of). A full scan, run once after forget_namespace_batch has removed everything it knows.
MATCH (n)
WHERE n.namespace = $namespace
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n) AS deleted
