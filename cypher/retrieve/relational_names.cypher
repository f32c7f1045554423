// relational: what names the nodes on the hits' paths (graphbrain.retrieve.relational.node_label), by
// element id of this transaction; the walk itself reads only ids, labels and turn counts.
UNWIND $eids AS eid
MATCH (n) WHERE elementId(n) = eid
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
