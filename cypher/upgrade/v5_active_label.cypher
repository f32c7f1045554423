// v5: every active memory item (and active entity) carries the Active label; commits keep it from v5 on.
// At most $batch items per run; returns how many it labelled.
MATCH (m:Memory)
WHERE m.status = 'active' AND NOT m:Active AND ($namespace IS NULL OR m.namespace = $namespace)
WITH m LIMIT $batch
SET m:Active
RETURN count(m) AS changed
