// Write the pre-tokenised copies ($rows: [{id, props}]) and clear the mark.
UNWIND $rows AS r
// The id bound first: compared inside the MATCH, FalkorDB scans every node per row instead of seeking
// (8 ms a row at 63k nodes, most of an embedded commit_turn).
WITH r, r.id AS nid
MATCH (n) WHERE id(n) = nid
SET n += r.props
REMOVE n:FtsPending
