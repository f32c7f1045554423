// The messages beside each candidate message, in the session's order (turn seq, then position): the
// other messages of its turn and those of the turns just before and after it (NEXT). The caller picks
// the one right before and the one right after; a turn may then inherit part of its neighbours' scores.
UNWIND $ids AS id
MATCH (t:Turn)-[:HAS_MESSAGE]->(msg:Message {id: id})
WHERE msg.namespace = $namespace
OPTIONAL MATCH (t)-[:HAS_MESSAGE]->(o:Message)
WITH id, msg, t, collect({position: o.position, id: o.id}) AS own
OPTIONAL MATCH (before:Turn)-[:NEXT]->(t)
OPTIONAL MATCH (before)-[:HAS_MESSAGE]->(b:Message)
WITH id, msg, t, own, collect({position: b.position, id: b.id, turn_id: b.turn_id}) AS previous
OPTIONAL MATCH (t)-[:NEXT]->(after:Turn)
OPTIONAL MATCH (after)-[:HAS_MESSAGE]->(a:Message)
WITH id, msg, own, previous, collect({position: a.position, id: a.id, turn_id: a.turn_id}) AS following
RETURN collect({id: id, position: msg.position, turn_id: msg.turn_id, session_id: msg.session_id, own: own,
                previous: previous, following: following}) AS rows
