// After a user's own write (Store.cypher with write): the Active label follows each memory item's status
// again, so an item written or changed by hand is searched as its status says (on Neo4j the active-only
// indexes cover the label). Reads every Memory node: a user's write is rare, a commit never runs this.
MATCH (m:Memory)
WHERE coalesce(m.status = 'active', false) <> m:Active
FOREACH (_ IN CASE WHEN m.status = 'active' THEN [1] ELSE [] END | SET m:Active)
FOREACH (_ IN CASE WHEN m.status = 'active' THEN [] ELSE [1] END | REMOVE m:Active)
RETURN count(m) AS settled
