// Tags and topics (by id) that no document uses any more.
UNWIND $ids AS id
OPTIONAL MATCH (t:Tag {id: id})
OPTIONAL MATCH (p:Topic {id: id})
WITH coalesce(t, p) AS n
WHERE n IS NOT NULL AND NOT ()-[:TAGGED|IN_TOPIC]->(n)
DETACH DELETE n
RETURN count(n) AS deleted
