// The names of the namespace's candidate entities (seen, not through the entity gate), latest first:
// found again by their characters in later Chinese messages (graphbrain.nlp.phrases.known_phrases).
MATCH (e:Entity {namespace: $namespace})
WHERE e.status = 'candidate'
RETURN e.name AS name
ORDER BY e.last_seen DESC
LIMIT $limit
