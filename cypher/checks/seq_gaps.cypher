// Sessions of a namespace whose turn sequence numbers are not exactly 1..n (a gap or a duplicate).
// Used by `graphbrain bench load` and the concurrency tests to check the per-session sequence.
MATCH (t:Turn {namespace: $namespace})
WITH t.session_id AS session_id, collect(t.seq) AS seqs
WITH session_id, seqs, size(seqs) AS n, reduce(m = 0, s IN seqs | CASE WHEN s > m THEN s ELSE m END) AS top
WITH session_id, n, top, size([s IN range(1, top) WHERE NOT s IN seqs]) AS missing
WHERE missing > 0 OR top <> n
RETURN session_id, n AS turns, top AS max_seq, missing
ORDER BY session_id
