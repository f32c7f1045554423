// Benchmarks only: before a batch's items are written, the item that holds each of their keys now
// (from an earlier batch, or written by commit_turn) is superseded: only one item per key may hold
// active_key. Found through the unique active_key constraint's index.
UNWIND $items AS it
MATCH (m:Memory {active_key: it.active_key})
SET m.status = 'superseded', m.active_key = null, m.updated_at = it.at
REMOVE m:Active
RETURN count(m) AS retired
