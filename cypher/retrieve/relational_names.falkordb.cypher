// relational: what names the nodes on the hits' paths (see relational_names.cypher), by internal id
// (as a string) of this retrieval.
UNWIND $eids AS eid
// toInteger bound first: compared inside the MATCH, FalkorDB scans every node per id instead of seeking.
WITH eid, toInteger(eid) AS nid
MATCH (n) WHERE id(n) = nid
RETURN eid, n.type AS type, n.key AS key, n.canonical AS canonical, n.name AS name, n.uri AS uri,
       n.session_id AS session_id, n.turn_id AS turn_id, n.message_id AS message_id,
       n.document_id AS document_id, n.section_id AS section_id, n.chunk_index AS chunk_index
