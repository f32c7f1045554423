// Tags and topics (by id) that no document uses any more (FalkorDB cannot coalesce two optional nodes,
// so tags and topics are looked at in turn).
CALL {
  UNWIND $ids AS id
  MATCH (t:Tag {id: id})
  WHERE NOT ()-[:TAGGED]->(t)
  WITH collect(t) AS gone
  FOREACH (x IN gone | DETACH DELETE x)
  RETURN size(gone) AS tags
}
CALL {
  UNWIND $ids AS id
  MATCH (t:Topic {id: id})
  WHERE NOT ()-[:IN_TOPIC]->(t)
  WITH collect(t) AS gone
  FOREACH (x IN gone | DETACH DELETE x)
  RETURN size(gone) AS topics
}
RETURN tags + topics AS deleted
