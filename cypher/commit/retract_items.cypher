// A retraction without a corrected fact: the item is marked retracted and leaves the active set.
UNWIND $items AS it
MATCH (m:Memory {id: it.id})
SET m.status = 'retracted', m.active_key = null, m.updated_at = it.at, m.retracted_by_turn = $turn_node_id
REMOVE m:Active
RETURN count(m) AS retracted
