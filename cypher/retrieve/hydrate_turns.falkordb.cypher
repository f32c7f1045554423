// Everything evidence needs about the fused message candidates, in one round trip: the message, its
// turn node (for the graphbrain://turn/ URI) and the entities the message or its turn mentions.
UNWIND $ids AS id
MATCH (msg:Message {id: id})
WHERE msg.namespace = $namespace
OPTIONAL MATCH (t:Turn)-[:HAS_MESSAGE]->(msg)
RETURN msg.id AS id, msg.message_id AS message_id, msg.turn_id AS turn_id, msg.session_id AS session_id,
       t.id AS turn_node_id, t.seq AS seq, msg.role AS role, msg.content AS content, msg.at AS at,
       msg.language AS language, msg.position AS position, msg.name AS speaker, msg.filler AS filler,
       [(msg)-[:MENTIONS]->(e:Entity) WHERE e.namespace = $namespace | e.canonical] AS message_entities,
       CASE WHEN t IS NULL THEN []
            ELSE [(t)-[:MENTIONS]->(te:Entity) WHERE te.namespace = $namespace | te.canonical] END AS turn_entities
