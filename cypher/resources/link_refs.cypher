// (Ref)-[:INGESTED_AS]->(Document) for refs of a turn that were ingested; never across namespaces.
UNWIND $links AS l
MATCH (r:Ref {id: l.ref_id})
MATCH (d:Document {id: l.document_id})
WHERE r.namespace = d.namespace
MERGE (r)-[:INGESTED_AS]->(d)
RETURN r.id AS ref_id, d.id AS document_id
