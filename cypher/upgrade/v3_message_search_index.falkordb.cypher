// v3 (schema change): FalkorDB keeps one full-text index per label, its options (no stop words) fixed
// when it was created; search_text joins the Message index as a field (queries name the field, so the
// content_fts copies older messages still carry match nothing).
CALL db.idx.fulltext.createNodeIndex({label: 'Message'}, {field: 'search_text', nostem: true})
