// Uniqueness on every id. Ids are derived from (namespace, natural key) so they are unique across tenants.
CREATE CONSTRAINT session_id IF NOT EXISTS FOR (n:Session) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT turn_id IF NOT EXISTS FOR (n:Turn) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT message_id IF NOT EXISTS FOR (n:Message) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT toolcall_id IF NOT EXISTS FOR (n:ToolCall) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT ref_id IF NOT EXISTS FOR (n:Ref) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (n:Memory) REQUIRE n.id IS UNIQUE;
// At most one active item per namespace+key: only active items carry active_key (nulls are not indexed).
CREATE CONSTRAINT memory_active_key IF NOT EXISTS FOR (n:Memory) REQUIRE n.active_key IS UNIQUE;
// MemoryKey nodes are the per-key write locks: unique, so MERGE finds them by index and never twice.
CREATE CONSTRAINT memory_key_lock_id IF NOT EXISTS FOR (n:MemoryKey) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT summary_id IF NOT EXISTS FOR (n:Summary) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT commit_trace_id IF NOT EXISTS FOR (n:CommitTrace) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT context_trace_id IF NOT EXISTS FOR (n:ContextTrace) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (n:Document) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT section_id IF NOT EXISTS FOR (n:Section) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT tag_id IF NOT EXISTS FOR (n:Tag) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT topic_id IF NOT EXISTS FOR (n:Topic) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT schema_version_id IF NOT EXISTS FOR (n:SchemaVersion) REQUIRE n.id IS UNIQUE;
