// Which of these entity ids already exist (created by conversation memory or an earlier ingest).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e.id AS id
