// relational: what names the nodes on the hits' paths (graphbrain.retrieve.relational.node_label), by
// element id of this transaction; the walk itself reads only ids, labels and turn counts.
UNWIND $eids AS eid
MATCH (n) WHERE elementId(n) = eid
RETURN eid, n.type AS type, n.key AS key, n.canonical AS canonical, n.name AS name, n.uri AS uri,
       n.session_id AS session_id, n.turn_id AS turn_id, n.message_id AS message_id,
       n.document_id AS document_id, n.section_id AS section_id, n.chunk_index AS chunk_index
