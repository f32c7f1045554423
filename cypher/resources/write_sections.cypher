// All sections of one document in one statement (docs/graph-model.md, Resource library).
MATCH (d:Document {id: $document_id})
UNWIND $sections AS s
CREATE (n:Section {id: s.id, namespace: $namespace, document_id: $document_id, section_id: s.section_id,
                   index: s.index, title: s.title, heading_path: s.heading_path, level: s.level,
                   page: s.page, l0: s.l0, l1: s.l1, text: s.text,
                   offset_start: s.offset_start, offset_end: s.offset_end})
CREATE (d)-[:HAS_SECTION]->(n)
RETURN count(n) AS sections
