// replay-commits' scratch namespace only (its name carries "__replay_"): up to $batch of its nodes,
// whatever their label, are deleted with their edges per call; the caller loops until none is left.
MATCH (n)
WHERE n.namespace = $namespace AND n.namespace CONTAINS '__replay_'
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
