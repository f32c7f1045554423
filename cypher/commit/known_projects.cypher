// The projects the namespace's task / decision / goal / event keys name ("task:<project>:<slug>"): a
// project's name said anywhere in a message then places an item in it. One row per key lock (MemoryKey),
// read at most once a minute per process (commit/pipeline.py).
MATCH (l:MemoryKey {namespace: $namespace})
WITH split(l.key, ':') AS parts
WHERE size(parts) >= 3 AND parts[0] IN ['task', 'decision', 'goal', 'event']
RETURN DISTINCT parts[1] AS project
LIMIT $limit
