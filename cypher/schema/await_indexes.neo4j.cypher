// Block until every index is ONLINE, at most $timeout seconds (raises on a FAILED index or a timeout).
CALL db.awaitIndexes($timeout)
