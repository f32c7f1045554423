// Benchmarks only: refs named in turns (as commit/write_turn records them) and the turns' REFERENCES.
UNWIND $refs AS r
MATCH (t:Turn {id: r.turn_node_id})
MERGE (ref:Ref {id: r.id})
  ON CREATE SET ref.namespace = $namespace, ref.type = r.type, ref.uri = r.uri, ref.first_seen = r.at
SET ref.title = coalesce(r.title, ref.title), ref.metadata_json = r.metadata_json, ref.last_seen = r.at
CREATE (t)-[:REFERENCES]->(ref)
RETURN count(ref) AS refs
