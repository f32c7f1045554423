// One stored compose_context request, by context_id, in the caller's namespace: a replay's input.
MATCH (c:ContextTrace {id: $context_id})
WHERE c.namespace = $namespace
RETURN c.id AS context_id, c.session_id AS session_id, c.created_at AS created_at,
       c.config_fingerprint AS config_fingerprint, c.request AS request, c.plans AS plans,
       c.package AS package, c.trace AS trace
