// Every message of the graph: the N of BM25 on the turn side (the message_count parameter of
// retrieve/exact_turns).
// Alone like this FalkorDB reads the label's count without visiting a node; inside another query the same
// count scans every message (2 ms at 28k messages, once per exact query, growing with the graph).
MATCH (every:Message)
RETURN count(every) AS n
