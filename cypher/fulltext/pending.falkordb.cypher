// The nodes a write marked FtsPending, with every source property of a full-text copy
// (falkordb_store.FTS_FIELDS names which label indexes which of them).
MATCH (n:FtsPending)
RETURN id(n) AS id, labels(n) AS labels, n.aliases_text AS aliases_text, n.name AS name,
       n.section_title AS section_title, n.text AS text
