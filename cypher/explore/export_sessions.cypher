// export (with sessions): one page of the namespace's Session nodes after $after (keyset paging on id).
// Their HAS_TURN edges come with the turns (export_turns).
MATCH (s:Session)
WHERE s.namespace = $namespace AND s.id > $after
WITH s ORDER BY s.id LIMIT $page
RETURN s.id AS id, labels(s) AS labels, s {.*} AS props, [] AS edges
