// Whether the graph holds any graphbrain data (every node graphbrain writes carries a namespace): a graph
// with data but no SchemaVersion record was written before versioned upgrades.
MATCH (n) WHERE n.namespace IS NOT NULL
RETURN 1 AS found LIMIT 1
