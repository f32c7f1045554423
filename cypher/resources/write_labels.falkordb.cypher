// A document's tags and topics (see write_labels.cypher): Tag / Topic nodes shared by id; old edges go
// only when new labels were given; a label no document uses any more is deleted.
MATCH (d:Document {id: $document_id})
CALL {
  WITH d
  OPTIONAL MATCH (d)-[r:TAGGED]->(old:Tag)
  WHERE $replace_tags
  DELETE r
  RETURN collect(old.id) AS old_tags
}
CALL {
  WITH d
  OPTIONAL MATCH (d)-[r:IN_TOPIC]->(old:Topic)
  WHERE $replace_topics
  DELETE r
  RETURN collect(old.id) AS old_topics
}
CALL {
  WITH d
  UNWIND $tags AS t
  MERGE (n:Tag {id: t.id})
    ON CREATE SET n.namespace = $namespace, n.name = t.name
  MERGE (d)-[:TAGGED]->(n)
}
CALL {
  WITH d
  UNWIND $topics AS t
  MERGE (n:Topic {id: t.id})
    ON CREATE SET n.namespace = $namespace, n.name = t.name
  MERGE (d)-[:IN_TOPIC]->(n)
}
CALL {
  WITH old_tags, old_topics
  OPTIONAL MATCH (n:Tag) WHERE n.id IN old_tags AND NOT ()-[:TAGGED]->(n)
  OPTIONAL MATCH (m:Topic) WHERE m.id IN old_topics AND NOT ()-[:IN_TOPIC]->(m)
  WITH collect(DISTINCT n) AS tags, collect(DISTINCT m) AS topics
  FOREACH (x IN tags + topics | DETACH DELETE x)
  RETURN size(tags) + size(topics) AS deleted
}
RETURN deleted
