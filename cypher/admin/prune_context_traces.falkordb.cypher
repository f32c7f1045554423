// traces prune: one batch of the namespace's ContextTraces created before $cutoff (null: any age), never
// one of the $keep newest. The caller repeats until deleted = 0.
CALL {
  MATCH (k:ContextTrace)
  WHERE k.namespace = $namespace
  WITH k ORDER BY k.created_at DESC, k.id DESC LIMIT $keep
  RETURN collect(k.id) AS kept
}
MATCH (c:ContextTrace)
WHERE c.namespace = $namespace
  AND ($cutoff IS NULL OR c.created_at < $cutoff) AND NOT c.id IN kept
WITH c LIMIT $batch
DETACH DELETE c
RETURN count(c) AS deleted
