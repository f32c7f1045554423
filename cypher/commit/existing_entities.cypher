// Which of these entities already passed the gate (exist as nodes).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e.id AS id
