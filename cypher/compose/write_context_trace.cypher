// The trace of one compose_context: request, plans, chosen and dropped evidence, budget figures.
CREATE (c:ContextTrace {id: $context_id, namespace: $namespace, session_id: $session_id,
                        created_at: $created_at, config_fingerprint: $fingerprint,
                        request: $request, plans: $plans, package: $package, trace: $trace})
RETURN c.id AS context_id
