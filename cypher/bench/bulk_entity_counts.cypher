// Benchmarks only: what a batch adds to each entity it names, as commit/write_entities counts it: the
// mentions (mention_count), the turns that mention it (turn_count: its specificity for the relational
// walk and the bridges), and when it was last seen.
UNWIND $updates AS u
MATCH (n:Entity {id: u.id})
SET n.mention_count = coalesce(n.mention_count, 0) + u.count, n.turn_count = coalesce(n.turn_count, 0) + u.turns,
    n.updated_at = u.at, n.last_seen = u.at
RETURN count(n) AS entities
