// forget: one batch of the context traces of $namespace that quote a forgotten item ($needles: its key, its
// version ids, its text) — what compose served is not rewritten after the fact, so those traces go. The
// caller repeats until deleted = 0.
MATCH (c:ContextTrace)
WHERE c.namespace = $namespace
  AND any(n IN $needles WHERE c.package CONTAINS n OR c.trace CONTAINS n OR c.plans CONTAINS n
                              OR c.request CONTAINS n)
WITH c LIMIT $batch
DETACH DELETE c
RETURN count(c) AS deleted
