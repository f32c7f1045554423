// Everything evidence needs about the fused chunk candidates, in one round trip: the chunk (which
// carries its document's title, URI, type and time), its section's L0 / L1 layers, the document's tags
// and topics, and the entities the chunk mentions.
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
WHERE c.namespace = $namespace
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
RETURN c.id AS id, c.document_id AS document_id, c.section_id AS section_id, c.chunk_index AS chunk_index,
       c.text AS text, c.offset_start AS offset_start, c.offset_end AS offset_end, c.page AS page,
       c.section_title AS section_title, c.content_hash AS content_hash, c.language AS language,
       c.title AS title, c.source_uri AS source_uri, c.source_type AS source_type,
       c.updated_at AS updated_at, s.l0 AS l0, s.l1 AS l1, s.heading_path AS heading_path,
       COLLECT { MATCH (:Document {id: c.document_id})-[:TAGGED]->(t:Tag) WHERE t.namespace = $namespace
                 RETURN t.name ORDER BY t.name } AS tags,
       COLLECT { MATCH (:Document {id: c.document_id})-[:IN_TOPIC]->(t:Topic) WHERE t.namespace = $namespace
                 RETURN t.name ORDER BY t.name } AS topics,
       COLLECT { MATCH (c)-[:MENTIONS]->(e:Entity) WHERE e.namespace = $namespace
                 RETURN e.canonical ORDER BY e.canonical } AS entities
