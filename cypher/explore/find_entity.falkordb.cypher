// entity: resolve a name to Entity nodes of the namespace, best first. Ways, in rank order: the canonical
// form ($names: the name canonicalised for every entity kind), the id or key as given ($raw), the display
// name or an alias (case-folded, also in $names), then the entity_names full-text index ($fts: the
// escaped Lucene query, null to skip). The full-text limit is generous because hits of other namespaces
// are dropped after the index call.
// FalkorDB: the Entity full-text index over the store's pre-tokenised name_fts / aliases_text_fts.
// @fulltext fts
CALL {
  MATCH (e:Entity)
  WHERE e.namespace = $namespace AND e.canonical IN $names
  RETURN e, 0 AS rank, 1.0 AS score, 'canonical' AS via
  UNION
  MATCH (e:Entity)
  WHERE e.namespace = $namespace AND (e.id = $raw OR e.key = $raw)
  RETURN e, 0 AS rank, 1.0 AS score, 'id' AS via
  UNION
  MATCH (e:Entity)
  WHERE e.namespace = $namespace
    AND (toLower(e.name) IN $names OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) IN $names))
  RETURN e, 1 AS rank, 1.0 AS score, 'alias' AS via
  UNION
  UNWIND CASE WHEN $fts IS NULL THEN [] ELSE [$fts] END AS q
  CALL db.idx.fulltext.queryNodes('Entity', q) YIELD node, score
  WITH node AS e, score ORDER BY score DESC LIMIT 500
  WITH e, score WHERE e.namespace = $namespace
  RETURN e, 2 AS rank, score, 'fulltext' AS via
}
// Candidates (never through the entity gate) are not entities a person looks up.
WITH e, rank, score, via WHERE coalesce(e.status, 'active') <> 'candidate'
WITH e, rank, score, via ORDER BY rank, score DESC, coalesce(e.mention_count, 0) DESC, e.id
LIMIT $limit
RETURN e.id AS id, e.key AS key, e.name AS name, e.kind AS kind, e.canonical AS canonical,
       coalesce(e.mention_count, 0) AS mention_count, via, score
