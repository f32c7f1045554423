// Write the pre-tokenised copies ($rows: [{id, props}]) and clear the mark.
UNWIND $rows AS r
MATCH (n) WHERE id(n) = r.id
SET n += r.props
REMOVE n:FtsPending
