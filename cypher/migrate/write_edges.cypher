// Create a batch of relationships of one type between two primary labels (all three validated).
UNWIND $rows AS r
MATCH (a:{{a_label}} {id: r.a})
MATCH (b:{{b_label}} {id: r.b})
CREATE (a)-[e:{{rel}}]->(b)
SET e += r.props
