// relational: what names the nodes on the hits' paths (see relational_names.cypher), by internal id
// (as a string) of this retrieval.
UNWIND $eids AS eid
// toInteger bound first: compared inside the MATCH, FalkorDB scans every node per id instead of seeking.
WITH eid, toInteger(eid) AS nid
MATCH (n) WHERE id(n) = nid
RETURN collect({eid: eid,
                type: n.type,
                key: n.key,
                canonical: n.canonical,
                name: n.name,
                uri: n.uri,
                session_id: n.session_id,
                turn_id: n.turn_id,
                message_id: n.message_id,
                document_id: n.document_id,
                section_id: n.section_id,
                chunk_index: n.chunk_index}) AS rows
