// Everything evidence needs about the fused message candidates, in one round trip: the message, its
// turn node (for the graphbrain://turn/ URI) and the entities the message or its turn mentions.
UNWIND $ids AS id
MATCH (msg:Message {id: id})
WHERE msg.namespace = $namespace
OPTIONAL MATCH (t:Turn)-[:HAS_MESSAGE]->(msg)
WITH msg, t,
     COLLECT { MATCH (msg)-[:MENTIONS]->(e:Entity)
               WHERE e.namespace = $namespace RETURN e.canonical } AS message_entities,
     COLLECT { MATCH (t)-[:MENTIONS]->(e:Entity) WHERE e.namespace = $namespace RETURN e.canonical } AS turn_entities
RETURN collect({id: msg.id,
                message_id: msg.message_id,
                turn_id: msg.turn_id,
                session_id: msg.session_id,
                turn_node_id: t.id,
                seq: t.seq,
                role: msg.role,
                content: msg.content,
                at: msg.at,
                language: msg.language,
                position: msg.position,
                speaker: msg.name,
                filler: msg.filler,
                message_entities: message_entities,
                turn_entities: turn_entities}) AS rows
