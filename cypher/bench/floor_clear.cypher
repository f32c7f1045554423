// Benchmarks only: remove up to $batch of the copies bench/floor_write made (the caller repeats it until
// it deletes nothing).
MATCH (n:BenchFloor)
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
