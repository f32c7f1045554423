// forget an entity: drop its canonical names from the turns' entity-gate windows (Turn.entity_keys), so a
// forgotten entity is not re-created at its next mention from mentions counted before it was forgotten.
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.session_id IS NOT NULL AND t.seq IS NOT NULL
  AND any(k IN coalesce(t.entity_keys, []) WHERE k IN $canonicals)
SET t.entity_keys = [k IN t.entity_keys WHERE NOT k IN $canonicals]
RETURN count(t) AS turns
