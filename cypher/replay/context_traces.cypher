// Stored compose_context requests of a namespace, newest first: optionally one session's, optionally
// since a time (inclusive). $limit is "the last N" (or the replay's cap); the caller replays them
// oldest first.
MATCH (c:ContextTrace)
WHERE c.namespace = $namespace
  AND ($session_id IS NULL OR c.session_id = $session_id)
  AND ($since IS NULL OR c.created_at >= $since)
WITH c ORDER BY c.created_at DESC, c.id DESC LIMIT $limit
RETURN c.id AS context_id, c.session_id AS session_id, c.created_at AS created_at,
       c.config_fingerprint AS config_fingerprint, c.request AS request, c.plans AS plans,
       c.package AS package, c.trace AS trace
