// v3 fill: the analyzed search_text and the filler flag, as commit_turn writes them from v3 on.
UNWIND $rows AS r
MATCH (m:Message {id: r.id})
SET m.search_text = r.search_text, m.filler = r.filler
RETURN count(m) AS changed
