// Entities that ingest created and that nothing refers to any more (no edge of any kind): removing the
// document that named them removes them too. Entities conversation memory touched always keep an edge.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.rule = 'resource_ingest' AND NOT (e)--()
DELETE e
RETURN count(e) AS deleted
