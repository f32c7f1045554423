// Every constraint and its state (OPERATIONAL, UNDER CONSTRUCTION, PENDING, FAILED).
CALL db.constraints() YIELD label, properties, status
RETURN label, properties, status
