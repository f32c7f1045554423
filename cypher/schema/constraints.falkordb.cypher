// Uniqueness on every id. FalkorDB needs an exact-match index under a unique constraint, so each line
// creates that index and the store adds `GRAPH.CONSTRAINT CREATE ... UNIQUE` on top of it (a node without
// the property is not constrained, so only active items, which carry active_key, are unique per key).
CREATE INDEX FOR (n:Session) ON (n.id);
CREATE INDEX FOR (n:Turn) ON (n.id);
CREATE INDEX FOR (n:Message) ON (n.id);
CREATE INDEX FOR (n:ToolCall) ON (n.id);
CREATE INDEX FOR (n:Ref) ON (n.id);
CREATE INDEX FOR (n:Memory) ON (n.id);
CREATE INDEX FOR (n:Memory) ON (n.active_key);
// MemoryKey nodes are the per-key write locks: one per id, found by index (schema v2, as on Neo4j).
CREATE INDEX FOR (n:MemoryKey) ON (n.id);
CREATE INDEX FOR (n:Entity) ON (n.id);
CREATE INDEX FOR (n:Summary) ON (n.id);
CREATE INDEX FOR (n:CommitTrace) ON (n.id);
CREATE INDEX FOR (n:ContextTrace) ON (n.id);
CREATE INDEX FOR (n:Document) ON (n.id);
CREATE INDEX FOR (n:Section) ON (n.id);
CREATE INDEX FOR (n:Chunk) ON (n.id);
CREATE INDEX FOR (n:Tag) ON (n.id);
CREATE INDEX FOR (n:Topic) ON (n.id);
CREATE INDEX FOR (n:SchemaVersion) ON (n.id);
