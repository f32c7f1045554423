// traces prune: one batch of the namespace's CommitTraces created before $cutoff (null: any age), never
// one of the $keep newest. The caller repeats until deleted = 0.
CALL {
  MATCH (k:CommitTrace)
  WHERE k.namespace = $namespace AND k.session_id IS NOT NULL AND k.created_at IS NOT NULL
  WITH k ORDER BY k.created_at DESC, k.id DESC LIMIT $keep
  RETURN collect(k.id) AS kept
}
MATCH (c:CommitTrace)
WHERE c.namespace = $namespace AND c.session_id IS NOT NULL AND c.created_at IS NOT NULL
  AND ($cutoff IS NULL OR c.created_at < $cutoff) AND NOT c.id IN kept
WITH c LIMIT $batch
DETACH DELETE c
RETURN count(c) AS deleted
