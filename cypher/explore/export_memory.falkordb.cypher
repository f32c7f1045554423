// export: one page of the namespace's Memory nodes (entities included), ordered by id after $after
// (keyset paging: no SKIP over rows already sent), without their embeddings, each with its outgoing
// edges to other nodes of the namespace: SUPERSEDES / VERSION_OF / RETRACTS / MENTIONS / RELATED_TO
// between memory nodes, DERIVED_FROM to turns (the caller keeps those only when it exports turns).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.id > $after
WITH m ORDER BY m.id LIMIT $page
CALL {
  WITH m
  OPTIONAL MATCH (m)-[r:SUPERSEDES|VERSION_OF|RETRACTS|MENTIONS|RELATED_TO|DERIVED_FROM]->(o)
  WHERE o.namespace = $namespace AND (o:Memory OR o:Turn)
  RETURN collect(CASE WHEN r IS NULL THEN null
                      ELSE {type: type(r), source: m.id, target: o.id, props: properties(r)} END) AS edges
}
RETURN m.id AS id, labels(m) AS labels, m {.*, embedding: null} AS props, edges
