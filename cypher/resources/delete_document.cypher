// The Document node itself (run after delete_content); returns the tag / topic ids it used so that
// delete_orphan_labels can drop the ones nothing else uses.
MATCH (d:Document {id: $document_id})
WHERE d.namespace = $namespace
OPTIONAL MATCH (d)-[:TAGGED|IN_TOPIC]->(l)
WITH d, d.source_uri AS source_uri, collect(DISTINCT l.id) AS label_ids
DETACH DELETE d
RETURN source_uri, label_ids
