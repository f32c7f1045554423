// Entities (by id) that nothing mentions any more (no Turn, Message, Memory or Chunk MENTIONS them) are
// deleted with their edges (RELATED_TO included) and their write-lock node, if any. Used by every forget
// right after the deletes that removed mentions, in the same transaction. (A pattern predicate: FalkorDB
// has no EXISTS {}.)
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.namespace = $namespace AND NOT ()-[:MENTIONS]->(e)
OPTIONAL MATCH (l:MemoryKey {id: $namespace + '|' + e.key})
DETACH DELETE l, e
RETURN count(DISTINCT e) AS deleted
